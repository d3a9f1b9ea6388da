import { expect, expectNoAxeViolations, openAs, test } from './fixtures';

/**
 * A campaign taken down takes its appeals with it (decision 066): the fundraiser still finds their
 * appeal in My Appeals, which says why it is off the site and offers no Donate, while the public
 * page answers 404.
 */
test('My Appeals says when an appeal is off the site because its campaign is', async ({
  page,
  request,
  signInAs,
}, testInfo) => {
  const admin = { authorization: `Bearer ${await signInAs('admin@example.org')}` };
  const [seeded] = (await (await request.get('/api/campaigns?limit=1')).json()) as { organization_id: string }[];
  const image = { Key: '/images/demo/cause-1.png', name: 'cause-1.png' };
  const made = await request.post('/api/campaigns', {
    headers: admin,
    data: {
      title: `E2E campaign taken down ${Date.now()}`,
      description: 'A campaign the charity takes down.',
      goal: 100_000,
      images: [image],
      organization_id: seeded.organization_id,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const campaign = await made.json();

  const token = await signInAs('donor@example.org');
  const title = `E2E appeal with its campaign ${Date.now()}`;
  const started = await request.post('/api/campaigns', {
    headers: { authorization: `Bearer ${token}` },
    data: { title, description: 'Miles for the cause.', goal: 20_000, images: [image], campaign_id: campaign._id },
  });
  expect(started.status(), await started.text()).toBe(201);
  const appeal = await started.json();
  if (appeal.status !== 'approved') {
    const approved = await request.put(`/api/campaigns/${appeal._id}`, {
      headers: admin,
      data: { status: 'approved' },
    });
    expect(approved.status()).toBe(200);
  }

  const down = await request.put(`/api/campaigns/${campaign._id}`, { headers: admin, data: { status: 'draft' } });
  expect(down.status(), await down.text()).toBe(200);
  expect((await request.get(`/appeals/${appeal.short_id}`)).status()).toBe(404);

  await openAs(page, token, '/dashboard/active-appeals');
  const card = page.locator('.dash-ccard').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card.getByText('Campaign taken down')).toBeVisible();
  // No Donate, and no View of a page that answers 404: Edit is there.
  await expect(card.getByRole('link', { name: /^(View|Donate)/ })).toHaveCount(0);
  await expect(card.getByRole('link', { name: /^Edit/ })).toBeVisible();
  await expectNoAxeViolations(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await card.scrollIntoViewIfNeeded();
    // The phone layout's drawer slides shut when the window narrows: the picture waits for it.
    await page.waitForTimeout(400);
    await page.screenshot({ path: testInfo.outputPath(`campaign-down-my-appeals-${width}.png`) });
  }

  // Its editor keeps the campaign, said as such, not the general fund the empty choice would show.
  await card.getByRole('link', { name: /^Edit/ }).click();
  await expect(page.getByRole('combobox', { name: 'Campaign' })).toHaveValue(campaign._id);
  await expect(page.getByRole('combobox', { name: 'Campaign' }).locator('option:checked')).toHaveText(
    'Its campaign (not on the site)',
  );

  // Gone for good, so no other test finds this campaign among the seeded ones.
  const gone = await request.put(`/api/campaigns/${campaign._id}`, { headers: admin, data: { status: 'deleted' } });
  expect(gone.status(), await gone.text()).toBe(200);
});
