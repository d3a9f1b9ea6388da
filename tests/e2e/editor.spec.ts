import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { formatLongUkDay, londonDayFromToday as londonDay } from '../../domain';
import {
  adminCampaign,
  axeViolations,
  expect,
  expectNoAxeViolations,
  firstApproved,
  openAs,
  signIn as session,
  test,
} from './fixtures';

const DONOR = 'donor@example.org';
const PNG = path.join(process.cwd(), 'public/images/demo/cause-1.png');

/** The run's one session of the account (tests/e2e/fixtures.ts), with the user's full name. */
async function signIn(request: APIRequestContext, email: string) {
  const { token, user } = await session(request, email);
  return { token, name: `${user.name.first_name} ${user.name.last_name}` };
}

test('a signed-in donor starts an appeal from a template cause with an uploaded image', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const { token, name } = await signIn(request, DONOR);
  await context.addInitScript((value) => localStorage.setItem('uk_nfp_token', value), token);

  // A supporter reading a campaign's page starts an appeal of their own for that campaign.
  // A seeded campaign that takes gifts (the newest may be another test's, opening later).
  const campaign = await firstApproved(request, '/api/campaigns');
  await page.goto(`/campaigns/${campaign.short_id}`);
  await page.getByRole('link', { name: `Start your own appeal for ${campaign.title}` }).click();
  await expect(page).toHaveURL(`/fund-raising?campaign=${campaign.short_id}`);
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.getByRole('heading', { level: 1, name: 'Start a Fundraise' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Choose a cause to fundraise for' })).toBeVisible();
  await page.getByRole('button', { name: /Run for Clean Water/ }).click();
  await expect(page.getByRole('combobox', { name: 'Campaign' })).toHaveValue(campaign._id);

  // The template fills the form; [[name]] becomes the fundraiser's full name.
  await expect(page.getByLabel('Title')).toHaveValue('Run for Clean Water');
  await expect(page.getByLabel('Your story')).toHaveValue(new RegExp(`^${name} is running`));

  const title = `E2E clean water run ${Date.now()}`;
  await page.getByLabel('Title').fill(title);
  const description = page.getByLabel('Description');
  await description.fill('x'.repeat(160));
  await expect(description).toHaveValue('x'.repeat(150));
  await expect(page.getByText('0 characters remaining')).toBeVisible();
  await expect(description).toHaveClass(/at-limit/);
  await description.fill('Running 10k so a village gets a water pump.');
  await expect(page.getByText(`${150 - 43} characters remaining`)).toBeVisible();

  await expect(page.getByLabel('Start date')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveCount(0);
  const submit = page.getByRole('button', { name: 'Continue' });
  await page.getByLabel('Goal (£)').fill('250');
  // The cause came with its cover (decision 074); the fundraiser puts their own picture in its place.
  await expect(page.getByRole('img', { name: 'Water drop' })).toHaveAttribute('src', '/images/demo/cause-1.png');
  await expect(submit).toBeEnabled();
  await page.getByRole('button', { name: 'Remove Water drop' }).click();
  await expect(submit).toBeDisabled();
  // The dimmed button says what it waits for.
  await expect(submit).toHaveAccessibleDescription('To continue, add an image.');

  await page.getByLabel('Upload images').setInputFiles(PNG);
  await expect(page.getByRole('img', { name: 'cause-1.png' })).toBeVisible();
  const preview = page.getByRole('complementary', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: title })).toBeVisible();
  await expect(preview.getByText('£250')).toBeVisible();

  await expect(submit).toBeEnabled();
  expect(await axeViolations(page, { include: '#main', tags: ['wcag2a', 'wcag2aa'] })).toEqual([]);
  await submit.click();
  // Spec: success lands on My Appeals, which says the appeal is live (no approval asked for here).
  await expect(page).toHaveURL(/\/dashboard\/active-appeals\?created=[0-9A-Za-z]{22}&status=approved$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your appeal is live' })).toBeVisible();

  const shortId = new URL(page.url()).searchParams.get('created')!;
  // The notice hands over the link to send to friends, ready to copy.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await expect(page.getByRole('textbox', { name: 'Share link' })).toHaveValue(`${baseURL}/appeals/${shortId}`);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/appeals/${shortId}`);
  const appeal = await (await request.get(`/api/appeals/${shortId}`)).json();
  expect(appeal).toMatchObject({
    title,
    goal: 25_000,
    status: 'approved',
    created_by: { first_name: name.split(' ')[0] },
    campaign_id: campaign._id,
  });
  expect(appeal.images[0].Key).toMatch(/^campaigns\/[0-9a-f-]{36}\.png$/);
  const image = await request.get(appeal.images[0].url);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  expect(image.headers()['cache-control']).toContain('immutable');
  // The editor made WebP copies of the 1200 px PNG in the browser; they sit beside it in R2.
  expect(appeal.images[0].variants).toEqual([480, 800]);
  for (const width of [480, 800]) {
    const copy = await request.get(`${appeal.images[0].url}@${width}.webp`);
    expect(copy.status()).toBe(200);
    expect(copy.headers()['content-type']).toBe('image/webp');
  }

  await page.getByRole('link', { name: 'View your appeal' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  // The appeal page offers them in the LCP image's srcset.
  await expect(page.locator('.image-carousel source[type="image/webp"]').first()).toHaveAttribute(
    'srcset',
    /@480\.webp 480w, .*@800\.webp 800w/,
  );
  await expect(page.locator('#donate astro-island')).toHaveCount(1);

  // Its last day passes (the fundraiser moves the end date back): the page says it ended and takes
  // no gifts, offers the campaign instead, and loads no donation box (docs/decisions/056).
  const lastDay = londonDay(-1);
  const moved = await request.put(`/api/campaigns/${appeal._id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { date: { from: londonDay(-3), to: lastDay } },
  });
  expect(moved.status()).toBe(200);
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await page.reload();
  await expect(page.locator('.detail-share').getByText('Ended', { exact: true })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Giving has ended' });
  await expect(
    panel.getByText(
      `This appeal ended on ${formatLongUkDay(lastDay)} and takes no new gifts. Thank you to everyone who gave.`,
      { exact: true },
    ),
  ).toBeVisible();
  await expect(panel.getByRole('link', { name: `Give to ${campaign.title}` })).toHaveAttribute(
    'href',
    `/campaigns/${campaign.short_id}`,
  );
  await expect(page.locator('#donate astro-island')).toHaveCount(0);
  // Nobody is asked to be the first to give, or to add a message when they give.
  await expect(page.getByText('No donations.', { exact: true })).toBeVisible();
  await expect(page.getByText('No messages.', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: `Donate to ${title}` })).toHaveCount(0);
  expect(scripts.filter((url) => /DonationBox/.test(url))).toEqual([]);
  // The public list's card and the fundraiser's My Appeals say so too.
  await page.goto(`/campaigns/${campaign.short_id}/appeals`);
  const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card.getByText('Ended', { exact: true })).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toHaveCount(0);
  await page.goto('/dashboard/active-appeals');
  const mine = page.getByRole('article').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(mine.getByText(`Ended ${formatLongUkDay(lastDay)}`)).toBeVisible();
  await expect(mine.getByRole('link', { name: `View ${title}` })).toBeVisible();
});

test('anonymous fundraisers see Login & Continue, and the image limit is enforced', async ({ page, request }) => {
  // The causes come with the page, so nothing moves under the finger reaching for "Start from scratch".
  expect(await (await request.get('/fund-raising')).text()).toContain('Run for Clean Water');
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { shifts: number[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/fund-raising');
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.getByText('Loading causes…')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
  await page.getByRole('button', { name: 'Start from scratch' }).click();
  await page.getByLabel('Title').fill('My own appeal');
  await page.getByLabel('Description').fill('Something good.');
  await page.getByLabel('Goal (£)').fill('100');

  const alerts: string[] = [];
  page.on('dialog', async (dialog) => {
    alerts.push(dialog.message());
    await dialog.dismiss();
  });
  const files = Array.from({ length: 10 }, (_, i) => ({
    name: `p${i}.png`,
    mimeType: 'image/png',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  }));
  await page.getByLabel('Upload images').setInputFiles(files);
  await expect.poll(() => alerts).toEqual(['You can only upload 9 images']);
  await expect(page.getByRole('list', { name: 'Chosen images' })).toHaveCount(0);

  await page.getByLabel('Upload images').setInputFiles(PNG);
  await page.getByRole('button', { name: 'Login & Continue' }).click();

  // A new fundraiser signs up in the dialog; the save then carries on by itself.
  const email = `fundraiser-${Date.now()}@example.org`;
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('button', { name: 'Next' }).click();
  let code = '';
  await expect(async () => {
    const [mail] = (await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as {
      text: string;
    }[];
    code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
  }).toPass({ timeout: 5_000 });
  await dialog.getByLabel('6-digit code').fill(code);
  // Names are asked for once the code has proven the address is new.
  await dialog.getByRole('button', { name: 'Login' }).click();
  await dialog.getByLabel('First name').fill('Fern');
  await dialog.getByLabel('Last name').fill('Fundraiser');
  await dialog.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard\/active-appeals\?created=[0-9A-Za-z]{22}&status=approved$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your appeal is live' })).toBeVisible();
  const created = await (
    await page.request.get(`/api/appeals/${new URL(page.url()).searchParams.get('created')}`)
  ).json();
  expect(created).toMatchObject({
    title: 'My own appeal',
    created_by: { first_name: 'Fern', last_name: 'Fundraiser' },
  });
});

test('an admin edits a campaign in the dashboard: loaded values, status select, redirect to the list', async ({
  page,
  request,
  context,
}) => {
  const { token } = await signIn(request, 'admin@example.org');
  await context.addInitScript((value) => localStorage.setItem('uk_nfp_token', value), token);
  // A seeded campaign with gifts (other specs add campaigns without any, newest first).
  const listed = await (await request.get('/api/campaigns?limit=50')).json();
  const seeded = listed.find(
    (campaign: { summary: { total_donations: number } }) => campaign.summary.total_donations > 0,
  );
  if (!seeded) throw new Error('no campaign with gifts in the seed');
  // The preview of an item with gifts shows what it has raised, not £0 (only looked at, not saved).
  // Other specs may give to the same campaign meanwhile, so the figures are read, not compared.
  await page.goto(`/dashboard/active-campaigns-edit/${seeded._id}`);
  const preview = page.getByRole('complementary', { name: 'Preview' });
  await expect(preview.locator('.card-raised')).toHaveText(/^£[\d,.]+k? raised$/);
  await expect(preview.locator('.card-raised')).not.toHaveText('£0 raised');
  await expect(preview.locator('.card-percent')).toHaveText(/^\d+\.\d\d%$/);
  await expect(preview.locator('.card-percent')).not.toHaveText('0.00%');
  // Edit a campaign of our own, so the seeded ones other specs read stay as they are.
  const createdRes = await request.post('/api/campaigns', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      title: `E2E campaign ${Date.now()}`,
      description: 'A campaign made by the editor test.',
      story: 'Made for the test.',
      goal: 75_000,
      organization_id: seeded.organization_id,
      images: seeded.images.map(
        ({ Key, name, size, type }: { Key: string; name: string; size: number; type: string }) => ({
          Key,
          name,
          size,
          type,
        }),
      ),
    },
  });
  expect(createdRes.status()).toBe(201);
  const campaign = await createdRes.json();

  await page.goto(`/dashboard/active-campaigns-edit/${campaign._id}`);
  await expect(page.getByLabel('Title')).toHaveValue(campaign.title);
  await expect(page.getByLabel('Goal (£)')).toHaveValue(String(campaign.goal / 100));
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('approved');
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveValue(campaign.organization_id);
  await expect(page.getByRole('img', { name: campaign.images[0].name })).toBeVisible();

  const renamed = `${campaign.title} (edited)`.slice(0, 120);
  await page.getByLabel('Title').fill(renamed);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard\/active-campaigns$/);
  const saved = await (await request.get(`/api/campaigns/${campaign._id}`)).json();
  expect(saved).toMatchObject({ title: renamed, goal: campaign.goal, status: 'approved' });
  expect(saved.images.map((i: { Key: string }) => i.Key)).toEqual(campaign.images.map((i: { Key: string }) => i.Key));

  // Opened in a tab of its own, Cancel goes to the list instead of nowhere.
  const fresh = await context.newPage();
  await fresh.goto(`/dashboard/active-campaigns-edit/${campaign._id}`);
  await expect(fresh.getByLabel('Title')).toHaveValue(renamed);
  await fresh.getByRole('button', { name: 'Cancel' }).click();
  await expect(fresh).toHaveURL(/\/dashboard\/active-campaigns$/);
  await fresh.close();

  // Deleting through the Status select asks first; Keep it changes nothing and returns to the select.
  await page.goto(`/dashboard/active-campaigns-edit/${campaign._id}`);
  const status = page.getByRole('combobox', { name: 'Status' });
  await expect(status).toHaveValue('approved');
  await status.selectOption('deleted');
  // Its appeals go with it, and their fundraisers and its monthly donors are told (066, 070): said before saving.
  await expect(status).toHaveAccessibleDescription(
    'Saving takes its appeals off the site with it, and emails their fundraisers and its monthly donors that it did.',
  );
  await page.getByRole('button', { name: 'Continue' }).click();
  const confirm = page.getByRole('alertdialog', { name: /Delete this campaign\?/ });
  await expect(confirm).toBeFocused();
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(status).toBeFocused();
  expect((await (await request.get(`/api/campaigns/${campaign._id}`)).json()).status).toBe('approved');
  await page.getByRole('button', { name: 'Continue' }).click();
  await confirm.getByRole('button', { name: 'Yes, delete this campaign' }).click();
  await expect(page).toHaveURL(/\/dashboard\/active-campaigns$/);
  const deleted = await request.get(`/api/campaigns/${campaign._id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await deleted.json()).status).toBe('deleted');
});

test('a title typed without spaces wraps inside the preview card on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/fund-raising');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByRole('button', { name: 'Start from scratch' }).click();
  await page.getByLabel('Title').fill('T'.repeat(60));
  await page.getByLabel('Description').fill('D'.repeat(120));
  // A goal typed wrongly stays as typed, and the field says why.
  const goal = page.getByLabel('Goal (£)');
  await goal.fill('-5');
  await expect(goal).toHaveValue('-5');
  await expect(goal).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter a goal in pounds greater than £0, e.g. 500 or 99.50.')).toBeVisible();
  await goal.fill('500');
  await expect(page.getByText('Enter a goal in pounds greater than £0')).toHaveCount(0);
  const card = page.locator('.editor-preview .card');
  await expect(card.locator('.card-title')).toHaveText('T'.repeat(60));
  // Nothing in the card is wider than the card itself.
  const overflow = await card.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('*')].filter((child) => child.getBoundingClientRect().right > box.right + 1).length;
  });
  expect(overflow).toBe(0);
});

