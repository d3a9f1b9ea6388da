import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, firstApproved, signIn, test, useToken } from './fixtures';

type Donor = { _id: string; email: string };

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function addDonor(
  request: APIRequestContext,
  token: string,
  first: string,
  last: string,
  email: string,
): Promise<Donor> {
  const res = await request.post('/api/users', {
    data: { first_name: first, last_name: last, email },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Donor;
}

type Cause = { campaign: string; appeal: string };

/** A manual gift names an appeal: the first campaign of the seed that has one. */
async function findCause(request: APIRequestContext, token: string): Promise<Cause> {
  const headers = { authorization: `Bearer ${token}` };
  const campaigns = (await (await request.get('/api/campaigns?limit=50', { headers })).json()) as { _id: string }[];
  for (const campaign of campaigns) {
    const appeals = (await (await request.get(`/api/campaigns/${campaign._id}/appeals`, { headers })).json()) as {
      _id: string;
    }[];
    if (appeals.length) return { campaign: campaign._id, appeal: appeals[0]._id };
  }
  throw new Error('the seed has a campaign with appeals');
}

async function addGift(request: APIRequestContext, token: string, donor: string, cause: Cause, amount: number) {
  const res = await request.post('/api/donations', {
    data: {
      donor,
      amount,
      date: new Date().toISOString().slice(0, 10),
      campaign: cause.campaign,
      appeal: cause.appeal,
    },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

async function openDashboard(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('astro-island:not([ssr])');
}

test('an admin edits a donor, finds the change on the Audit screen, filters and downloads it; sees a donor’s giving and merges two donors', async ({
  page,
  request,
}) => {
  // The machine these run on is shared: give the whole flow room.
  test.setTimeout(150_000);
  const admin = await signIn(request, 'admin@example.org');
  const cause = await findCause(request, admin.token);
  const s = stamp();
  const kept = await addDonor(request, admin.token, 'Priya', 'Keeper', `priya-${s}@example.com`);
  const duplicate = await addDonor(request, admin.token, 'Priya', 'Guest', `p.guest-${s}@example.com`);
  await addGift(request, admin.token, kept._id, cause, 2500);
  const duplicateGift = await addGift(request, admin.token, duplicate._id, cause, 1000);

  await useToken(page, admin.token);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Edit the donor's name on their page.
  await openDashboard(page, `/dashboard/donors/edit/${kept._id}`);
  await page.getByLabel('Last name').fill('Kept');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/dashboard\/donors$/);

  // The Audit screen, from the menu, filtered to that record.
  await page.getByRole('link', { name: 'Audit log' }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/audit$/);
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  await page.getByLabel('Record type').selectOption('user');
  await page.getByLabel('Record id').fill(kept._id);
  await page.getByLabel('Record id').press('Enter');
  await expect(page).toHaveURL(new RegExp(`target=${kept._id}`));
  const table = page.getByRole('table', { name: 'Audit log' });
  const row = table.getByRole('row').filter({ hasText: 'user.update' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('admin@example.org');
  await expect(row).toContainText('Keeper');
  await expect(row).toContainText('Kept');
  await expect(row.getByRole('link', { name: /Donor \/ user/ })).toHaveAttribute(
    'href',
    `/dashboard/donors/edit/${kept._id}`,
  );
  // A filter that matches nothing says so.
  await page.getByLabel('Action').fill('donation.refund');
  await page.getByLabel('Action').press('Enter');
  await expect(table).toContainText('No changes match these filters.');
  await page.getByLabel('Action').fill('user');
  await page.getByLabel('Action').press('Enter');
  await expect(row).toHaveCount(1);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/audit-desktop.png', fullPage: true });

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await readFile((await (await downloading).path())!, 'utf8');
  expect(csv).toContain(kept._id);
  expect(csv).toContain('user.update');
  expect(csv).not.toContain(duplicate._id);

  // On a phone the filters stack and the page does not scroll sideways (the table scrolls inside its box).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(row).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/audit-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The duplicate's page: its giving and totals, then merge it into the kept record.
  await openDashboard(page, `/dashboard/donors/edit/${duplicate._id}`);
  const giving = page.getByRole('region', { name: 'Giving' });
  await expect(giving.getByRole('definition').first()).toHaveText('£10.00');
  await expect(giving.getByRole('row').filter({ hasText: '£10.00' })).toHaveCount(1);
  await expect(giving.getByRole('link', { name: /\d{4}/ }).first()).toHaveAttribute(
    'href',
    `/dashboard/donations/edit/${duplicateGift}`,
  );
  // Focus follows each step of the merge, and comes back where it started on Back and Cancel.
  await page.getByRole('button', { name: 'Merge into…' }).click();
  await expect(page.getByLabel('Email of the record to keep')).toBeFocused();
  await page.getByRole('region', { name: 'Duplicate record?' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Merge into…' })).toBeFocused();
  await page.getByRole('button', { name: 'Merge into…' }).click();
  await page.getByLabel('Email of the record to keep').fill(`priya-${s}`);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: new RegExp(kept.email) }).click();
  await expect(page.getByRole('alertdialog')).toBeFocused();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Email of the record to keep')).toBeFocused();
  await page.getByRole('button', { name: new RegExp(kept.email) }).click();
  await expect(page.getByRole('alertdialog')).toContainText(`into Priya Kept (${kept.email})`);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/donor-merge-desktop.png', fullPage: true });
  await page.getByRole('button', { name: `Merge into ${kept.email}` }).click();

  // The surviving record has both gifts; the merged one is gone.
  await expect(page).toHaveURL(new RegExp(`/dashboard/donors/edit/${kept._id}`));
  await expect(giving.getByRole('definition').first()).toHaveText('£35.00');
  await expect(giving.getByRole('row').filter({ hasText: /£(25|10)\.00/ })).toHaveCount(2);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/donor-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(giving).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/donor-phone.png', fullPage: true });
  expect(
    (
      await request.get(`/api/users/${duplicate._id}`, { headers: { authorization: `Bearer ${admin.token}` } })
    ).status(),
  ).toBe(404);
  const merged = await request.get(`/api/audit?action=user.merge&target=${kept._id}`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(((await merged.json()) as { note: string }[])[0].note).toContain(duplicate.email);
});

test('a finance user gets the Finance menu, a read-only donor page and no campaign editing', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await signIn(request, 'admin@example.org');
  const email = `finance-${stamp()}@example.org`;
  const created = await request.post('/api/users', {
    data: { first_name: 'Fran', last_name: 'Finance', email, type: 'finance' },
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const donor = await signIn(request, 'donor@example.org');
  const finance = await signIn(request, email);
  await useToken(page, finance.token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDashboard(page, '/dashboard/overview');

  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  const group = menu.getByRole('group', { name: 'Finance' });
  await expect(group).toBeVisible();
  for (const label of ['Donations', 'Batches', 'Monthly gifts', 'Gift Aid', 'Payouts', 'Donors', 'Audit log']) {
    await expect(group.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await expect(menu.getByRole('group', { name: 'Admin' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Campaigns' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Organizations' })).toHaveCount(0);

  // Campaigns are not theirs to edit: the page offers no Add or Edit.
  await openDashboard(page, '/dashboard/active-campaigns');
  await expect(page.getByRole('link', { name: /Add Campaign/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Edit/ })).toHaveCount(0);
  // The donations list offers no Add.
  await openDashboard(page, '/dashboard/donations');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add' })).toHaveCount(0);
  // The audit log opens for them (their organizations' rows; none linked yet, so empty).
  await group.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Audit log' })).toContainText('No changes recorded yet.');
  // Another user's page is refused to a finance user with no organization link.
  await openDashboard(page, `/dashboard/donors/edit/${donor.user._id}`);
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Merge into…' })).toHaveCount(0);
});

test('the charity’s finance officer reads a gift’s page with no request refused, and is told where adding is done', async ({
  page,
  request,
  signInAs,
}) => {
  const token = await signInAs('finance@example.org');
  // A paid monthly payment: its page also shows the monthly gift it belongs to (the demo seed's
  // gifts are sub_demo…; a monthly gift entered by hand in another test has none).
  const gifts = await request.get('/api/donations?limit=100&type=monthly', {
    headers: { authorization: `Bearer ${token}` },
  });
  const monthly = (await gifts.json()) as { _id: string; subscription_id: string | null; status: string }[];
  // Paid: a checkout still waiting for its first payment has no monthly gift yet.
  const gift = monthly.find((g) => g.subscription_id?.startsWith('sub_demo') && g.status === 'succeeded');
  if (!gift) throw new Error('the demo seed has no monthly payment the finance officer can read');
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
  });
  await useToken(page, token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDashboard(page, `/dashboard/donations/edit/${gift._id}`);
  await expect(page.getByTestId('donation-summary')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Payment' })).toBeVisible();
  // Messages of support are moderated by the charity's admins: the page does not ask for them.
  await expect(page.getByRole('group', { name: 'Message of support' })).toHaveCount(0);
  // The monthly gift is read, and cancelling it is left to the organization's admins.
  await expect(page.getByRole('heading', { name: 'Monthly gift' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel monthly gift' })).toHaveCount(0);
  expect(refused).toEqual([]);

  // The add forms say who adds, before any typing, instead of refusing on Save.
  for (const [path, heading, who] of [
    ['/dashboard/donations/add', 'Add Donation', 'Donations are added by admins and organization admins.'],
    ['/dashboard/donors/add', 'Add Donor', 'Donors are added by admins and organization admins.'],
    ['/dashboard/organizations/add', 'Add Organization', 'Organizations are added by the platform’s admins.'],
  ]) {
    await openDashboard(page, path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByText(who)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  }
  await page.getByRole('main').getByRole('link', { name: 'overview' }).click();
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  await openDashboard(page, '/dashboard/donations/add');
  await page.getByRole('link', { name: 'batch entry' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Batch entry' })).toBeVisible();
  expect(refused).toEqual([]);

  // A monthly checkout still waiting for its first payment has no monthly gift yet: its page (an
  // admin's here, whose organizations include the campaign's) says so instead of an error.
  const email = `pending.${Date.now()}@example.org`;
  // A seeded campaign that takes gifts (the newest may be another test's, opening later).
  const campaign = await firstApproved(request, '/api/campaigns');
  const [price] = (await (await request.get('/api/stripe/subscriptions')).json()) as { id: string }[];
  const started = await request.post('/api/stripe/client_secret', {
    data: { email, price: price.id, campaign_id: campaign._id },
  });
  expect(started.status(), await started.text()).toBe(200);
  const admin = await signInAs('admin@example.org');
  const pending = await request.get(`/api/donations?type=monthly&status=pending&search=${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  expect(pending.status(), await pending.text()).toBe(200);
  const [waiting] = (await pending.json()) as { _id: string; subscription_id: string | null }[];
  expect(waiting?.subscription_id).toMatch(/^sub_/);
  await useToken(page, admin);
  await openDashboard(page, `/dashboard/donations/edit/${waiting._id}`);
  await expect(page.getByText('No monthly gift yet: it is set up when the first payment goes through.')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
