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

test('an office list past 100 items pages on: the oldest deleted appeals are on the second page', async ({
  page,
  request,
  signInAs,
}) => {
  test.setTimeout(120_000);
  const admin = await signInAs('admin@example.org');
  const headers = { authorization: `Bearer ${admin}` };
  // Deleted appeals: no public list, email or other test reads them. 101 more than the seed's.
  const deleted = async () =>
    (await (await request.get('/api/appeals?status=deleted&limit=100', { headers })).json()) as { title: string }[];
  const [campaign] = (await (await request.get('/api/campaigns?limit=1')).json()) as {
    _id: string;
    organization_id: string;
  }[];
  const stamp = Date.now();
  for (let i = 0; i < 101; i++) {
    const made = await request.post('/api/campaigns', {
      headers,
      data: {
        title: `Paged away ${stamp} ${i}`,
        description: 'A deleted appeal for the paging test.',
        goal: 10_000,
        campaign_id: campaign._id,
        status: 'deleted',
        images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png' }],
      },
    });
    expect(made.status(), await made.text()).toBe(201);
  }
  const firstPage = await deleted();
  expect(firstPage).toHaveLength(100);
  const oldest = (
    (await (await request.get('/api/appeals?status=deleted&limit=100&page=2', { headers })).json()) as {
      title: string;
    }[]
  ).at(-1);
  expect(oldest).toBeDefined();

  await useToken(page, admin);
  await page.goto('/dashboard/active-appeals');
  await page.getByRole('combobox', { name: 'Status' }).selectOption('deleted');
  const pages = page.getByRole('navigation', { name: 'Appeal pages' });
  await expect(pages).toContainText('Appeals 1–100');
  await expect(pages.getByRole('button', { name: 'Previous 100' })).toBeDisabled();
  await expect(page.getByRole('heading', { name: oldest?.title ?? '' })).toHaveCount(0);
  await pages.getByRole('button', { name: 'Next 100' }).click();
  await expect(pages).toContainText(/Appeals 101–\d+/);
  await expect(page.getByRole('heading', { name: oldest?.title ?? '' })).toBeVisible();
  await expect(pages.getByRole('button', { name: 'Next 100' })).toBeDisabled();
  await pages.getByRole('button', { name: 'Previous 100' }).click();
  await expect(pages).toContainText('Appeals 1–100');
  // Another status starts again at the first page.
  await pages.getByRole('button', { name: 'Next 100' }).click();
  await expect(pages).toContainText(/Appeals 101–/);
  await page.getByRole('combobox', { name: 'Status' }).selectOption('approved');
  await expect(page.getByRole('heading', { name: 'Active Appeals' })).toBeVisible();
  await expect(page.getByText(/Appeals 101–|No more appeals past/)).toHaveCount(0);
  const seeded = await firstApproved(request, '/api/appeals');
  await expect(page.getByRole('heading', { name: seeded.title })).toBeVisible();
  await expect(page.getByRole('heading', { name: oldest?.title ?? '' })).toHaveCount(0);
});
