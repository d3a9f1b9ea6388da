import { expect, test } from './fixtures';

test('the campaigns page server-renders seeded campaigns', async ({ page, request }) => {
  const response = await page.goto('/campaigns');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Discover Campaigns' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Clean Water for Every Village' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Feed 165 Families This Winter' })).toBeVisible();
  // Every approved campaign the API lists (the 6 seeded ones plus any a test made), and no others.
  const approved = (await (await request.get('/api/campaigns?limit=12')).json()) as unknown[];
  expect(approved.length).toBeGreaterThanOrEqual(6);
  await expect(page.locator('.card')).toHaveCount(approved.length);
});

test('unknown paths and /404 show the not-found page with a 404 status', async ({ page }) => {
  for (const path of ['/404', '/no/such/page']) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    await expect(page.getByText('We are sorry, but the page you requested was not found')).toBeVisible();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL('/');
  }
});

test('the header and footer carry the navigation the spec lists', async ({ page }) => {
  await page.goto('/campaigns');
  const header = page.locator('header');
  await expect(header.getByRole('link', { name: 'Campaigns' })).toHaveAttribute('href', '/campaigns');
  await expect(header.getByRole('link', { name: 'Appeals' })).toHaveAttribute('href', '/appeals');
  await expect(header.getByRole('link', { name: 'Donate' })).toHaveAttribute('href', '/appeals');
  await expect(header.getByRole('link', { name: 'Start a Fundraise' })).toHaveAttribute('href', '/fund-raising');
  await expect(
    header.getByRole('button', { name: 'Login' }).or(header.getByRole('link', { name: 'Login' })),
  ).toBeVisible();
  const footer = page.locator('footer');
  await expect(footer.getByRole('link', { name: 'hello@uknfp.org' })).toHaveAttribute('href', 'mailto:hello@uknfp.org');
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/policy');
  await expect(footer.getByRole('link', { name: 'Terms and Conditions' })).toBeVisible();
  await expect(footer.getByRole('list', { name: 'Social media' }).getByRole('link')).toHaveCount(3);
});
