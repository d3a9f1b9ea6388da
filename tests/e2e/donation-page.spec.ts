import { axeViolations, expect, signIn, test, useToken } from './fixtures';

/**
 * A donation's page as the office uses it: a paid card gift (demo payments) opened from the
 * donations list tells its story, is refunded in part after a confirmation, shows the refund and
 * what remains, and refuses a second refund over what remains; a hand-recorded gift is editable,
 * a card gift is not. Screenshots at 1280 and 390 px; axe finds nothing.
 */

// Two viewports, axe and full-page screenshots on a shared machine: more than the default 30 s.
test.describe.configure({ timeout: 90_000 });

test('an admin refunds part of a card gift from its page, sees the refund and what remains, and cannot refund more than remains', async ({
  page,
  request,
}, testInfo) => {
  const email = `e2e.refund.${Date.now()}@example.com`;
  const donor = await signIn(request, email);
  const campaign = ((await (await request.get('/api/campaigns?limit=5')).json()) as { _id: string }[])[0];
  const start = await request.post('/api/stripe/client_secret', {
    data: { amount: 5000, campaign_id: campaign._id, email },
    headers: { authorization: `Bearer ${donor.token}` },
  });
  expect(start.ok(), await start.text()).toBe(true);
  const { clientSecret } = (await start.json()) as { clientSecret: string };
  expect((await request.post('/api/stripe/demo/confirm', { data: { clientSecret } })).ok()).toBe(true);

  const admin = await signIn(request, 'admin@example.org');
  await useToken(page, admin.token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/donations');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByRole('searchbox', { name: 'Search' }).fill(email);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  // The date cell: the row opens the gift (the donor cell opens the donor, the campaign cell nothing).
  await row.getByRole('cell').first().click();
  await expect(page).toHaveURL(/\/dashboard\/donations\/edit\//);

  // The story: status, method, source, fee and net, Gift Aid, receipt, and read-only details.
  await expect(page.getByRole('heading', { level: 1, name: /^Gift of £50\.00 from / })).toBeVisible();
  const payment = page.getByRole('region', { name: 'Payment' });
  await expect(payment).toContainText('Card');
  await expect(payment).toContainText('Online');
  await expect(payment.getByText('Fee', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Gift Aid' })).toContainText('Not claimed');
  await expect(page.getByTestId('donation-remaining')).toHaveText('£50.00');
  await expect(page.getByText('No refunds or reversals.')).toBeVisible();
  await expect(page.getByText(/A gift paid online is read-only/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await expect(page.getByLabel('Donor', { exact: true })).toHaveCount(0);

  // Refund £12.50 of it, after the confirmation.
  const refund = page.getByRole('region', { name: 'Refund this gift' });
  await expect(refund.getByLabel('Amount (£)')).toHaveValue('50.00');
  await refund.getByLabel('Amount (£)').fill('12.50');
  await refund.getByLabel('Reason').selectOption('requested_by_customer');
  await refund.getByLabel('Note (optional)').fill('Asked for by phone');
  // From the keyboard: the confirmation takes the focus, on Back, so a second Enter refunds nothing.
  await refund.getByRole('button', { name: 'Refund…' }).press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Confirm the refund' });
  await expect(confirm.getByRole('button', { name: 'Back' })).toBeFocused();
  await expect(confirm).toContainText(/Refund £12\.50 to .+\?/);
  await page.screenshot({ path: testInfo.outputPath('donation-page-confirm-1280.png'), fullPage: true });
  await confirm.getByRole('button', { name: 'Yes, refund £12.50' }).click();

  await expect(page.getByText('Refunded £12.50. £37.50 remains.')).toBeVisible();
  await expect(page.getByTestId('donation-remaining')).toHaveText('£37.50');
  const refunds = page.getByRole('table', { name: 'Refunds and reversals' });
  await expect(refunds.getByRole('row').filter({ hasText: '£12.50' })).toContainText('Requested by the donor');
  await expect(refund.getByLabel('Amount (£)')).toHaveValue('37.50');
  // That refund's note went with it; the next refund starts without it, the focus back on Refund.
  await expect(refund.getByLabel('Note (optional)')).toHaveValue('');
  await expect(refund.getByRole('button', { name: 'Refund…' })).toBeFocused();
  const history = page.getByRole('table', { name: 'History of this gift' });
  await expect(history).toContainText('Refunded');
  await expect(history).toContainText('Asked for by phone');
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('donation-page-1280.png'), fullPage: true });

  // More than remains: refused before the confirmation, in pounds, and nothing changes.
  await refund.getByLabel('Amount (£)').fill('40');
  await refund.getByRole('button', { name: 'Refund…' }).click();
  await expect(refund.getByRole('alert')).toHaveText('Amount: at most £37.50 remains on this gift');
  await expect(page.getByRole('alertdialog', { name: 'Confirm the refund' })).toHaveCount(0);
  await expect(page.getByTestId('donation-remaining')).toHaveText('£37.50');
  await expect(refunds.getByRole('row')).toHaveCount(2);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('donation-page-390.png'), fullPage: true });

  // Back in the donations list, the gift says what went back beside what was given.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('link', { name: 'All donations' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(email);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText(/£50\.00\s*£12\.50 back/);
});

test('a hand-recorded gift shows editable details and the Reverse action', async ({ page, request }, testInfo) => {
  const { token } = await signIn(request, 'admin@example.org');
  const auth = { authorization: `Bearer ${token}` };
  const campaigns = (await (await request.get('/api/campaigns?limit=50', { headers: auth })).json()) as {
    _id: string;
  }[];
  let campaign = campaigns[0];
  let appeals: { _id: string }[] = [];
  for (const candidate of campaigns) {
    appeals = (await (await request.get(`/api/campaigns/${candidate._id}/appeals`, { headers: auth })).json()) as {
      _id: string;
    }[];
    campaign = candidate;
    if (appeals.length) break;
  }
  expect(appeals.length, 'the seed has a campaign with appeals').toBeGreaterThan(0);
  const donor = (await (
    await request.post('/api/users', {
      headers: auth,
      data: { email: `cheque-${Date.now()}@example.org`, first_name: 'Chris', last_name: 'Cheque', type: 'donor' },
    })
  ).json()) as { _id: string };
  const created = await request.post('/api/donations', {
    headers: auth,
    data: {
      donor: donor._id,
      amount: 2500,
      date: '2026-01-10',
      campaign: campaign._id,
      appeal: appeals[0]._id,
      method: 'cheque',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const gift = (await created.json()) as { _id: string };

  await useToken(page, token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard/donations/edit/${gift._id}`);
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.getByRole('heading', { level: 1, name: 'Gift of £25.00 from Chris Cheque' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Payment' })).toContainText('Cheque');
  await expect(page.getByRole('region', { name: 'Payment' })).toContainText('Entered by hand');
  const edit = page.getByRole('region', { name: 'Edit the gift’s details' });
  await expect(edit.getByLabel('Amount (£)')).toHaveValue('25.00');
  await expect(edit.getByRole('button', { name: 'Save changes' })).toBeVisible();
  const reverse = page.getByRole('region', { name: 'Reverse this gift' });
  await expect(reverse.getByLabel('Reason').locator('option')).toHaveText([
    'Choose a reason',
    'Bounced cheque',
    'Entered in error',
    'Returned to donor',
  ]);
  await expect(page.getByRole('button', { name: 'Verify Gift Aid' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('donation-page-offline-1280.png'), fullPage: true });

  // The cheque bounces: reversed in whole, the gift says Reversed (not Refunded), and nothing remains to reverse.
  await expect(reverse.getByText('Kept with the reversal in the audit log')).toBeVisible();
  // A cheque's likely reason comes first; the confirmation takes money off the gift, it sends none.
  await expect(reverse.getByLabel('Reason')).toHaveValue('bounced_cheque');
  await reverse.getByRole('button', { name: 'Reverse…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Confirm the reverse' });
  await expect(confirm).toContainText('Reverse £25.00 of Chris Cheque’s gift?');
  await confirm.getByRole('button', { name: 'Yes, reverse £25.00' }).click();
  await expect(page.getByText('Reversed £25.00. £0.00 remains.')).toBeVisible();
  await expect(page.getByTestId('donation-summary')).toContainText('Reversed');
  await expect(page.getByTestId('donation-summary')).not.toContainText('refunded');
  await expect(page.getByText('All of this gift has gone back: nothing remains to reverse.')).toBeVisible();
});
