import { readFile } from 'node:fs/promises';
import { expect, signIn, startMonthlyGift, test, useToken } from './fixtures';

/** The office's monthly gifts: a donor's new gift is listed, filtered, exported; the failed-payments tab. */
test('an admin finds a new monthly gift, filters, exports it and opens the failed payments', async ({
  page,
  request,
}) => {
  const donor = await signIn(request, 'donor@example.org');
  await startMonthlyGift(request, donor.token);

  const admin = await signIn(request, 'admin@example.org');
  await useToken(page, admin.token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/overview');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByRole('link', { name: 'Monthly gifts' }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/monthly-gifts$/);
  await expect(page.getByRole('heading', { name: 'Monthly gifts', level: 1 })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill('donor@example.org');
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  const table = page.getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: 'donor@example.org' }).first()).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('active');
  await expect(table.getByRole('row').filter({ hasText: 'Active' }).first()).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'Cancelled' })).toHaveCount(0);
  if (process.env.SCREENSHOTS)
    await page.screenshot({ path: 'test-results/monthly-gifts-desktop.png', fullPage: true });

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await readFile((await (await downloading).path())!, 'utf8');
  expect(csv.replace(/^\uFEFF/, '').split('\r\n')[0]).toMatch(/^Donor name,Donor email,Amount \(GBP\)/);
  expect(csv).toContain('donor@example.org');
  expect(csv).not.toContain(',cancelled,');

  await page.getByRole('tab', { name: 'Failed payments' }).click();
  await expect(page.getByRole('tab', { name: 'Failed payments' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('columnheader', { name: /Email to donor/ })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('tab', { name: 'All monthly gifts' }).click();
  await expect(table.getByRole('row').filter({ hasText: 'donor@example.org' }).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/monthly-gifts-phone.png', fullPage: true });

  // A row leads to the gift's page, where staff can cancel it for the donor.
  await page.setViewportSize({ width: 1280, height: 900 });
  const row = table.getByRole('row').filter({ hasText: 'donor@example.org' }).first();
  await expect(row).toContainText(/\d{1,2}\s[A-Z][a-z]{2}\s\d{4}/);
  await row.getByRole('link', { name: /^Open gift/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/donations\/edit\//);
  await expect(page.getByRole('button', { name: /Cancel monthly gift/ })).toBeVisible();
});
