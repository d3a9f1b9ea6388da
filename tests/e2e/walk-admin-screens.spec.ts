import { expect, signIn, test, useToken } from './fixtures';

/**
 * What an admin met on a phone while managing the charity's records (every screen's width and
 * accessibility is checked in dashboard-a11y.spec.ts): controls a finger can hit, a refused save
 * that shows itself, and giving another account its role.
 */
test.use({ hasTouch: true });

test('on a touch screen the header’s theme choices are a finger’s size', async ({ page, request }) => {
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/organizations');
  await page.waitForSelector('astro-island:not([ssr])');
  const choices = await page.getByRole('radio', { name: /theme/ }).all();
  expect(choices.length).toBeGreaterThan(1);
  for (const choice of choices) expect((await choice.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
});

test('a refused save comes into view with focus, and an admin gives another account its role', async ({
  page,
  request,
}) => {
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  const auth = { authorization: `Bearer ${token}` };
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
  // Nor when their own account is opened from the donors list, by its id.
  const me = (await (await request.get('/api/auth', { headers: auth })).json()) as { _id: string };
  await page.goto(`/dashboard/donors/edit/${me._id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Donor' })).toBeVisible();
  await expect(page.getByLabel('First name').first()).not.toHaveValue('');
  await expect(page.getByRole('combobox', { name: 'Role' })).toHaveCount(0);
});

/** Every visible control of these kinds, with its height: a finger needs 44 px (docs/decisions/053). */
const SMALL_CONTROLS =
  '.dash-main :is(.dash-btn-sm, .dash-icon-btn, .dash-link-btn, .dash-input-sm, .dash-check, .dash-sort-btn, .dash-menu-item)';
async function heights(page: import('@playwright/test').Page, selector: string) {
  return page
    .locator(selector)
    .evaluateAll((els) =>
      els
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => ({ text: (el.textContent ?? '').trim().slice(0, 30), h: el.getBoundingClientRect().height })),
    );
}

test('on a touch screen the lists’ small buttons, and the public site’s, are a finger’s size', async ({
  page,
  request,
}) => {
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, name] of [
    ['/dashboard/monthly-gifts', 'monthly-gifts'],
    ['/dashboard/donations', 'donations'],
  ] as const) {
    await page.goto(path);
    await page.waitForSelector('astro-island:not([ssr])');
    await expect(page.getByRole('table').first()).toBeVisible();
    if (name === 'monthly-gifts') await page.getByRole('tab', { name: 'Failed payments' }).click();
    const found = await heights(page, SMALL_CONTROLS);
    expect(found.length, path).toBeGreaterThan(2);
    for (const control of found) expect(control.h, `${path}: ${control.text}`).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `test-results/touch-${name}-390.png`, fullPage: true });
  }
  // The public cards' small buttons (Donate, View, View Appeals) are 44 px on any screen.
  await page.goto('/campaigns');
  const cardButtons = await heights(page, '.btn-small');
  expect(cardButtons.length).toBeGreaterThan(0);
  for (const control of cardButtons) expect(control.h, control.text).toBeGreaterThanOrEqual(44);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/touch-campaigns-390.png' });
});

test.describe('with a mouse', () => {
  test.use({ hasTouch: false });
  test('the lists keep their desktop density at 1280 px, and nothing spills', async ({ page, request }) => {
    const { token } = await signIn(request, 'admin@example.org');
    await useToken(page, token);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/dashboard/monthly-gifts');
    await page.waitForSelector('astro-island:not([ssr])');
    await expect(page.getByRole('table').first()).toBeVisible();
    const found = await heights(page, '.dash-main .dash-btn-sm');
    expect(found.length).toBeGreaterThan(0);
    for (const control of found) expect(control.h, control.text).toBeLessThan(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/mouse-monthly-gifts-1280.png' });
    await page.goto('/campaigns');
    for (const control of await heights(page, '.btn-small')) expect(control.h).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/mouse-campaigns-1280.png' });
  });
});

test('on a phone a long filter bar folds to its search box, and unfolds on request', async ({ page, request }) => {
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/donations');
  await page.waitForSelector('astro-island:not([ssr])');
  const bar = page.getByRole('search', { name: 'Search and filter donations' });
  const toggle = bar.getByRole('button', { name: 'Show filters', exact: true });
  await expect(bar.getByRole('searchbox', { name: 'Search' })).toBeVisible();
  await expect(bar.getByRole('combobox', { name: 'Campaign' })).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  // The list starts on the first screen, not below a screen of filters.
  expect((await page.getByRole('table').first().boundingBox())?.y ?? 844).toBeLessThan(844);
  // A search is in view, so it does not count as a filter behind the fold.
  await bar.getByRole('searchbox', { name: 'Search' }).fill('example');
  await bar.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page).toHaveURL(/search=example/);
  await expect(toggle).toBeVisible();
  await toggle.click();
  await expect(bar.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
  await bar.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Refunded' });
  await expect(page).toHaveURL(/status=refunded/);
  // Folded again, the bar says a filter is in use.
  await bar.getByRole('button', { name: 'Hide filters' }).click();
  await expect(bar.getByRole('button', { name: 'Show filters (in use)' })).toBeVisible();
  // Wide screens show every filter and no toggle.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(bar.getByRole('combobox', { name: 'Campaign' })).toBeVisible();
  await expect(bar.getByRole('button', { name: /^(Show|Hide) filters/ })).toBeHidden();
});
