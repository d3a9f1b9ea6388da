import { expect, test } from '@playwright/test';

/**
 * The organization admin's view of the staff lists: 'My …' titles and only its own organization.
 * Its own file because each dashboard spec signs in at most twice (code emails are rate-limited).
 */
const ORG_ADMIN = 'orgadmin@example.org';

test('an org admin sees My Organizations with exactly its one organization, and My Donations', async ({ page, request }) => {
  expect((await request.post('/api/auth/login', { data: { email: ORG_ADMIN } })).ok()).toBe(true);
  let code = '';
  await expect(async () => {
    const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(ORG_ADMIN)}`);
    const [mail] = (await res.json()) as { text: string }[];
    code = /code is: (\d{6})/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
  }).toPass({ timeout: 5_000 });
  const login = await request.post('/api/auth/login', { data: { email: ORG_ADMIN, code } });
  const { token, user } = (await login.json()) as { token: string; user: { org_ids: string[] } };
  expect(user.org_ids).toHaveLength(1);
  const org = (await (await request.get(`/api/organizations/${user.org_ids[0]}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { name: string };

  await page.addInitScript((t) => localStorage.setItem('uk_nfp_token', t), token);
  await page.goto('/dashboard/organizations');
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.getByRole('heading', { level: 1, name: 'My Organizations' })).toBeVisible();
  const table = page.getByRole('table', { name: 'My Organizations' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr')).toContainText(org.name);

  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  await menu.getByRole('group', { name: 'Admin' }).getByRole('link', { name: 'Donations' }).click();
  await expect(page).toHaveURL(/\/dashboard\/donations$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My Donations' })).toBeVisible();
  await expect(page.locator('table.dash-table tbody tr').first()).toContainText(/£\d/);
  await menu.getByRole('group', { name: 'Admin' }).getByRole('link', { name: 'Donors' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Donors' })).toBeVisible();
});