test('a link to a campaign that has ended starts the appeal for the general fund, and says why (decision 068)', async ({
  page,
  request,
  signInAs,
}) => {
  // A campaign that ran until yesterday (an admin may file one after the event).
  const adminToken = await signInAs('admin@example.org');
  const admin = { authorization: `Bearer ${adminToken}` };
  const title = `E2E ended campaign ${Date.now()}`;
  const lastDay = londonDay(-1);
  const campaign = await adminCampaign(request, adminToken, { title, date: { from: londonDay(-60), to: lastDay } });

  // A supporter follows an old link to it (its page no longer offers one).
  const token = await signInAs('donor@example.org');
  await page.goto(`/campaigns/${campaign.short_id}`);
  await expect(page.getByRole('link', { name: /Start your own appeal/ })).toHaveCount(0);
  await openAs(page, token, `/fund-raising?campaign=${campaign.short_id}`);
  await page.getByRole('button', { name: 'Start from scratch' }).click();
  const select = page.getByRole('combobox', { name: 'Campaign' });
  await expect(select).toHaveValue('');
  await expect(select).toHaveAccessibleDescription(
    `${title} ended on ${formatLongUkDay(lastDay)} and takes no new appeals. This appeal is for the general fund unless you choose another campaign.`,
  );
  // It is not offered; the campaigns still taking appeals are.
  const offered = await select.locator('option').allTextContents();
  expect(offered).not.toContain(title);
  expect(offered.length).toBeGreaterThan(1);
  await expectNoAxeViolations(page, { include: '#main', tags: ['wcag2a', 'wcag2aa'] });
  // Choosing another campaign takes the note away.
  await select.selectOption({ index: 1 });
  await expect(page.getByText('takes no new appeals')).toHaveCount(0);
  // An end date already past is said to end giving as soon as it is saved (056 gave no warning).
  const end = page.getByLabel('End date');
  await page.getByLabel('Start date').fill(londonDay(-10));
  await end.fill(londonDay(-2));
  await expect(end).toHaveAccessibleDescription(
    `${formatLongUkDay(londonDay(-2))} has passed: this appeal takes no gifts and its page says it ended. A later end date reopens it.`,
  );
  await end.fill(londonDay(5));
  await expect(page.getByText('has passed:')).toHaveCount(0);

  // The API says the same to a request made by hand, and stores nothing.
  const refused = await request.post('/api/campaigns', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      title: 'Too late',
      description: 'After the swim.',
      goal: 10_000,
      images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png' }],
      campaign_id: campaign._id,
    },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).message).toBe(
    `campaign_id: ${title} ended on ${formatLongUkDay(lastDay)} and takes no new appeals; choose another campaign`,
  );
  // Gone again, so no other test takes this ended campaign for the newest one.
  const gone = await request.put(`/api/campaigns/${campaign._id}`, { headers: admin, data: { status: 'deleted' } });
  expect(gone.status(), await gone.text()).toBe(200);
});

test('a template cause the charity tied to a campaign chooses it; another leaves the general fund', async ({
  page,
  request,
}) => {
  const campaigns = (await (await request.get('/api/campaigns?tiny=true')).json()) as { _id: string; title: string }[];
  const water = campaigns.find((c) => c.title === 'Clean Water for Every Village');
  expect(water).toBeDefined();
  await page.goto('/fund-raising');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByRole('button', { name: /Run for Clean Water/ }).click();
  await expect(page.getByRole('combobox', { name: 'Campaign' })).toHaveValue(water?._id ?? '');

  await page.goto('/fund-raising');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByRole('button', { name: /Birthday Fundraiser/ }).click();
  await expect(page.getByLabel('Title')).toHaveValue('Birthday Fundraiser');
  await expect(page.getByRole('combobox', { name: 'Campaign' })).toHaveValue('');
});
