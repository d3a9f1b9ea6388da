import type { APIRequestContext, Page } from '@playwright/test';
import { expect, openAs as openWithToken, signIn, test } from './fixtures';

/** Every dashboard screen shows only what its viewer may do: donors, organization admins, admins. */
const ADMIN = 'admin@example.org';
const ORG_ADMIN = 'orgadmin@example.org';
const DONOR = 'donor@example.org';

type Item = { _id: string; title: string; organization_id: string | null; can_edit?: boolean };

async function openAs(page: Page, request: APIRequestContext, email: string, path: string) {
  const { token } = await signIn(request, email);
  await openWithToken(page, token, path);
  return token;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

test("a donor's My Appeals lists only the appeals they started, each with Edit", async ({ page, request }) => {
  const { token } = await signIn(request, DONOR);
  // One appeal of their own for sure, whatever the seed gave them.
  const title = `Donor's own appeal ${Date.now()}`;
  const [parent] = (await (await request.get('/api/campaigns?tiny=true')).json()) as Item[];
  const created = await request.post('/api/campaigns', {
    headers: auth(token),
    data: {
      title,
      description: 'Running for clean water',
      goal: 50_000,
      images: [{ Key: '/images/demo/cause-1.png' }],
      campaign_id: parent._id,
    },
  });
  expect(created.status()).toBe(201);
  const mine = (await (
    await request.get('/api/appeals?mine=true&limit=100', { headers: auth(token) })
  ).json()) as Item[];
  const all = (await (await request.get('/api/appeals?limit=100', { headers: auth(token) })).json()) as Item[];
  const someoneElses = all.find((a) => !a.can_edit);
  expect(someoneElses).toBeTruthy();
  expect(mine.length).toBeLessThan(all.length);

  await openAs(page, request, DONOR, '/dashboard/active-appeals');
  await expect(page.getByRole('heading', { level: 1, name: 'My Appeals' })).toBeVisible();
  const cards = page.locator('.dash-ccard');
  await expect(cards).toHaveCount(mine.length);
  await expect(cards.filter({ hasText: title })).toHaveCount(1);
  await expect(cards.filter({ hasText: someoneElses!.title })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Edit / })).toHaveCount(mine.length);
  await expect(page.getByRole('checkbox', { name: 'Only appeals I started' })).toHaveCount(0);

  // Someone else's appeal: the editor refuses at once instead of failing on Continue.
  await page.goto(`/dashboard/active-appeals-edit/${someoneElses!._id}`);
  await expect(page.getByRole('alert')).toContainText(`You cannot edit "${someoneElses!.title}"`);
  await expect(page.getByRole('button', { name: 'Continue' })).toHaveCount(0);
});

