import type { APIRequestContext, Page } from '@playwright/test';
import { expect, openAs as openWithToken, test, tokenFor } from './fixtures';

async function openAs(page: Page, request: APIRequestContext, email: string, path: string) {
  await openWithToken(page, await tokenFor(request, email), path);
}

const ADMIN = 'admin@example.org';
const DONOR = 'donor@example.org';

test('an admin sees the dashboard menu with the Admin group', async ({ page, request }) => {
  await openAs(page, request, ADMIN, '/dashboard/overview');
  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  for (const item of ['Overview', 'My Info', 'My Donations', 'My Appeals', 'FAQS', 'Contact Support']) {
    await expect(menu.getByRole('link', { name: item, exact: true })).toBeVisible();
  }
  const admin = menu.getByRole('group', { name: 'Admin' });
  for (const item of ['Campaigns', 'Appeals', 'Donors', 'Donations', 'Organizations']) {
    await expect(admin.getByRole('link', { name: item, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('heading', { level: 2, name: 'Appeals for Campaign' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');

  // Client-side routing: the island stays, the URL and the screen change.
  await admin.getByRole('link', { name: 'Organizations' }).click();
  await expect(page).toHaveURL(/\/dashboard\/organizations$/);
  await expect(page.getByRole('heading', { level: 1, name: 'All Organizations' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Appeals for Campaign' })).toBeVisible();
});

test('the organizations list shows the seeded organizations, and a new one can be added through the form', async ({
  page,
  request,
}) => {
  await openAs(page, request, ADMIN, '/dashboard/organizations');
  const table = page.getByRole('table', { name: 'All Organizations' });
  for (const name of ['Wells for Hope', 'Homes & Hearts Trust', 'Harbour Food Network']) {
    await expect(table.getByRole('cell', { name, exact: true })).toBeVisible();
  }

  await page.getByRole('link', { name: 'Add' }).click();
  await expect(page).toHaveURL(/\/dashboard\/organizations\/add$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Add Organization' })).toBeVisible();
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  const name = `Riverside Aid ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('textbox', { name: /^Email/ }).fill('bad-email');
  await page.getByLabel('City').fill('York');
  // Charity registration: a Scottish charity's number is checked against its regulator.
  await page.getByLabel('Legal name').fill('Riverside Aid SCIO');
  await page
    .getByRole('combobox', { name: 'Regulator' })
    .selectOption({ label: 'Office of the Scottish Charity Regulator' });
  await page.getByLabel('Charity number').fill('1234567');
  await page.getByLabel('HMRC charity reference').fill('SC12345');
  await expect(save).toBeEnabled();
  await page.getByRole('textbox', { name: /^Email/ }).fill('hello@riverside.example.org');
  await save.click();
  await expect(page.getByRole('alert')).toContainText(/Charity number: A Scottish charity number is SC/);
  await page.getByLabel('Charity number').fill('SC054321');
  await page.getByRole('textbox', { name: /^Email/ }).fill('bad-email');
  await save.click();
  // The server's message is shown, and nothing is lost from the form.
  await expect(page.getByRole('alert')).toContainText(/email/i);
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(name);
  await page.getByRole('textbox', { name: /^Email/ }).fill('hello@riverside.example.org');
  await save.click();

  await expect(page).toHaveURL(/\/dashboard\/organizations$/);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('York');

  await row.click();
  await expect(page).toHaveURL(/\/dashboard\/organizations\/edit\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Organization' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(name);
  await expect(page.getByLabel('Legal name')).toHaveValue('Riverside Aid SCIO');
  await expect(page.getByLabel('Charity number')).toHaveValue('SC054321');
  await expect(page.getByRole('combobox', { name: 'Regulator' })).toHaveValue('oscr');
  await expect(page.getByLabel('HMRC charity reference')).toHaveValue('SC12345');

  // Accounts journal codes: each box shows its default; a formula-looking code is refused, a good one kept.
  const income = page.getByRole('textbox', { name: 'Income code' });
  const bank = page.getByRole('textbox', { name: 'Bank code' });
  await expect(page.getByRole('group', { name: 'Accounts journal codes' })).toBeVisible();
  await expect(income).toHaveAttribute('placeholder', '4000 / 4010');
  await expect(bank).toHaveAttribute('placeholder', '1200');
  await expect(bank).toHaveAccessibleDescription(/Offline income paid in .*; empty uses 1200/);
  if (process.env.SCREENSHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: 'test-results/organization-codes-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: 'test-results/organization-codes-390.png', fullPage: true });
  }
  await income.fill('=1+1');
  await save.click();
  await expect(page.getByRole('alert')).toContainText(/Income code: Use letters, digits/);
  await income.fill('4100');
  await bank.fill('1215');
  const editUrl = page.url();
  await save.click();
  await expect(page).toHaveURL(/\/dashboard\/organizations$/);
  await page.goto(editUrl);
  await expect(income).toHaveValue('4100');
  await expect(bank).toHaveValue('1215');
  await expect(page.getByRole('textbox', { name: 'Fees code' })).toHaveValue('');
});

test('an unknown organization id shows Organization Not Found', async ({ page, request }) => {
  await openAs(page, request, ADMIN, '/dashboard/organizations/edit/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Organization Not Found' })).toBeVisible();
});

test('the donors list pages through the seeded donors', async ({ page, request }) => {
  await openAs(page, request, ADMIN, '/dashboard/donors');
  await expect(page.getByRole('heading', { level: 1, name: 'All Donors' })).toBeVisible();
  const bodyRows = page.locator('table.dash-table tbody tr');
  await expect(bodyRows).toHaveCount(10);
  const pager = page.getByRole('navigation', { name: 'Table pages' });
  await expect(pager).toContainText(/Page 1 of [2-9]/);
  const firstPage = await bodyRows.allTextContents();

  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(pager).toContainText(/Page 2 of/);
  await expect(bodyRows).toHaveCount(10);
  await expect.poll(async () => (await bodyRows.allTextContents()).join('|')).not.toBe(firstPage.join('|'));

  await pager.getByLabel('Rows per page').selectOption('20');
  await expect(bodyRows).toHaveCount(20);
  await expect(pager).toContainText(/Page 1 of/);

  await bodyRows.first().click();
  await expect(page).toHaveURL(/\/dashboard\/donors\/edit\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Donor' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^Email/ })).toHaveAttribute('readonly', '');
});

test('a donor sees no Admin group and their own info as My Info', async ({ page, request }) => {
  await openAs(page, request, DONOR, '/dashboard/overview');
  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  await expect(menu.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(menu.getByRole('group', { name: 'Admin' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Organizations' })).toHaveCount(0);

  await menu.getByRole('link', { name: 'My Info' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Info' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^Email/ })).toHaveValue(DONOR);
  // The seeded number is stored as E.164 and shown as a UK number is written; a landline typed digit
  // by digit is grouped as it goes.
  await expect(page.getByLabel('Phone')).toHaveValue('07911 110000');
  await page.getByLabel('Phone').fill('');
  await page.getByLabel('Phone').pressSequentially('02079460958');
  await expect(page.getByLabel('Phone')).toHaveValue('020 7946 0958');
});

test('Ctrl+B collapses the sidebar and the cookie keeps it collapsed after reload', async ({
  page,
  request,
  context,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAs(page, request, ADMIN, '/dashboard/overview');
  const sidebar = page.locator('#dash-sidebar');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  await expect(
    page.getByRole('navigation', { name: 'Dashboard menu' }).getByRole('link', { name: 'Overview' }),
  ).toBeVisible();
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(48);
  const cookie = (await context.cookies()).find((c) => c.name === 'sidebar:state');
  expect(cookie?.value).toBe('false');
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(6.9 * 24 * 3600);

  await page.reload();
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(288);
});

test('without a token the dashboard asks to sign in and loads nothing private', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/')) calls.push(req.url());
  });
  await page.goto('/dashboard/donors');
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.getByRole('heading', { name: 'Sign in to your dashboard' })).toBeVisible();
  // Spec: before login the menu shows a single Loading item.
  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  await expect(menu.getByRole('listitem')).toHaveCount(1);
  await expect(menu.getByRole('listitem')).toHaveText('Loading');
  await expect(menu.getByRole('link')).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('dialog', { name: 'Log in or sign up' })).toBeVisible();
  expect(calls.filter((u) => /\/api\/(users|organizations|donations)/.test(u))).toEqual([]);
});

test('phone width: the sidebar is an off-canvas drawer', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAs(page, request, ADMIN, '/dashboard/faqs');
  await expect(page.getByRole('heading', { level: 1, name: 'FAQs' })).toBeVisible();
  const sidebar = page.locator('#dash-sidebar');
  await expect(sidebar).toHaveAttribute('data-state', 'closed');
  await expect(page.getByRole('navigation', { name: 'Dashboard menu' })).toBeHidden();
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await expect(sidebar).toHaveAttribute('data-state', 'open');
  // The open drawer keeps the keyboard: Tab cycles through the menu, never into the page under the scrim.
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('.dash-body'))).toBe(false);
  }
  // Escape closes it and gives the keyboard back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(sidebar).toHaveAttribute('data-state', 'closed');
  await expect(page.getByRole('button', { name: 'Toggle sidebar' })).toBeFocused();
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await expect(sidebar).toHaveAttribute('data-state', 'open');
  await page.getByRole('link', { name: 'Contact Support' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Support' })).toBeVisible();
  await expect(sidebar).toHaveAttribute('data-state', 'closed');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('donations list shows pounds, the donor cell opens the donor, and the theme choice is remembered', async ({
  page,
  request,
}) => {
  await openAs(page, request, ADMIN, '/dashboard/donations');
  await expect(page.getByRole('heading', { level: 1, name: 'All Donations' })).toBeVisible();
  const firstRow = page.locator('table.dash-table tbody tr').first();
  await expect(firstRow).toContainText(/£\d/);
  const donorLink = firstRow.getByRole('link');
  const href = await donorLink.getAttribute('href');
  expect(href).toMatch(/^\/dashboard\/donors\/edit\/[0-9a-f-]+$/);
  // Spec: a click anywhere in the campaign cell does nothing, not even the row's edit link.
  const cells = firstRow.locator('td');
  const headers = await page.locator('table.dash-table thead th').allTextContents();
  const campaignCell = cells.nth(headers.findIndex((h) => h.includes('Campaign')));
  const donorCell = cells.nth(headers.findIndex((h) => h.includes('Donor')));
  const url = page.url();
  const campaignBox = (await campaignCell.boundingBox())!;
  await page.mouse.click(campaignBox.x + campaignBox.width - 4, campaignBox.y + campaignBox.height / 2);
  await page.waitForTimeout(300);
  expect(page.url()).toBe(url);
  // And a click anywhere in the donor cell, beside the name too, opens the donor.
  const donorBox = (await donorCell.boundingBox())!;
  await page.mouse.click(donorBox.x + donorBox.width - 4, donorBox.y + donorBox.height / 2);
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Donor' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'All Donations' })).toBeVisible();
  await page.locator('table.dash-table tbody tr').first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));

  await page.getByRole('radio', { name: 'dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => localStorage.getItem('uk-nfp-app'))).toBe('dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('radio', { name: 'light theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  // Radio group keyboard pattern: arrows move the choice and the focus; only the checked one is a tab stop.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'dark theme' })).toBeFocused();
  await expect(page.getByRole('radio', { name: 'dark theme' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('radio', { name: 'light theme' })).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

/** Calls the API as a signed-in user (test setup only; the screens under test make their own calls). */
async function apiAs(request: APIRequestContext, email: string, method: 'get' | 'post', path: string, data?: unknown) {
  const res = await request[method](path, {
    headers: { authorization: `Bearer ${await tokenFor(request, email)}` },
    data,
  });
  expect(res.ok(), `${method} ${path}: ${res.status()}`).toBe(true);
  return res.json();
}

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

type Created = { _id: string; short_id: string; title: string };

/** A campaign (and optionally an appeal under it) of this test's own, reusing a seeded demo image. */
async function createCampaign(
  request: APIRequestContext,
  fields: { title: string; status?: string; campaign_id?: string },
): Promise<Created> {
  const [seeded] = await (await request.get('/api/campaigns?limit=1')).json();
  const images = seeded.images.map(
    ({ Key, name, size, type }: { Key: string; name: string; size: number; type: string }) => ({
      Key,
      name,
      size,
      type,
    }),
  );
  return apiAs(request, ADMIN, 'post', '/api/campaigns', {
    description: 'Made by the dashboard browser tests.',
    story: 'Made for the test.',
    goal: 50_000,
    organization_id: fields.campaign_id ? undefined : seeded.organization_id,
    images,
    ...fields,
  });
}

test('an admin adds a donor: Save waits for the required fields, phone is formatted, email is read-only on edit, Cancel goes back', async ({
  page,
  request,
}) => {
  await openAs(page, request, ADMIN, '/dashboard/donors');
  await page.getByRole('link', { name: 'Add' }).click();
  await expect(page).toHaveURL(/\/dashboard\/donors\/add$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Add Donor' })).toBeVisible();

  const id = unique();
  const first = `Ada${id}`;
  const email = `ada.${id}@example.org`;
  const save = page.getByRole('button', { name: 'Save' });
  const waiting = page.getByTestId('save-waiting');
  await expect(save).toBeDisabled();
  // The disabled Save says what it waits for, and says it to screen readers too.
  await expect(waiting).toHaveText('To save, add a first name, a last name and an email.');
  await expect(save).toHaveAccessibleDescription('To save, add a first name, a last name and an email.');
  await page.getByLabel('First name').fill(first);
  await expect(save).toBeDisabled();
  await page.getByLabel('Last name').fill('Lovelace');
  await expect(save).toBeDisabled();
  await expect(waiting).toHaveText('To save, add an email.');
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await expect(save).toBeEnabled();
  await expect(waiting).toHaveCount(0);
  // A UK number (docs/decisions/009): grouped as typed; one digit short is refused by name, nothing saved.
  await page.getByLabel('Phone').pressSequentially('0791112345');
  await expect(page.getByLabel('Phone')).toHaveValue('07911 12345');
  await page.getByLabel('City').fill('Leeds');
  await save.click();
  await expect(page.getByRole('alert')).toContainText('Phone: Enter a UK phone number');
  await expect(page).toHaveURL(/\/dashboard\/donors\/add$/);
  await page.getByLabel('Phone').fill('07911123456');
  await expect(page.getByLabel('Phone')).toHaveValue('07911 123456');
  await save.click();

  await expect(page).toHaveURL(/\/dashboard\/donors$/);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText(first);
  await row.click();
  await expect(page).toHaveURL(/\/dashboard\/donors\/edit\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Donor' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^Email/ })).toHaveValue(email);
  await expect(page.getByRole('textbox', { name: /^Email/ })).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Phone')).toHaveValue('07911 123456');
  await expect(page.getByLabel('Last name')).toHaveValue('Lovelace');
  await expect(page.getByLabel('City')).toHaveValue('Leeds');

  // Cancel goes back to where the user came from (the list), keeping nothing typed.
  await page.getByLabel('Last name').fill('Byron');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/dashboard\/donors$/);
  await expect(page.getByRole('heading', { level: 1, name: 'All Donors' })).toBeVisible();
  const saved = (await apiAs(request, ADMIN, 'get', `/api/users?search=${encodeURIComponent(email)}`)) as {
    name: { last_name: string };
    phone: string;
  }[];
  expect(saved).toHaveLength(1);
  expect(saved[0]).toMatchObject({ name: { last_name: 'Lovelace' }, phone: '+447911123456' });
});

test('an unknown donor id shows Donor Not Found', async ({ page, request }) => {
  await openAs(page, request, ADMIN, '/dashboard/donors/edit/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { level: 1, name: 'Donor Not Found' })).toBeVisible();
});

test('an admin records a manual donation in pounds; it shows in the list and in the appeal total on the public page', async ({
  page,
  request,
}) => {
  const id = unique();
  const campaign = await createCampaign(request, { title: `Manual gifts campaign ${id}` });
  const appeal = await createCampaign(request, { title: `Manual gifts appeal ${id}`, campaign_id: campaign._id });
  const donorEmail = `grace.${id}@example.org`;
  await apiAs(request, ADMIN, 'post', '/api/users', {
    name: { first_name: `Grace${id}`, last_name: 'Hopper' },
    email: donorEmail,
  });

  await openAs(page, request, ADMIN, '/dashboard/donations');
  await page.getByRole('link', { name: 'Add' }).click();
  await expect(page).toHaveURL(/\/dashboard\/donations\/add$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Add Donation' })).toBeVisible();
  const save = page.getByRole('button', { name: 'Save' });
  const appealSelect = page.getByRole('combobox', { name: 'Appeal' });
  await expect(save).toBeDisabled();
  await expect(appealSelect).toBeDisabled();

  // The donor picker asks the server for donors matching the search, not for every donor.
  const searched = page.waitForRequest((r) => r.url().includes('/api/users?') && r.url().includes(`search=Grace${id}`));
  await page.getByLabel('Search donors').fill(`Grace${id}`);
  expect(new URL((await searched).url()).searchParams.get('limit')).toBe('20');
  await expect(page.getByRole('combobox', { name: 'Donor' }).locator('option')).toHaveText([
    'Select a donor',
    `Grace${id} Hopper (${donorEmail})`,
  ]);
  await page.getByRole('combobox', { name: 'Donor' }).selectOption({ label: `Grace${id} Hopper (${donorEmail})` });
  await page.getByLabel('Amount (£)').fill('12.34');
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel('Date').fill(today);
  await expect(save).toBeDisabled();
  await page.getByRole('combobox', { name: 'Campaign' }).selectOption({ label: campaign.title });
  // The appeal list is the chosen campaign's appeals only.
  await expect(appealSelect).toBeEnabled();
  await expect(appealSelect.locator('option')).toHaveText(['Select an appeal', appeal.title]);
  await expect(save).toBeDisabled();
  await appealSelect.selectOption({ label: appeal.title });
  await expect(save).toBeEnabled();
  await save.click();

  await expect(page).toHaveURL(/\/dashboard\/donations$/);
  await page.getByRole('navigation', { name: 'Table pages' }).getByLabel('Rows per page').selectOption('50');
  const row = page.getByRole('row').filter({ hasText: `Grace${id} Hopper` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('£12.34');
  await expect(row).toContainText(campaign.title);
  // The filtered list says what its gifts add up to, over every page.
  await page.getByRole('searchbox', { name: 'Search' }).fill(`Grace${id}`);
  await expect(page.getByTestId('donation-sums')).toHaveText('In this list: 1 paid gift, £12.34 received.');

  await page.goto(`/appeals/${appeal.short_id}`);
  await expect(page.getByRole('heading', { level: 1, name: appeal.title })).toBeVisible();
  await expect(page.locator('.detail-raised')).toHaveText('£12.34 raised of £500');
});

test('the campaign list status filter: drafts only for admins', async ({ page, request }) => {
  const id = unique();
  const draft = await createCampaign(request, { title: `Draft campaign ${id}`, status: 'draft' });
  const approved = await createCampaign(request, { title: `Approved campaign ${id}` });
  // The seed's draft appeals (the oldest drafts; other specs only add newer items).
  const seededDrafts = ((await apiAs(request, ADMIN, 'get', '/api/appeals?status=draft&limit=100')) as Created[]).slice(
    -2,
  );
  expect(seededDrafts).toHaveLength(2);

  await openAs(page, request, ADMIN, '/dashboard/active-campaigns');
  await expect(page.getByRole('heading', { level: 1, name: 'Active Campaigns' })).toBeVisible();
  const status = page.getByRole('combobox', { name: 'Status' });
  await expect(status).toHaveValue('approved');
  await expect(page.getByRole('heading', { name: approved.title })).toBeVisible();
  // The card grid (spec): initial badge, raised amount, percent of goal, progress bar, Active marker, goal.
  const card = page.locator('.dash-ccard', { has: page.getByRole('heading', { name: approved.title }) });
  await expect(card.locator('.initial-badge')).toHaveText('A');
  await expect(card.locator('.card-percent')).toHaveText(/^\d+(\.\d+)?%$/);
  await expect(card.getByText(/^Goal: £/)).toBeVisible();
  await expect(card.getByRole('progressbar')).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: draft.title })).toHaveCount(0);
  await status.selectOption('draft');
  await expect(page.getByRole('heading', { name: draft.title })).toBeVisible();
  await expect(page.getByRole('heading', { name: approved.title })).toHaveCount(0);

  await page.goto('/dashboard/active-appeals');
  await page.getByRole('combobox', { name: 'Status' }).selectOption('draft');
  for (const item of seededDrafts) await expect(page.getByRole('heading', { name: item.title })).toBeVisible();

  // A donor gets no status selector and sees only their own appeals, drafts included, as My Appeals
  // (the donor's token is set last, so it wins); campaigns are not theirs to manage.
  const own = new Set(
    ((await apiAs(request, DONOR, 'get', '/api/appeals?mine=true&limit=100')) as Created[]).map((a) => a._id),
  );
  await openAs(page, request, DONOR, '/dashboard/active-appeals');
  await expect(page.getByRole('heading', { level: 1, name: 'My Appeals' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveCount(0);
  for (const item of seededDrafts)
    await expect(page.getByRole('heading', { name: item.title })).toHaveCount(own.has(item._id) ? 1 : 0);
  await page.goto('/dashboard/active-campaigns');
  await expect(page.getByText("Campaigns are set up by the charities' staff.")).toBeVisible();
  await expect(page.getByRole('heading', { name: draft.title })).toHaveCount(0);
});

test('a donor opening the donors list gets no admin data: the API answers 403 and the screen says so politely', async ({
  page,
  request,
}) => {
  const answer = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/users');
  await openAs(page, request, DONOR, '/dashboard/donors');
  expect((await answer).status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1, name: 'All Donors' })).toBeVisible();
  const notice = page.getByRole('status').filter({ hasText: 'only available to admins' });
  await expect(notice).toContainText('Sorry, donors are only available to admins.');
  await expect(notice.getByRole('link', { name: 'your donations' })).toHaveAttribute('href', '/dashboard/donations/me');
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Add' })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
});
