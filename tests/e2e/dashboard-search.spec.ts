import { expect, firstApproved, test, useToken } from './fixtures';

test('an admin finds an appeal in Active Appeals by its title, and Show all brings the list back', async ({
  page,
  request,
  signInAs,
}) => {
  const appeal = await firstApproved(request, '/api/appeals');
  await useToken(page, await signInAs('admin@example.org'));
  await page.goto('/dashboard/active-appeals');
  const cards = page.locator('main article, main li').filter({ hasText: appeal.title });
  await expect(page.getByRole('heading', { name: 'Active Appeals' })).toBeVisible();
  const box = page.getByRole('searchbox', { name: 'Search appeals' });
  await box.fill(appeal.title.toUpperCase());
  await box.press('Enter');
  const summary = page.getByRole('status').filter({ hasText: 'for “' });
  await expect(summary).toContainText(`result`);
  await expect(summary).toContainText(`for “${appeal.title.toUpperCase()}”.`);
  await expect(cards.first()).toBeVisible();
  await page.screenshot({ path: 'test-results/dashboard-search.png' });

  // A search that finds nothing says so; Show all clears it.
  await box.fill('zzqx nothing');
  await box.press('Enter');
  await expect(summary).toContainText('0 results for “zzqx nothing”.');
  await summary.getByRole('button', { name: 'Show all' }).click();
  await expect(box).toHaveValue('');
  await expect(summary).toHaveCount(0);
  await expect(cards.first()).toBeVisible();
});
