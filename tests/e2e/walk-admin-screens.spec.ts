import { expect, signIn, test, useToken } from './fixtures';

/**
 * A walk of the admin's management screens at 390 px (touch) and 1280 px: each page loads without an
 * error, fits the phone's width, and its screenshot is kept (SCREENSHOTS=1) for a person to look at.
 */
const PAGES = [
  '/dashboard',
  '/dashboard/organizations',
  '/dashboard/organizations/add',
  '/dashboard/donors',
  '/dashboard/donors/add',
  '/dashboard/active-campaigns',
  '/dashboard/active-campaigns-add',
  '/dashboard/active-appeals',
  '/dashboard/active-appeals-add',
  '/dashboard/support-inbox',
  '/dashboard/communication',
  '/dashboard/settings',
];

test.use({ hasTouch: true });

test('the admin’s management screens load and fit a phone and a desktop', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  const auth = { authorization: `Bearer ${token}` };
  const org = ((await (await request.get('/api/organizations', { headers: auth })).json()) as { _id: string }[])[0];
  const donor = ((await (await request.get('/api/users?limit=5', { headers: auth })).json()) as { _id: string }[])[0];
  const campaign = ((await (await request.get('/api/campaigns?limit=1')).json()) as { _id: string }[])[0];
  const appeal = ((await (await request.get('/api/appeals?limit=1')).json()) as { _id: string }[])[0];
  const pages = [
    ...PAGES,
    `/dashboard/organizations/edit/${org._id}`,
    `/dashboard/donors/edit/${donor._id}`,
    `/dashboard/active-campaigns-edit/${campaign._id}`,
    `/dashboard/active-appeals-edit/${appeal._id}`,
  ];
  for (const [width, height] of [
    [390, 844],
    [1280, 900],
  ]) {
    await page.setViewportSize({ width, height });
    for (const path of pages) {
      await page.goto(path);
      await page.waitForSelector('astro-island:not([ssr])');
      await expect(page.locator('main h1').first(), path).toBeVisible();
      await page.waitForLoadState('networkidle');
      const name = path.replace(/^\/dashboard\/?/, '').replace(/\//g, '_') || 'overview';
      if (process.env.SCREENSHOTS)
        await page.screenshot({ path: `test-results/walk/${name}-${width}.png`, fullPage: true });
      if (width === 390) {
        // On a touch screen the header's small controls are a finger's size.
        for (const button of await page.getByRole('radio', { name: /theme/ }).all()) {
          const box = await button.boundingBox();
          expect.soft(box?.height ?? 0, `${path}: theme choice height`).toBeGreaterThanOrEqual(44);
        }
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
      expect.soft(overflow, `${path} at ${width}px scrolls sideways`).toBeLessThanOrEqual(width);
    }
  }

  // A refused save on a phone: the answer at the form's head comes into view with focus (Save is far below).
  await page.setViewportSize({ width: 390, height: 844 });
  const taken = ((await (await request.get('/api/organizations', { headers: auth })).json()) as { name: string }[])[1];
  await page.goto('/dashboard/organizations/add');
  await page.getByLabel('Name').first().fill(taken.name);
  await page.getByRole('button', { name: 'Save' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'already exists' });
  await expect(refusal).toHaveText(`Name: an organization called "${taken.name}" already exists; choose another name`);
  await expect(refusal).toBeInViewport();
  await expect(page.locator('.dash-form-error')).toBeFocused();

  // Roles: an admin makes a donor a finance user from the donor's page; the change is audited.
  await page.setViewportSize({ width: 390, height: 844 });
  const email = `e2e.role.${Date.now()}@example.com`;
  const created = await request.post('/api/users', {
    headers: auth,
    data: { email, name: { first_name: 'Rowan', last_name: 'Role' } },
  });
  expect(created.status()).toBe(201);
  const person = (await created.json()) as { _id: string };
  await page.goto(`/dashboard/donors/edit/${person._id}`);
  const role = page.getByRole('combobox', { name: 'Role' });
  await expect(role).toHaveValue('donor');
  await role.selectOption('finance');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/dashboard\/donors$/);
  const saved = await request.get(`/api/users/${person._id}`, { headers: auth });
  expect(((await saved.json()) as { type: string }).type).toBe('finance');
  const audit = await request.get(`/api/audit?target=${person._id}`, { headers: auth });
  expect(((await audit.json()) as { action: string }[]).map((a) => a.action)).toContain('user.type');
  // Their own role is not offered: an admin cannot lock themselves out.
  await page.goto('/dashboard/donors/edit/me');
  await expect(page.getByRole('heading', { level: 1, name: 'My Info' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Role' })).toHaveCount(0);
});
