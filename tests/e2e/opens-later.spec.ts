import { formatLongUkDay, formatShortUkDay, londonDayFromToday as londonDay } from '../../domain';
import { adminCampaign, expect, expectNoAxeViolations, openAs, test } from './fixtures';

/**
 * A start date opens giving (docs/decisions/059): before it, an appeal's page says when it opens and
 * offers no payment (no donation box, none of its script), its cards say "Opens …" in place of
 * Active, and an earlier start date opens it at once.
 */
test('an appeal dated to start next month says when it opens and takes no gifts until then', async ({
  page,
  request,
  signInAs,
}) => {
  const token = await signInAs('donor@example.org');
  const auth = { authorization: `Bearer ${token}` };
  // A campaign that runs past the appeal's dates (an appeal may not start after its campaign ends).
  const campaigns = (await (await request.get('/api/campaigns?limit=100')).json()) as {
    _id: string;
    short_id: string;
    title: string;
    date?: { to?: string | null };
  }[];
  const campaign = campaigns.find((c) => !c.date?.to || c.date.to >= londonDay(60));
  if (!campaign) throw new Error('no seeded campaign runs 60 days from today');
  const opens = londonDay(30);
  const title = `E2E opens later ${Date.now()}`;
  const created = await request.post('/api/campaigns', {
    headers: auth,
    data: {
      title,
      description: 'A sponsored walk next month.',
      goal: 50_000,
      campaign_id: campaign._id,
      images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png' }],
      date: { from: opens, to: londonDay(60) },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const appeal = await created.json();

  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await page.goto(`/appeals/${appeal.short_id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(
    page.locator('.detail-share').getByText(`Opens ${formatLongUkDay(opens)}`, { exact: true }),
  ).toBeVisible();
  const panel = page.getByRole('region', { name: 'Not open for gifts yet' });
  await expect(
    panel.getByText(`This appeal opens for gifts on ${formatLongUkDay(opens)}. Come back then to give.`, {
      exact: true,
    }),
  ).toBeVisible();
  // Its campaign is open: the panel offers it instead.
  await expect(panel.getByRole('link', { name: `Give to ${campaign.title}` })).toHaveAttribute(
    'href',
    `/campaigns/${campaign.short_id}`,
  );
  // No payment is offered: no donation box, no card field, none of its script, no Donate jump.
  await expect(page.locator('#donate astro-island')).toHaveCount(0);
  await expect(page.locator('#donate input, #donate iframe')).toHaveCount(0);
  await expect(page.getByRole('link', { name: `Donate to ${title}` })).toHaveCount(0);
  await expect(page.getByText('No donations.', { exact: true })).toBeVisible();
  expect(scripts.filter((url) => /DonationBox/.test(url))).toEqual([]);
  await expectNoAxeViolations(page, { include: '.detail-side' });

  // The API refuses a gift sent anyway.
  const refused = await request.post('/api/stripe/client_secret', {
    data: { email: 'early.bird@example.com', amount: 1500, campaign_id: campaign._id, appeal_id: appeal._id },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toEqual({
    statusCode: 409,
    message: `This appeal opens for gifts on ${formatLongUkDay(opens)}.`,
  });

  // The campaign's list card and the fundraiser's My Appeals say so in place of Active.
  await page.goto(`/campaigns/${campaign.short_id}/appeals`);
  const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card.getByText(`Opens ${formatShortUkDay(opens)}`, { exact: true })).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toHaveCount(0);
  await expect(card.getByRole('link', { name: `View ${title}` })).toBeVisible();
  await openAs(page, token, '/dashboard/active-appeals');
  const mine = page.getByRole('article').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(mine.getByText(`Opens ${formatLongUkDay(opens)}`)).toBeVisible();
  await expect(mine.getByRole('link', { name: `View ${title}` })).toBeVisible();

  // The editor says beside the End date when it is before the start, and Continue waits for it.
  await page.goto(`/dashboard/active-appeals-edit/${appeal._id}`);
  const start = page.getByLabel('Start date');
  await expect(start).toHaveValue(opens);
  // Beside a start date still ahead: gifts wait for it, and its fundraiser hears on the day (062).
  await expect(start).toHaveAccessibleDescription(
    `Gifts open on ${formatLongUkDay(opens)}; until then its page says when. Whoever started it is emailed that morning, to share it.`,
  );
  const end = page.getByLabel('End date');
  await end.fill(londonDay(20));
  await expect(end).toHaveAccessibleDescription('The start date must be on or before the end date.');
  await expect(end).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('To continue, add an end date on or after the start date.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();

  // An earlier start date (today) opens it at once: the donation box is back.
  const moved = await request.put(`/api/campaigns/${appeal._id}`, {
    headers: auth,
    data: { date: { from: londonDay(0) } },
  });
  expect(moved.status(), await moved.text()).toBe(200);
  await page.goto(`/appeals/${appeal.short_id}`);
  await expect(page.locator('#donate astro-island')).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Not open for gifts yet' })).toHaveCount(0);
  await expect(page.locator('a.detail-donate-jump')).toHaveCount(1);
});

test("the appeal editor says when an appeal waits for its campaign, and refuses a start after the campaign's last day", async ({
  page,
  request,
  signInAs,
}) => {
  // A campaign that opens in 5 days and takes gifts for 40.
  const adminToken = await signInAs('admin@example.org');
  const admin = { authorization: `Bearer ${adminToken}` };
  const title = `E2E later campaign ${Date.now()}`;
  const campaign = await adminCampaign(request, adminToken, { title, date: { from: londonDay(5), to: londonDay(40) } });

  // Its page offers to start an appeal now, ready for the day it opens (decision 068).
  await page.goto(`/campaigns/${campaign.short_id}`);
  await expect(page.getByRole('region', { name: 'Not open for gifts yet' })).toBeVisible();
  const startLink = page.getByRole('link', { name: `Start your own appeal for ${title}` });
  await expect(startLink).toHaveAttribute('href', `/fund-raising?campaign=${campaign.short_id}`);
  await expect(startLink.locator('..')).toContainText(
    `now, ready for ${formatLongUkDay(londonDay(5))}, when giving opens.`,
  );

  const token = await signInAs('donor@example.org');
  await openAs(page, token, `/dashboard/active-appeals-add?campaign=${campaign._id}`);
  await page.getByRole('button', { name: 'Start from scratch' }).click();
  await expect(page.getByLabel('Campaign')).toHaveValue(campaign._id);
  const start = page.getByLabel('Start date');
  // Its own start is tomorrow, but the campaign's is later: the note names the campaign's day.
  await start.fill(londonDay(1));
  await expect(start).toHaveAccessibleDescription(
    `Gifts open on ${formatLongUkDay(londonDay(5))}, when its campaign opens; until then its page says when. Whoever started it is emailed that morning, to share it.`,
  );
  // After the campaign's last day it could never take a gift: said beside the field, and Continue waits.
  await start.fill(londonDay(41));
  await page.getByLabel('End date').fill(londonDay(45));
  await expect(start).toHaveAttribute('aria-invalid', 'true');
  await expect(start).toHaveAccessibleDescription(
    `The campaign takes gifts until ${formatLongUkDay(londonDay(40))}; an appeal starting after that could never take one.`,
  );
  await expect(page.getByText("a start date within the campaign's dates", { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await start.fill(londonDay(10));
  await expect(start).not.toHaveAttribute('aria-invalid', 'true');
  // Its own end date is after the campaign's: its gifts end with the campaign's (068).
  await expect(page.getByLabel('End date')).toHaveAccessibleDescription(
    `Its campaign takes gifts until ${formatLongUkDay(londonDay(40))}; this appeal's gifts end then too.`,
  );
  await expectNoAxeViolations(page);
  // The campaign's own editor says the same of it: its creator is emailed that morning too (067).
  await openAs(page, adminToken, `/dashboard/active-campaigns-edit/${campaign._id}`);
  await expect(page.getByLabel('Start date')).toHaveAccessibleDescription(
    `Gifts open on ${formatLongUkDay(londonDay(5))}; until then its page says when. Whoever started it is emailed that morning, to share it.`,
  );
  // Gone again, so no other test takes this not-yet-open campaign for the newest one.
  const gone = await request.put(`/api/campaigns/${campaign._id}`, { headers: admin, data: { status: 'deleted' } });
  expect(gone.status(), await gone.text()).toBe(200);
});
