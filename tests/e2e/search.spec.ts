import { expect, expectNoAxeViolations, firstApproved, test } from './fixtures';

test('a visitor finds an appeal by its fundraiser’s name, pages keep the search, and Show all clears it', async ({
  page,
  request,
}) => {
  const appeal = (await firstApproved(request, '/api/appeals')) as Awaited<ReturnType<typeof firstApproved>> & {
    created_by: { first_name: string; last_name: string };
  };
  const surname = appeal.created_by.last_name;
  await page.goto('/appeals');
  const box = page.getByRole('searchbox', { name: 'Search appeals' });
  await box.fill(`  ${surname.toUpperCase()} `);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/appeals\?q=/);
  await expect(page.getByRole('searchbox', { name: 'Search appeals' })).toHaveValue(surname.toUpperCase());
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByRole('heading', { name: appeal.title })).toBeVisible();
  // Every card shown is by someone of that name ("By: …").
  const cards = results.locator('.card-grid > li');
  const count = await cards.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) await expect(cards.nth(i)).toContainText(surname);
  await expect(results).toContainText(new RegExp(`${count} results? for “${surname.toUpperCase()}”`));
  // The tab says what was searched for; search engines are asked not to index a visitor's search.
  await expect(page).toHaveTitle(`Results for “${surname.toUpperCase()}”: Discover Appeals | UK NFP`);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expectNoAxeViolations(page);

  await results.getByRole('link', { name: 'Show all' }).click();
  await expect(page).toHaveURL(/\/appeals$/);
  await expect(page.getByRole('searchbox', { name: 'Search appeals' })).toHaveValue('');
  await expect(page).toHaveTitle('Discover Appeals | UK NFP');
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);

  // A page past the search's last answers 404, and its link goes back to the search, not the whole list.
  const past = await page.goto('/appeals?q=10k&page=2');
  expect(past?.status()).toBe(404);
  await expect(page.getByRole('link', { name: 'Go to the list' })).toHaveAttribute('href', '/appeals?q=10k');
});

test('a search that finds nothing says so, and punctuation is only punctuation', async ({ page }) => {
  await page.goto('/campaigns?q=%22zzqx%20OR%20*');
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results).toContainText('No campaigns found for “"zzqx OR *”.');
  await expect(page.getByRole('searchbox', { name: 'Search campaigns' })).toHaveValue('"zzqx OR *');
  await expectNoAxeViolations(page);
  // A search page is the visitor's own: never stored in the shared cache.
  const res = await page.request.get('/campaigns?q=water');
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toMatch(/private|no-store/);
  expect(await res.text()).toContain('Clean Water for Every Village');
});
