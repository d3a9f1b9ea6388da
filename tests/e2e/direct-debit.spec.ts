import type { APIRequestContext, Page } from '@playwright/test';
import { firstCollectionDate, formatLongUkDate } from '../../domain';
import { expect, signUp as newDonor, outbox, test, useToken } from './fixtures';

/**
 * A monthly gift by Bacs Direct Debit in demo mode, through the donation box: the donor sees what the
 * scheme requires, the gift is `processing` (outside the totals) until the next housekeeping run's
 * Direct Debit step settles it, and the receipt then carries the mandate reference and the Guarantee.
 */

type Appeal = { _id: string; short_id: string; campaign_id: string; summary: { total_donations: number } };

/** A new donor account: its own address, so no shared rate limit. */
const signUp = (request: APIRequestContext, email: string) =>
  newDonor(request, email, { first_name: 'Dora', last_name: 'Debit' });

const totalOf = async (request: APIRequestContext, path: string) =>
  (
    (await (await request.get(path, { headers: { 'cache-control': 'no-cache' } })).json()) as {
      summary: { total_donations: number };
    }
  ).summary.total_donations;

async function openBox(page: Page, appeal: Appeal) {
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  return page.locator('.donation-box');
}

test('a donor gives monthly by Direct Debit in demo mode: processing, outside the totals, until housekeeping settles it', async ({
  page,
  request,
}) => {
  // One donor's whole journey (sign-up, the box twice, My Donations twice, settling): longer than one page's test.
  test.setTimeout(90_000);
  const email = `e2e.dd.${Date.now()}@example.com`;
  const token = await signUp(request, email);
  await useToken(page, token);
  const appeal = ((await (await request.get('/api/appeals?limit=20')).json()) as Appeal[]).at(-1)!;
  const appealPath = `/api/appeals/${appeal._id}`;
  const campaignPath = `/api/campaigns/${appeal.campaign_id}`;
  const [appealBefore, campaignBefore] = [await totalOf(request, appealPath), await totalOf(request, campaignPath)];
  const prices = (await (await request.get('/api/stripe/subscriptions')).json()) as {
    id: string;
    unit_amount: number;
  }[];
  const price = prices[0];
  const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(price.unit_amount / 100);

  const box = await openBox(page, appeal);
  await box.getByText('Donate Every Month').click();
  const select = box.getByLabel('Monthly amount');
  await expect(select.locator('option')).not.toHaveCount(1);
  await select.selectOption(price.id);
  await box.getByRole('radio', { name: 'Direct Debit' }).check();

  // What the donor must see before setting it up: the name on the statement, the timing, the Guarantee.
  const notice = box.locator('.direct-debit-notice');
  await expect(notice).toContainText('Your bank statement will show');
  const statementName = (await notice.locator('strong').first().textContent())?.trim() ?? '';
  expect(statementName).toMatch(/^[A-Z0-9 &.-]{2,18}$/);
  await expect(notice).toContainText('about 3 working days');
  // The date by the one working-day rule (weekends and England and Wales bank holidays skipped).
  const firstPayment = `on or about ${formatLongUkDate(firstCollectionDate(new Date()))}`;
  await expect(notice).toContainText(firstPayment);
  await notice.getByText('The Direct Debit Guarantee').click();
  await expect(notice).toContainText(
    'This Guarantee is offered by all banks and building societies that accept instructions to pay Direct Debits.',
  );
  await expect(notice).toContainText(
    'You can cancel a Direct Debit at any time by simply contacting your bank or building society.',
  );
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/direct-debit-box-desktop.png' });

  // The box on a phone: the method choice and the notice fit the width.
  await page.setViewportSize({ width: 390, height: 844 });
  await box.scrollIntoViewIfNeeded();
  await expect(box.getByRole('radio', { name: 'Direct Debit' })).toBeChecked();
  await expect(box.getByRole('radio', { name: 'Card or wallet' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/direct-debit-box-phone.png' });

  await box.getByRole('button', { name: /^Donate/ }).click();
  // The clearly labelled demo step, filled with Stripe's test bank details.
  await expect(box.getByText('Demo mode: no bank account is debited.')).toBeVisible();
  await expect(box.getByLabel('Sort code')).toHaveValue('10-88-00');
  await expect(box.getByLabel('Account number')).toHaveValue('00012345');
  await expect(box).toContainText("Stripe's test sort code 108800");
  await expect(box.locator('.direct-debit-notice')).toContainText(statementName);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/direct-debit-demo-step-phone.png' });
  // The account holder Stripe's mandate needs: the donor's name is filled in, the address is asked for.
  await expect(box.getByLabel("Account holder's name")).toHaveValue('Dora Debit');
  const setUp = box.getByRole('button', { name: `Set up Direct Debit for ${pounds} every month` });
  await setUp.click();
  const line1 = box.getByLabel('Address line 1');
  await expect(line1).toBeFocused();
  await expect(line1).toHaveAttribute('aria-invalid', 'true');
  await expect(line1).toHaveAccessibleDescription('Enter the first line of the address');
  await expect(box.getByLabel('Town or city')).toHaveAccessibleDescription('Enter the town or city');
  if (process.env.SCREENSHOTS) {
    await box.screenshot({ path: 'test-results/direct-debit-holder-errors-phone.png' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await box.screenshot({ path: 'test-results/direct-debit-holder-errors-desktop.png' });
    await page.setViewportSize({ width: 390, height: 844 });
  }
  await line1.fill('1 High Street');
  await box.getByLabel('Town or city').fill('Leeds');
  await box.getByLabel('Postcode').fill('12345');
  await setUp.click();
  await expect(box.getByLabel('Postcode')).toBeFocused();
  await expect(box.getByLabel('Postcode')).toHaveAccessibleDescription('Enter a UK postcode, like SW1A 1AA');
  await expect(line1).toHaveAttribute('aria-invalid', 'false');
  await box.getByLabel('Postcode').fill('ls1 4ap');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/direct-debit-holder-phone.png' });
  await box.getByLabel(/I am the account holder/).check();
  await setUp.click();

  // The thank-you says it is processing, and when the bank takes it.
  await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible();
  await expect(box.getByRole('status')).toContainText('is set up and processing');
  await expect(box.getByRole('status')).toContainText('about 3 working days');
  await expect(box.getByRole('status')).toContainText(firstPayment);
  // Not in the totals, no receipt yet.
  expect(await totalOf(request, appealPath)).toBe(appealBefore);
  expect(await totalOf(request, campaignPath)).toBe(campaignBefore);
  expect((await outbox(request, email)).filter((m) => m.subject.startsWith('Your receipt'))).toHaveLength(0);

  // My Donations shows it processing, paid by Direct Debit.
  await page.goto('/dashboard/donations/me');
  const table = page.getByRole('table', { name: 'My Donations' });
  await expect(table).toContainText('Direct Debit ending 2345');
  await expect(table).toContainText(/processing/i);
  if (process.env.SCREENSHOTS)
    await page.screenshot({ path: 'test-results/direct-debit-my-donations-phone.png', fullPage: true });

  // The next housekeeping run's Direct Debit step settles it (Stripe's test account 00012345 succeeds).
  const settle = await request.post('/api/dev/direct-debits/settle');
  expect(settle.ok()).toBe(true);
  expect(((await settle.json()) as { settled: number }).settled).toBeGreaterThanOrEqual(1);
  await expect.poll(() => totalOf(request, appealPath)).toBe(appealBefore + price.unit_amount);
  expect(await totalOf(request, campaignPath)).toBe(campaignBefore + price.unit_amount);

  // One receipt, with the mandate reference, the account's last digits and the Guarantee.
  const receipts = (await outbox(request, email)).filter((m) => m.subject.startsWith('Your receipt'));
  expect(receipts).toHaveLength(1);
  expect(receipts[0].text).toMatch(/Mandate reference:\s+DEMO[0-9A-F]{10}\b/);
  expect(receipts[0].text).toContain('account ending 2345');
  expect(receipts[0].text).toContain('This Guarantee is offered by all banks and building societies');

  // My Donations: settled, and the monthly gift is running on the Direct Debit.
  await page.reload();
  await expect(table).toContainText('Direct Debit ending 2345');
  await expect(table).not.toContainText(/processing/i);
  const gift = page.getByTestId('monthly-gift');
  await expect(gift).toContainText('Active');
  await expect(gift).toContainText('Direct Debit ending 2345');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
