import type { APIRequestContext } from '@playwright/test';
import {
  expect,
  expectNoAxeViolations,
  type Mail,
  openAs,
  outbox,
  signUp,
  startMonthlyGift,
  test,
  tokenFor,
} from './fixtures';

/** After the gift. Receipts, the signed cancel link, My Donations and the annual statement. */

/** Seeded accounts use the run's one sign-in (code emails are rate limited per address); new donors sign up. */
const signIn = (request: APIRequestContext, email: string) =>
  email.endsWith('@example.org') ? tokenFor(request, email) : signUp(request, email);

test('a donor gives monthly in demo mode, gets the receipt, cancels from its link and sees it cancelled', async ({
  page,
  request,
}) => {
  const appeal = (
    (await (await request.get('/api/appeals?limit=20')).json()) as { short_id: string; title: string }[]
  )[6];
  const email = `e2e.monthly.${Date.now()}@example.com`;
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  await box.getByRole('textbox', { name: /^Email/ }).fill(email);
  await box.getByText('Donate Every Month').click();
  const select = box.getByLabel('Monthly amount');
  await expect(select.locator('option')).not.toHaveCount(1);
  const prices = (await (await request.get('/api/stripe/subscriptions')).json()) as {
    id: string;
    unit_amount: number;
  }[];
  await select.selectOption(prices[0].id);
  // The email-updates box is its own, unticked, and links to the fees page.
  const consent = box.getByLabel(/Keep me updated by email/);
  await expect(consent).not.toBeChecked();
  await consent.check();
  await expect(box.getByRole('link', { name: /what a £10 gift costs/ })).toHaveAttribute('href', '/fees');
  await box.getByRole('button', { name: /^Donate/ }).click();
  await box.getByRole('button', { name: /^Pay / }).click();
  await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible();

  // Exactly one receipt, with the charity, the next date and a cancel link.
  let receipt: Mail | undefined;
  await expect(async () => {
    receipt = (await outbox(request, email)).find((m) => m.subject.startsWith('Your receipt'));
    expect(receipt).toBeDefined();
  }).toPass({ timeout: 5_000 });
  expect((await outbox(request, email)).filter((m) => m.subject.startsWith('Your receipt'))).toHaveLength(1);
  expect(receipt!.text).toContain('Registered charity number');
  expect(receipt!.text).toContain(appeal.title);
  expect(receipt!.text).toMatch(/next monthly payment of £[\d.]+ is due on/);
  const link = new URL(/(https?:\/\/\S+\/monthly\/cancel\?token=\S+)/.exec(receipt!.text)![1]);

  // The link works without signing in and asks first; only the button cancels.
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'Cancel your monthly gift?' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Cancel your monthly gift?' })).toBeVisible();
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/cancel-confirm.png', fullPage: true });
  await page.getByRole('button', { name: 'Yes, cancel my monthly gift' }).click();
  await expect(page.getByRole('heading', { name: 'Your monthly gift is cancelled' })).toBeVisible();
  // Used once: opening it again says so plainly.
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'This link has already been used' })).toBeVisible();
  // A tampered link answers a clear page, not an error dump.
  await page.goto(
    `/monthly/cancel?token=${encodeURIComponent(link.searchParams.get('token')!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))}`,
  );
  await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();

  // My Donations shows the gift cancelled.
  const token = await signIn(request, email);
  await openAs(page, token, '/dashboard/donations/me');
  const card = page.getByTestId('monthly-gift');
  await expect(card).toContainText('Cancelled');
  await expect(card.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  // The consent from the donation box is in My Info, with the way to withdraw it.
  await page.goto('/dashboard/donors/edit/me');
  await expect(page.getByTestId('consent-status')).toContainText('when you donated');
  await page.getByRole('button', { name: 'Stop email updates' }).click();
  await expect(page.getByTestId('consent-status')).toContainText('You stopped email updates');
});

