import { expect, expectNoAxeViolations, openAs, outbox, signUp, test } from './fixtures';

/**
 * A monthly donor is told when the appeal their gift supports leaves the site (docs/decisions/070):
 * the five-minute run writes the email, My Donations says so beside the gift, and the email's link
 * cancels it without signing in.
 */
test('a monthly donor hears that the appeal they give to was taken off the site, sees it in My Donations, and can stop the gift', async ({
  page,
  request,
  signInAs,
}) => {
  const admin = { authorization: `Bearer ${await signInAs('admin@example.org')}` };
  // An appeal of its own under a seeded campaign, so no other test's page is taken down.
  const [campaign] = (await (await request.get('/api/campaigns?limit=100')).json()) as { _id: string }[];
  const title = `E2E swim ${Date.now()}`;
  const made = await request.post('/api/campaigns', {
    headers: admin,
    data: {
      title,
      description: 'A sponsored swim.',
      goal: 50_000,
      images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png' }],
      campaign_id: campaign._id,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const appeal = await made.json();

  // A new donor gives to it monthly.
  const email = `e2e.item-down.${Date.now()}@example.com`;
  const token = await signUp(request, email);
  const prices = (await (await request.get('/api/stripe/subscriptions')).json()) as { id: string }[];
  const start = await request.post('/api/stripe/client_secret', {
    data: { price: prices[0].id, campaign_id: campaign._id, appeal_id: appeal._id },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(start.ok(), await start.text()).toBe(true);
  const { clientSecret } = (await start.json()) as { clientSecret: string };
  expect((await request.post('/api/stripe/demo/confirm', { data: { clientSecret } })).ok()).toBe(true);

  // The charity deletes the appeal; the five-minute run tells the donor.
  const gone = await request.put(`/api/campaigns/${appeal._id}`, { headers: admin, data: { status: 'deleted' } });
  expect(gone.status(), await gone.text()).toBe(200);
  expect((await request.get('/cdn-cgi/handler/scheduled?cron=*/5+*+*+*+*')).status()).toBe(200);
  let told: { subject: string; text: string } | undefined;
  await expect(async () => {
    told = (await outbox(request, email)).find((m) => m.subject.includes('is no longer on the site'));
    expect(told).toBeDefined();
  }).toPass({ timeout: 10_000 });
  expect(told!.subject).toBe(`“${title}” is no longer on the site: your monthly gift`);
  expect(told!.text).toContain('you need do nothing to keep giving');

  // My Donations says so beside the gift, which still runs.
  await openAs(page, token, '/dashboard/donations/me');
  const card = page.getByTestId('monthly-gift');
  await expect(card).toContainText('Active');
  await expect(card).toContainText(`${title}`);
  await expect(card.getByText('No longer on the site; your gift still goes to the charity.')).toBeVisible();
  await expectNoAxeViolations(page, { include: '#dash-main' });

  // The office's monthly gifts list marks it too.
  await openAs(page, await signInAs('admin@example.org'), '/dashboard/monthly-gifts');
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText(`${title} (off the site)`);
  // So does the gift's own page, where the office may cancel it.
  await row.getByRole('link', { name: /^Open gift/ }).click();
  await expect(page.getByRole('region', { name: 'Monthly gift' })).toContainText(
    'What it supports is no longer on the site. The gift still runs until it is cancelled.',
  );

  // The email's link stops it without signing in, after asking.
  const link = new URL(/Cancel my monthly gift: (\S+)/.exec(told!.text)![1]);
  await page.goto(link.pathname + link.search);
  await page.getByRole('button', { name: 'Yes, cancel my monthly gift' }).click();
  await expect(page.getByRole('heading', { name: 'Your monthly gift is cancelled' })).toBeVisible();
  await openAs(page, token, '/dashboard/donations/me');
  await expect(page.getByTestId('monthly-gift')).toContainText('Cancelled');
  // Cancelled, it no longer says the gift goes on.
  await expect(page.getByText('your gift still goes to the charity')).toHaveCount(0);
});
