import { expect, signIn, test, useToken } from './fixtures';

/**
 * The organization admin's view of the staff lists: 'My …' titles and only its own organization.
 * Its own file because each dashboard spec signs in at most twice (code emails are rate-limited).
 */
const ORG_ADMIN = 'orgadmin@example.org';

test("an org admin sees My Organizations with exactly its one organization, and its organization's donations", async ({
  page,
  request,
}) => {
  const { token, user } = await signIn(request, ORG_ADMIN);
  expect(user.org_ids).toHaveLength(1);
  const org = (await (
    await request.get(`/api/organizations/${user.org_ids[0]}`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { name: string };

  await useToken(page, token);
  await page.goto('/dashboard/organizations');
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.getByRole('heading', { level: 1, name: 'My Organizations' })).toBeVisible();
  const table = page.getByRole('table', { name: 'My Organizations' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr')).toContainText(org.name);

  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  await menu.getByRole('group', { name: 'Admin' }).getByRole('link', { name: 'Donations' }).click();
  await expect(page).toHaveURL(/\/dashboard\/donations$/);
  // Not "My Donations": that is the personal menu item, the org admin's own gifts.
  await expect(page.getByRole('heading', { level: 1, name: "My Organization's Donations" })).toBeVisible();
  await expect(page.locator('table.dash-table tbody tr').first()).toContainText(/£\d/);
  await menu.getByRole('group', { name: 'Admin' }).getByRole('link', { name: 'Donors' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Donors' })).toBeVisible();
});