test('a donor changes, pauses and resumes a monthly gift in My Donations', async ({ page, request }) => {
  const email = `e2e.manage.${Date.now()}@example.com`;
  const token = await signIn(request, email);
  const prices = await startMonthlyGift(request, token);

  await openAs(page, token, '/dashboard/donations/me');
  const card = page.getByTestId('monthly-gift');
  await expect(card).toContainText('Active');
  // From the keyboard: each step takes the focus (its field, or the safe choice), and Back gives it back.
  await card.getByRole('button', { name: 'Cancel', exact: true }).press('Enter');
  await expect(card.getByRole('button', { name: 'Keep giving' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
  await card.getByRole('button', { name: 'Change amount' }).click();
  await expect(card.getByLabel('New monthly amount')).toBeFocused();
  await card.getByRole('button', { name: 'Back' }).click();
  await expect(card.getByRole('button', { name: 'Change amount' })).toBeFocused();
  await card.getByRole('button', { name: 'Change amount' }).click();
  await card.getByLabel('New monthly amount').selectOption(prices[1].id);
  await card.getByRole('button', { name: 'Save amount' }).click();
  await expect(card).toContainText(
    new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(prices[1].unit_amount / 100),
  );
  // The confirmation outlives the list's reload that brings the new amount.
  await expect(card.getByRole('status')).toContainText('Your new amount starts with your next payment');
  await card.getByRole('button', { name: /Pause for 1-3 months/ }).click();
  await card.getByLabel('Pause for').selectOption('2');
  await card.getByRole('button', { name: 'Pause payments' }).click();
  // The card names the payments the pause skips and the first one taken after it.
  await expect(card).toContainText('Skipped');
  await expect(card.getByRole('status')).toContainText(
    /Your gift is paused\. The payments due on .+ will not be taken\./,
  );
  await expect(card.getByRole('status')).toContainText('the next payment is on');
  await expect(card.getByRole('button', { name: 'Resume now' })).toBeVisible();
  if (process.env.SCREENSHOTS)
    await page.screenshot({ path: 'test-results/my-donations-monthly-paused-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('monthly-gift')).toContainText('Skipped');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SCREENSHOTS)
    await page.screenshot({ path: 'test-results/my-donations-monthly-phone.png', fullPage: true });
  // While paused there is no second pause to choose, only Resume now, which ends the pause at once.
  const paused = page.getByTestId('monthly-gift');
  await expect(paused.getByRole('button', { name: /Pause for/ })).toHaveCount(0);
  await paused.getByRole('button', { name: 'Resume now' }).click();
  await paused.getByRole('button', { name: 'Resume payments' }).click();
  await expect(paused.getByRole('status')).toContainText('Your monthly gift is running again');
  await expect(paused).toContainText('Active');
  await expect(paused).toContainText('Next payment');
  if (process.env.SCREENSHOTS)
    await page.screenshot({ path: 'test-results/my-donations-monthly-resumed-phone.png', fullPage: true });
});

test('a donor, then the charity’s admin, email a gift’s receipt again (once per 10 minutes)', async ({
  page,
  request,
}) => {
  const email = `e2e.receipt.${Date.now()}@example.com`;
  const token = await signIn(request, email);
  await startMonthlyGift(request, token);
  const receipts = async () => (await outbox(request, email)).filter((m) => m.subject.startsWith('Your receipt'));
  expect(await receipts()).toHaveLength(1);

  await openAs(page, token, '/dashboard/donations/me');
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Email receipt again' }) });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Email receipt again' }).click();
  await expect(row.getByRole('status')).toHaveText(`Receipt sent to ${email}.`);
  await expect.poll(receipts).toHaveLength(2);

  // The gift's page in the back office has the same button; a copy minutes ago is refused, saying why.
  const [gift] = (await (
    await request.get('/api/donations?type=me', { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { _id: string }[];
  await openAs(page, await signIn(request, 'admin@example.org'), `/dashboard/donations/edit/${gift._id}`);
  await page.getByRole('button', { name: 'Email receipt again' }).click();
  await expect(page.getByRole('alert')).toContainText('This receipt was emailed a few minutes ago');
  if (process.env.SCREENSHOTS) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Email receipt again' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/donation-receipt-again-phone.png' });
  }
  expect(await receipts()).toHaveLength(2);
});

test('the annual statement prints on A4 with Gift Aid marked', async ({ page, request }) => {
  const token = await signIn(request, 'donor@example.org');
  await openAs(page, token, '/statement');
  await expect(page.getByRole('heading', { name: 'Annual giving statement' })).toBeVisible();
  const years = await page
    .getByLabel('Tax year')
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  // Pick the first tax year with gifts.
  for (const y of years) {
    await page.getByLabel('Tax year').selectOption(y);
    await expect(page.locator('.statement-sheet')).toBeVisible();
    if ((await page.locator('.statement-table tbody tr').count()) > 0) break;
  }
  await expect(page.locator('.statement-table tbody tr').first()).toBeVisible();
  await expect(page.locator('.statement-table thead')).toContainText('Gift Aid');

  // On a phone each gift is a card: the headers are hidden, so Gift Aid and the reference say what they are.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('.statement-table thead')).toBeHidden();
  const labels = await page
    .locator('.statement-table tbody tr')
    .first()
    .locator('td[data-label]')
    .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
  expect(labels).toEqual(['"Gift Aid: "', '"Reference: "']);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // A4 at 96 dpi, printed: the tools disappear and the sheet fits the page width.
  await page.setViewportSize({ width: 794, height: 1123 });
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.statement-tools')).toBeHidden();
  const fits = await page.evaluate(() => {
    const sheet = document.querySelector('.statement-sheet')!.getBoundingClientRect();
    const table = document.querySelector('.statement-table')!.getBoundingClientRect();
    return { sheet: sheet.width, table: table.width, page: document.documentElement.scrollWidth };
  });
  expect(fits.table).toBeLessThanOrEqual(fits.sheet + 1);
  expect(fits.page).toBeLessThanOrEqual(794);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/statement-a4-print.png', fullPage: true });
  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(5_000);
});

test('the fees page names each receiving charity and the footer names the operator', async ({ page }) => {
  await page.goto('/fees');
  await expect(page.getByRole('heading', { name: /What your gift costs/ })).toBeVisible();
  await expect(page.locator('.fee-table').first()).toContainText('35p');
  await expect(page.locator('.fee-table').first()).toContainText('3.5%');
  await expect(page.locator('.fee-table').first()).toContainText('nil');
  // The receiving charities are named with their registration; the footer says who runs the site.
  await expect(page.locator('main')).toContainText(/Registered charity number \d+/);
  await expect(page.locator('.site-footer')).toContainText('runs this website');
});

test('an admin downloads who agreed to email updates from the donors list', async ({ page, request }) => {
  const token = await signIn(request, 'admin@example.org');
  await openAs(page, token, '/dashboard/donors');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export email consents' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('marketing-consents.csv');
  const csv = await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe(
    '"email","first_name","last_name","consented_on","consented_at_utc","source","wording"',
  );
  await expect(page.getByRole('columnheader', { name: /Account deletion/ })).toBeVisible();
});

test('deleting an account from the keyboard: each step takes the focus, and keeping it gives it back', async ({
  page,
  request,
}) => {
  const token = await signIn(request, `e2e.erase.${Date.now()}@example.com`);
  await openAs(page, token, '/dashboard/donors/edit/me');
  const panel = page.getByRole('region', { name: 'Delete my account' });
  const open = panel.getByRole('button', { name: 'Delete my account…' });
  await open.press('Enter');
  await expect(panel.getByRole('button', { name: 'Keep my account' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(open).toBeFocused();
  await open.press('Enter');
  await panel.getByRole('button', { name: 'Email me a code to confirm' }).click();
  await expect(panel.getByLabel('Code from the email')).toBeFocused();
});

test('the statement page names itself and has its main landmark, also signed out', async ({ page }) => {
  await page.goto('/statement');
  await expect(page.getByRole('alert')).toContainText('Sign in to see your statement.');
  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1, name: 'Annual giving statement' })).toHaveCount(1);
  await expectNoAxeViolations(page);
});
