import { expect, expectNoAxeViolations, firstApproved, openAs, sideways, signUp, test, tokenFor } from './fixtures';

/**
 * Decision 075: a fundraiser sees everyone who gave to their appeal, to thank them, as the appeal's
 * page shows its donors: a name or Anonymous, the amount unless hidden, the message.
 */
test('a fundraiser opens their appeal’s supporters from My Appeals and sees each gift as its page shows it', async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const token = await signUp(request, `e2e.fundraiser.${stamp}@example.com`, {
    first_name: 'Fay',
    last_name: 'Runner',
  });
  const campaign = await firstApproved(request, '/api/campaigns');
  const title = `Fay's swim ${stamp}`;
  const created = await request.post('/api/campaigns', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      kind: 'appeal',
      campaign_id: campaign._id,
      title,
      description: 'A mile in the lake.',
      story: 'Fay swims.',
      goal: 50_000,
      images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png', size: 1234, type: 'image/png' }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const appeal = (await created.json()) as { _id: string };
  const give = async (
    email: string,
    name: { first_name: string; last_name: string },
    amount: number,
    extra: Record<string, unknown>,
  ) => {
    const start = await request.post('/api/stripe/client_secret', {
      data: { email, ...name, amount, campaign_id: campaign._id, appeal_id: appeal._id, ...extra },
    });
    expect(start.ok(), await start.text()).toBe(true);
    const { clientSecret } = (await start.json()) as { clientSecret: string };
    expect((await request.post('/api/stripe/demo/confirm', { data: { clientSecret } })).ok()).toBe(true);
  };
  await give(`e2e.amira.${stamp}@example.com`, { first_name: 'Amira', last_name: 'Khan' }, 2_500, {
    message: 'Go Fay, you’ve got this!',
  });
  await give(`e2e.ben.${stamp}@example.com`, { first_name: 'Ben', last_name: 'Jones' }, 7_000, {
    anonymous: true,
    hide_amount: true,
  });

  await openAs(page, token, '/dashboard/active-appeals');
  await page.getByRole('link', { name: `Supporters of ${title}` }).click();
  await expect(page).toHaveURL(`/dashboard/supporters/${appeal._id}`);
  await expect(page).toHaveTitle(/^Supporters \|/);
  // The menu keeps My Appeals marked: the screen is one of its appeals'.
  await expect(
    page.getByRole('navigation', { name: 'Dashboard menu' }).getByRole('link', { name: 'My Appeals' }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Supporters' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'My Appeals' }).last()).toHaveAttribute(
    'href',
    '/dashboard/active-appeals',
  );
  await expect(page.getByText(`Everyone who has given to ${title}`)).toBeVisible();
  await expect(page.getByText('2 supporters')).toBeVisible();
  const rows = page.getByRole('table', { name: 'Supporters' }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  // Newest first: Ben gave anonymously and hid the amount; Amira's name, amount and message show.
  await expect(rows.nth(0)).toContainText('Anonymous');
  await expect(rows.nth(0)).toContainText('Hidden');
  await expect(rows.nth(0)).not.toContainText('Ben');
  await expect(rows.nth(1)).toContainText('Amira K.');
  await expect(rows.nth(1)).toContainText('£25');
  await expect(rows.nth(1)).toContainText('Go Fay, you’ve got this!');
  await expect(page.getByRole('table', { name: 'Supporters' })).not.toContainText('@');
  await expectNoAxeViolations(page);

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await sideways(page)).toMatchObject({ overflow: 0, past: [] });

  // Past 50, the list pages on: the 51st supporter is on the second page. The office records 49
  // cash gifts (checkout's own limit on attempts would refuse that many card gifts from one place).
  const admin = { authorization: `Bearer ${await tokenFor(request, 'admin@example.org')}` };
  // A donor of this test's own: the seeded donors' giving is what other specs read.
  const cashEmail = `e2e.cash.${stamp}@example.com`;
  await signUp(request, cashEmail, { first_name: 'Cal', last_name: 'Cash' });
  const donors = (await (
    await request.get(`/api/users?search=${encodeURIComponent(cashEmail)}`, { headers: admin })
  ).json()) as { _id: string }[];
  expect(donors).toHaveLength(1);
  for (let n = 0; n < 49; n++) {
    const cash = await request.post('/api/donations', {
      headers: admin,
      data: {
        donor: donors[0]._id,
        amount: 1_000 + n,
        date: new Date().toISOString().slice(0, 10),
        campaign: campaign._id,
        appeal: appeal._id,
      },
    });
    expect(cash.status(), await cash.text()).toBe(201);
  }
  await page.reload();
  await expect(page.getByText('51 supporters')).toBeVisible();
  await expect(page.getByText('Supporters 1–50 of 51')).toBeVisible();
  await page.getByRole('button', { name: 'Next 50' }).click();
  await expect(page.getByText('Supporters 51–51 of 51')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await page.getByRole('button', { name: 'Previous 50' }).click();
  await expect(page.getByText('Supporters 1–50 of 51')).toBeVisible();
});

test('another donor’s appeal’s supporters are not found', async ({ page, request }) => {
  const stranger = await signUp(request, `e2e.stranger.${Date.now()}@example.com`);
  const appeal = await firstApproved(request, '/api/appeals');
  await openAs(page, stranger, `/dashboard/supporters/${appeal._id}`);
  await expect(page.getByRole('heading', { name: 'Appeal Not Found' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Supporters' })).toHaveCount(0);
});
