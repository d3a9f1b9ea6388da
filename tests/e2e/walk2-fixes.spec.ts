import { expect, openAs, test } from './fixtures';

/** What a donor and a fundraiser tripped on when walking their own dashboard screens on a phone. */

test('My Donations says which gifts carry Gift Aid and what it adds', async ({ page, request, signInAs }) => {
  const token = await signInAs('donor@example.org');
  const res = await request.get('/api/donations?type=me', { headers: { authorization: `Bearer ${token}` } });
  const gifts = (await res.json()) as { amount: number; refunded_amount: number; gift_aid: boolean }[];
  const aided = gifts.find((g) => g.gift_aid && g.amount > g.refunded_amount);
  expect(aided, 'the seeded donor has a gift with Gift Aid').toBeDefined();
  await page.setViewportSize({ width: 390, height: 844 });
  await openAs(page, token, '/dashboard/donations/me');
  const table = page.getByRole('table', { name: 'My Donations' });
  await expect(table.getByRole('columnheader', { name: 'Gift Aid' })).toBeVisible();
  const worth = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(
    Math.floor((aided!.amount - aided!.refunded_amount) / 4) / 100,
  );
  await expect(table.getByRole('cell', { name: `Yes, +${worth}` }).first()).toBeVisible();
  await expect(table.getByRole('cell', { name: 'No', exact: true }).first()).toBeVisible();
  // On a desktop every column fits beside the menu, even with a title that is one long word (other
  // tests give this donor such gifts too): no sideways scroll to reach the receipt button.
  const admin = { authorization: `Bearer ${await signInAs('admin@example.org')}` };
  const [org] = (await (await request.get('/api/organizations?limit=1', { headers: admin })).json()) as {
    _id: string;
  }[];
  const campaign = await request.post('/api/campaigns', {
    headers: admin,
    data: {
      title: `Longwordcampaign${Date.now()}${'x'.repeat(24)}`,
      description: 'A title with no spaces.',
      goal: 10_000,
      organization_id: org._id,
      campaign_id: null,
      images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png' }],
    },
  });
  expect(campaign.status(), await campaign.text()).toBe(201);
  const started = await request.post('/api/stripe/client_secret', {
    headers: { authorization: `Bearer ${token}` },
    data: { amount: 500, campaign_id: ((await campaign.json()) as { _id: string })._id },
  });
  expect(started.status(), await started.text()).toBe(200);
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  expect((await request.post('/api/stripe/demo/confirm', { data: { clientSecret } })).ok()).toBe(true);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.reload();
  await expect(table.getByText(/^Longwordcampaign/)).toBeVisible();
  await expect(table.getByRole('button', { name: 'Email receipt again' }).first()).toBeVisible();
  const fits = await table.evaluate((t) => t.getBoundingClientRect().width <= t.parentElement!.clientWidth + 1);
  expect(fits).toBe(true);
});

test('My Info opened from a link: saving goes to the overview, not the admins-only donors list', async ({
  page,
  signInAs,
}) => {
  await openAs(page, await signInAs('donor@example.org'), '/dashboard/donors/edit/me');
  await expect(page).toHaveTitle('My Info | UK NFP Dashboard');
  const phone = page.getByLabel('Phone');
  // The profile's own field (the first): a Gift Aid declaration another test made adds a second one below.
  await expect(page.getByLabel('First name').first()).not.toHaveValue('');
  // The same number pasted over itself without spaces keeps all its digits.
  await phone.fill('07911 123456');
  await phone.fill('07911123456');
  await expect(phone).toHaveValue('07911 123456');
  // Backspace just after the space still takes a digit away.
  await phone.press('End');
  for (let i = 0; i < 6; i++) await phone.press('ArrowLeft');
  await phone.press('Backspace');
  await expect(phone).toHaveValue('07911 12345');
  await phone.fill('07911 123456');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
});

test('the Rewards mock-up keeps its profile readable at 390 px', async ({ page, signInAs }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAs(page, await signInAs('donor@example.org'), '/dashboard/reward');
  const details = page.locator('.dash-reward-card .dash-stack');
  await expect(details).toBeVisible();
  // Beside the avatar with Get Points below, not a column a few letters wide between them.
  const box = (await details.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(192);
  const button = (await page.locator('.dash-reward-card').getByRole('link', { name: 'Get Points' }).boundingBox())!;
  expect(button.y).toBeGreaterThan(box.y + box.height - 1);
  await page.locator('.dash-reward-card').screenshot({ path: 'test-results/walk2-reward-card-390.png' });
});

test('a donor correcting their Gift Aid address is not told they confirm it by donating', async ({
  page,
  signInAs,
}) => {
  await openAs(page, await signInAs('donor@example.org'), '/dashboard/donors/edit/me');
  // The seeded donor's declaration is in force: its address form is shown.
  await expect(page.getByRole('button', { name: 'Update my Gift Aid address' })).toBeVisible();
  await expect(page.getByText(/I want to Gift Aid my donation/).first()).toBeVisible();
  await expect(page.getByText('By donating with Gift Aid ticked')).toHaveCount(0);
});

test('a record that is not there says so, offers the way back, and shows nothing of a record', async ({
  page,
  signInAs,
}) => {
  const admin = await signInAs('admin@example.org');
  await openAs(page, admin, '/dashboard/donors/edit/nope');
  await expect(page.getByRole('heading', { name: 'Donor Not Found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Donors' })).toHaveAttribute('href', '/dashboard/donors');
  // No panels of a donor who does not exist (their Gift Aid declarations, their record).
  await expect(page.getByRole('button', { name: /Add declaration/ })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: /Gift Aid/ })).toHaveCount(0);
  // The appeal editor names what was asked for, not "Campaign".
  await openAs(page, admin, '/dashboard/active-appeals-edit/nope');
  await expect(page.getByRole('heading', { name: 'Appeal Not Found' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(/^Appeal not found/);
  await expect(page.getByRole('link', { name: 'Back to the list' })).toHaveAttribute(
    'href',
    '/dashboard/active-appeals',
  );
});

test('the donations list says which rows are checkouts not paid, so none reads as a gift', async ({
  page,
  request,
  signInAs,
}) => {
  const admin = await signInAs('admin@example.org');
  const appeals = (await (await request.get('/api/appeals?limit=1')).json()) as { _id: string; campaign_id: string }[];
  // A visitor starts a £12.34 gift and never pays it.
  const started = await request.post('/api/stripe/client_secret', {
    data: {
      email: `unpaid-${Date.now()}@example.org`,
      amount: 1234,
      campaign_id: appeals[0].campaign_id,
      appeal_id: appeals[0]._id,
    },
  });
  expect(started.status()).toBe(200);
  await openAs(page, admin, '/dashboard/donations');
  const row = page.getByRole('row').filter({ hasText: '£12.34' }).first();
  await expect(row.getByText('Not paid')).toBeVisible();
});

test('a finance officer’s overview shows the money: Gift Aid to claim and how giving is going', async ({
  page,
  signInAs,
}) => {
  const finance = await signInAs('finance@example.org');
  await openAs(page, finance, '/dashboard/overview');
  await expect(page.getByRole('heading', { name: 'How giving is going' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Gift Aid/ }).first()).toBeVisible();
});