test('a donor at /dashboard/gift-aid gets their own declarations, not the claim screen', async ({ page, request }) => {
  await openAs(page, request, DONOR, '/dashboard/gift-aid');
  await expect(page.getByRole('heading', { level: 1, name: 'Your Gift Aid' })).toBeVisible();
  await expect(page.getByText('that screen is not available to your account')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Gift Aid' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Create claim/ })).toHaveCount(0);
  await expect(page.getByText(/Eligible gifts|Claims/)).toHaveCount(0);
  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  await expect(menu.getByRole('link', { name: 'Gift Aid' })).toHaveCount(0);
});

test('an org admin sees donors read-only and adds a donor with name and email', async ({ page, request }) => {
  const token = await openAs(page, request, ORG_ADMIN, '/dashboard/donations');
  await expect(page.getByRole('heading', { level: 1, name: "My Organization's Donations" })).toBeVisible();

  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  await menu.getByRole('group', { name: 'Admin' }).getByRole('link', { name: 'Donors' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Donors' })).toBeVisible();
  const firstRow = page.locator('table.dash-table tbody tr').first();
  await expect(firstRow).toContainText('@');
  await firstRow.click();
  await expect(page).toHaveURL(/\/dashboard\/donors\/edit\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Donor', exact: true })).toBeVisible();
  await expect(page.getByText('Only the donor, or a platform admin, can change their details.')).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Back to donors' }).click();

  await page.getByRole('link', { name: 'Add' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add Donor' })).toBeVisible();
  await expect(page.getByLabel('Phone')).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Address' })).toHaveCount(0);
  const email = `walk-in-${Date.now()}@example.org`;
  await page.getByRole('textbox', { name: /^First name/ }).fill('Wendy');
  await page.getByRole('textbox', { name: /^Last name/ }).fill('Walkin');
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/dashboard\/donors$/);
  const found = (await (
    await request.get(`/api/users?search=${encodeURIComponent(email)}`, { headers: auth(token) })
  ).json()) as { email: string }[];
  expect(found.map((d) => d.email)).toEqual([email]);
});

test('an org admin gets no Edit on another organization’s campaign, and its editor refuses at load', async ({
  page,
  request,
}) => {
  const token = await openAs(page, request, ORG_ADMIN, '/dashboard/active-campaigns');
  const { user } = await signIn(request, ORG_ADMIN);
  const campaigns = (await (await request.get('/api/campaigns?limit=100', { headers: auth(token) })).json()) as Item[];
  const elsewhere = campaigns.find((c) => c.organization_id && !user.org_ids.includes(c.organization_id));
  expect(elsewhere?.can_edit).toBe(false);
  await expect(page.locator('.dash-ccard').filter({ hasText: elsewhere!.title })).toHaveCount(1);
  await expect(
    page
      .locator('.dash-ccard')
      .filter({ hasText: elsewhere!.title })
      .getByRole('link', { name: /^Edit / }),
  ).toHaveCount(0);
  await page.goto(`/dashboard/active-campaigns-edit/${elsewhere!._id}`);
  await expect(page.getByRole('alert')).toContainText(
    `You cannot edit "${elsewhere!.title}": only admins of its organization`,
  );
  await expect(page.getByRole('button', { name: 'Continue' })).toHaveCount(0);
});

test('Contact Support sends the message and the donor gets a copy; the charity gets the email', async ({
  page,
  request,
}) => {
  await openAs(page, request, DONOR, '/dashboard/contact');
  const subject = `Receipt question ${Date.now()}`;
  await expect(page.getByRole('textbox', { name: /^Email/ })).toHaveValue(DONOR);
  // The disabled Send says what it waits for.
  await expect(page.getByTestId('send-waiting')).toHaveText('To send, add a subject and a message.');
  await page.getByRole('textbox', { name: /^Subject/ }).fill(subject);
  await page
    .getByRole('textbox', { name: /^Message\/Inquiry/ })
    .fill('Could you resend my receipt for March?\nThank you.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(
    page.getByText(`Thank you. Your message has been sent to our support team and a copy to ${DONOR}.`),
  ).toBeVisible();
  await expect(page.locator('.dash-support-item').filter({ hasText: subject })).toContainText('Waiting for a reply');
  const copy = (await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(DONOR)}`)).json()) as {
    subject: string;
  }[];
  expect(copy.map((m) => m.subject)).toContain(`We received your message: ${subject}`);
  const toCharity = (await (await request.get('/api/dev/outbox?to=hello%40uknfp.org')).json()) as { subject: string }[];
  expect(toCharity.map((m) => m.subject)).toContain(`Contact Support: ${subject}`);
});

test('an admin reads a Contact Support message in the Support inbox and marks it handled', async ({
  page,
  request,
}) => {
  const donor = await signIn(request, DONOR);
  const subject = `Gift date question ${Date.now()}`;
  const sent = await request.post('/api/support-requests', {
    headers: auth(donor.token),
    data: { name: 'Amira Khan', subject, message: 'Could my monthly gift be taken on the 15th?' },
  });
  expect(sent.status()).toBe(201);

  await openAs(page, request, ADMIN, '/dashboard/support-inbox');
  await expect(
    page.getByRole('navigation', { name: 'Dashboard menu' }).getByRole('link', { name: 'Support inbox' }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Support inbox' })).toBeVisible();
  const item = page.locator('.dash-support-item').filter({ hasText: subject });
  await expect(item).toContainText(DONOR);
  await expect(item).toContainText('Could my monthly gift be taken on the 15th?');
  await item.getByRole('button', { name: /Mark handled/ }).click();
  await expect(page.getByText(`Marked “${subject}” handled.`)).toBeVisible();
  await expect(page.locator('.dash-support-item').filter({ hasText: subject })).toHaveCount(0);
  await page.getByLabel('Show').selectOption('handled');
  await expect(page.locator('.dash-support-item').filter({ hasText: subject })).toContainText('Handled');
});

test("an admin's My Appeals lists the appeals they started, and Appeals every appeal, each marked in the menu", async ({
  page,
  request,
}) => {
  const token = await openAs(page, request, ADMIN, '/dashboard/active-appeals');
  const title = `Admin's own appeal ${Date.now()}`;
  const [parent] = (await (await request.get('/api/campaigns?tiny=true')).json()) as Item[];
  const created = await request.post('/api/campaigns', {
    headers: auth(token),
    data: {
      title,
      description: 'Walking for the shelter',
      goal: 40_000,
      images: [{ Key: '/images/demo/cause-1.png' }],
      campaign_id: parent._id,
    },
  });
  expect(created.status()).toBe(201);
  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  const [myAppeals, appeals] = [
    menu.getByRole('link', { name: 'My Appeals' }),
    menu.getByRole('link', { name: 'Appeals', exact: true }),
  ];
  await expect(page.getByRole('heading', { level: 1, name: 'Active Appeals' })).toBeVisible();
  await expect(appeals).toHaveAttribute('aria-current', 'page');
  await expect(myAppeals).not.toHaveAttribute('aria-current', 'page');

  await myAppeals.click();
  await expect(page).toHaveURL(/\/dashboard\/active-appeals\?mine=true$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My Appeals' })).toBeVisible();
  // Another place, though only the query changed: the focus moves to the page, as on any link.
  await expect(page.locator('#dash-main')).toBeFocused();
  await expect(page).toHaveTitle('My Appeals | UK NFP Dashboard');
  await expect(page.getByRole('checkbox', { name: 'Only appeals I started' })).toBeChecked();
  await expect(myAppeals).toHaveAttribute('aria-current', 'page');
  await expect(appeals).not.toHaveAttribute('aria-current', 'page');
  const cards = page.locator('.dash-ccard');
  await expect(cards.filter({ hasText: title })).toHaveCount(1);
  const mine = (await (
    await request.get('/api/appeals?mine=true&status=approved&limit=100', { headers: auth(token) })
  ).json()) as Item[];
  await expect(cards).toHaveCount(mine.length);

  // Unticking the box is the Appeals entry again, in the address and the menu; the box keeps the focus.
  await page.getByRole('checkbox', { name: 'Only appeals I started' }).uncheck();
  await expect(page).toHaveURL(/\/dashboard\/active-appeals$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Active Appeals' })).toBeVisible();
  await expect(appeals).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('checkbox', { name: 'Only appeals I started' })).toBeFocused();
  const all = (await (
    await request.get('/api/appeals?status=approved&limit=100', { headers: auth(token) })
  ).json()) as Item[];
  expect(all.length).toBeGreaterThan(mine.length);
  await expect(cards).toHaveCount(all.length);

  // Their own appeals under another status: an empty list says which status, not "none started".
  await myAppeals.click();
  await page.getByRole('combobox', { name: 'Status' }).selectOption('deleted');
  const deleted = (await (
    await request.get('/api/appeals?mine=true&status=deleted&limit=100', { headers: auth(token) })
  ).json()) as Item[];
  if (deleted.length === 0)
    await expect(page.getByText('None of your appeals is deleted. Choose another status, or')).toBeVisible();
  else await expect(cards).toHaveCount(deleted.length);
  await expect(page.getByText('You have not started an appeal yet.')).toHaveCount(0);
});
