import type { Page } from '@playwright/test';
import { codeFor, expect, firstApproved, type MonthlyPrice, outbox, signIn, test, useToken } from './fixtures';

/**
 * Two journeys walked as people make them: a keyboard-only donor (no mouse) who gives £10 with Gift
 * Aid and then signs in to find the gift, and a donor who sets up a Direct Debit on a phone.
 */

/** What has the keyboard focus: tag, accessible name and whether a focus ring is drawn. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', name: '', ring: false, invalid: null, id: '' };
    const style = getComputedStyle(el);
    const label = (el as HTMLInputElement).labels?.[0]?.textContent ?? '';
    return {
      tag: el.tagName.toLowerCase(),
      name: (el.getAttribute('aria-label') || label || el.textContent || '').replace(/\s+/g, ' ').trim(),
      ring: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
      invalid: el.getAttribute('aria-invalid'),
      id: el.id,
    };
  });

/** Presses Tab until the focused element's name matches (at most `limit` presses). */
async function tabTo(page: Page, name: RegExp, limit = 40) {
  const passed: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (name.test(now.name)) return now;
    passed.push(`${now.tag} "${now.name.slice(0, 40)}"`);
  }
  throw new Error(`Tab never reached ${name}; the focus went to ${passed.join(', ')}`);
}

test('keyboard only: from the appeals list to a £10 gift with Gift Aid, then signed in to My Donations', async ({
  page,
  request,
}) => {
  // One person's whole journey by keyboard: several pages, the box, the card step, sign-in, the dashboard.
  test.setTimeout(90_000);
  const email = `e2e.keys.${Date.now()}@example.com`;
  await page.goto('/');
  // The skip link is the first stop and moves past the header.
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatchObject({ name: 'Skip to content', ring: true });
  await tabTo(page, /^Appeals$/);
  await Promise.all([page.waitForURL(/\/appeals$/), page.keyboard.press('Enter')]);

  // The card's Donate goes to the appeal's donation box, not the top of its page.
  const donateLink = await tabTo(page, /^Donate to /);
  expect(donateLink.ring).toBe(true);
  await Promise.all([page.waitForURL(/\/appeals\/[^/]+#donate$/), page.keyboard.press('Enter')]);
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatchObject({ tag: 'input', name: 'Donate Once', ring: true });
  // How often is one radio group: the arrows move the choice, Tab leaves it.
  await page.keyboard.press('ArrowUp');
  await expect(box.getByRole('radio', { name: 'Donate Every Month' })).toBeChecked();
  await page.keyboard.press('ArrowDown');
  await expect(box.getByRole('radio', { name: 'Donate Once' })).toBeChecked();

  // Donate is reachable while something is missing; pressing it focuses the first field to fix, which says why.
  const donate = await tabTo(page, /^Donate$/);
  expect(donate.ring).toBe(true);
  await expect(box.getByRole('button', { name: 'Donate', exact: true })).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Enter');
  const emailField = box.getByRole('textbox', { name: /^Email/ });
  await expect(emailField).toBeFocused();
  await expect(emailField).toHaveAttribute('aria-invalid', 'true');
  await expect(emailField).toHaveAccessibleDescription('Enter a valid email address');
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/walk4-keyboard-missing-1280.png' });
  await page.keyboard.type(email);
  // Enter in a field submits too: next the amount.
  await page.keyboard.press('Enter');
  const amount = box.getByLabel('Amount (£)');
  await expect(amount).toBeFocused();
  await expect(amount).toHaveAccessibleDescription('Enter an amount in pounds, like 10 or 12.50');
  await page.keyboard.type('10');
  await tabTo(page, /^Gift Aid/);
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  const giftAid = box.locator('.gift-aid-details');
  await expect(giftAid.getByLabel('First name')).toBeFocused();
  await expect(giftAid.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.type('Kay');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Board');
  await page.keyboard.press('Tab');
  await page.keyboard.type('12');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('SW1A 1AA');
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/walk4-keyboard-box-1280.png' });
  await page.keyboard.press('Enter');

  // The card step: its heading takes the focus; Back returns to the form's heading, not to nowhere.
  await expect(box.getByRole('heading', { name: 'Donate £10.00' })).toBeFocused();
  await tabTo(page, /^Back$/);
  await page.keyboard.press('Enter');
  await expect(box.getByRole('heading', { name: 'Donate', exact: true })).toBeFocused();
  await tabTo(page, /^Donate$/);
  await page.keyboard.press('Enter');
  await expect(box.getByRole('heading', { name: 'Donate £10.00' })).toBeFocused();

  // A declined card: the message is announced and the focus stays on Pay (a disabled button would drop it).
  await page.keyboard.press('Tab');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('4000 0000 0000 0002');
  await tabTo(page, /^Pay £10\.00$/);
  await page.keyboard.press('Enter');
  await expect(box.getByRole('alert')).toContainText('declined');
  await expect(box.getByRole('button', { name: 'Pay £10.00' })).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Tab');
  await expect(box.getByLabel('Card number')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('4242 4242 4242 4242');
  await page.keyboard.press('Enter');
  await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toBeFocused();
  await expect(box.getByTestId('donation-done-details')).toContainText('With Gift Aid it is worth £12.50');

  // Sign in with the emailed code: Escape closes the dialog and gives the focus back to Login.
  const login = await tabTo(page, /^Login$/, 60);
  expect(login.ring).toBe(true);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Email address')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Login' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('Email address')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(dialog.getByLabel('6-digit code')).toBeFocused();
  await page.keyboard.type(await codeFor(request, email));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  // The Login button the dialog came from is gone: the account menu that replaced it has the focus.
  const account = page.getByRole('button', { name: /^Account menu for/ });
  await expect(account).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Dashboard' })).toBeFocused();
  await Promise.all([page.waitForURL(/\/dashboard/), page.keyboard.press('Enter')]);
  // The overview's appeal cards go to the donation box too.
  await expect(page.getByRole('link', { name: /^Donate / }).first()).toHaveAttribute(
    'href',
    /^\/appeals\/[^/]+#donate$/,
  );
  await tabTo(page, /^My Donations$/);
  await page.keyboard.press('Enter');
  const table = page.getByRole('table', { name: 'My Donations' });
  await expect(table).toContainText('£10.00');
  await expect(table).toContainText('Yes');
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/walk4-keyboard-my-donations-1280.png' });
});

test('the similar appeals strip, a scrolling region, shows the same focus ring as links', async ({ page, request }) => {
  const appeal = await firstApproved(request, '/api/appeals');
  await page.goto(`/appeals/${appeal.short_id}`);
  const region = page.getByRole('region', { name: /scroll for more/ }).first();
  await region.focus();
  // Focused by script: force the keyboard modality the way a Tab press would.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatchObject({ ring: true });
});

test('a monthly Direct Debit on a phone: the holder box is focused when unticked, the thank-you and My Donations say the total waits for the bank, and the set-up is confirmed by email', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const appeal = await firstApproved(request, '/api/appeals');
  const email = `e2e.walk4.dd.${Date.now()}@example.com`;
  await page.goto(`/appeals/${appeal.short_id}#donate`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  const [price] = (await (await request.get('/api/stripe/subscriptions')).json()) as MonthlyPrice[];
  const pounds = `£${(price.unit_amount / 100).toFixed(2)}`;
  await box.getByText('Donate Every Month').click();
  // A tap on Donate with nothing filled in: the first field to fix takes the focus, each says what it needs.
  // (force: Playwright will not click an aria-disabled button; a finger does.)
  await box.getByRole('button', { name: /^Donate/ }).click({ force: true });
  await expect(box.getByRole('textbox', { name: /^Email/ })).toBeFocused();
  await expect(box.getByRole('textbox', { name: /^Email/ })).toHaveCSS('border-top-color', 'rgb(180, 35, 24)');
  await expect(box.getByLabel('Monthly amount')).toHaveAccessibleDescription('Choose a monthly amount');
  await expect(box.getByLabel('Monthly amount')).toHaveCSS('border-top-color', 'rgb(180, 35, 24)');
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/walk4-missing-390.png' });
  await box.getByRole('textbox', { name: /^Email/ }).fill(email);
  await box.getByLabel('Monthly amount').selectOption(price.id);
  await box.getByRole('radio', { name: 'Direct Debit' }).check();
  await box.getByRole('button', { name: /^Donate/ }).click();

  const setUp = box.getByRole('button', { name: `Set up Direct Debit for ${pounds} every month` });
  await setUp.click();
  // The account holder's name and address come first (Stripe's mandate needs them); the first to fix has the focus.
  const holderName = box.getByLabel("Account holder's name");
  await expect(holderName).toBeFocused();
  await expect(holderName).toHaveAttribute('aria-invalid', 'true');
  await expect(holderName).toHaveAccessibleDescription("Enter the account holder's name");
  await holderName.fill('Ada Walker');
  await box.getByLabel('Address line 1').fill('2 Mill Lane');
  await box.getByLabel('Town or city').fill('York');
  await box.getByLabel('Postcode').fill('YO1 7HH');
  await setUp.click();
  const holder = box.getByLabel(/I am the account holder/);
  await expect(box.getByRole('alert')).toContainText('Confirm that you are the account holder');
  await expect(holder).toBeFocused();
  await expect(holder).toHaveAttribute('aria-invalid', 'true');
  // Stripe's required wording for the mandate's checkbox, with the collecting charity named.
  await expect(holder).toHaveAccessibleName(
    /I understand that .+ has partnered with Stripe, who collects Direct Debits on behalf of .+, and confirm that I am the account holder/,
  );
  await expect(holder).toHaveAccessibleDescription(/Confirm that you are the account holder/);
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/walk4-dd-holder-390.png' });
  await holder.check();

  // The gift is processing: the page asks for no new total (it would not change), and says why.
  const totalReads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/api/appeals/${appeal._id}`)) totalReads.push(r.url());
  });
  await setUp.click();
  const status = box.getByRole('status');
  await expect(status).toContainText('is set up and processing');
  await expect(status).toContainText("It counts in the appeal's total once it is paid");
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/walk4-dd-thanks-390.png' });
  expect(totalReads).toEqual([]);

  // As Stripe does in live mode, the donor gets the confirmation of the Direct Debit Instruction at once.
  await expect
    .poll(async () => (await outbox(request, email)).filter((m) => /Direct Debit/.test(m.subject)).length)
    .toBe(1);
  const [confirmation] = await outbox(request, email);
  expect(confirmation.subject).toMatch(/^Important: confirmation of your Direct Debit to /);
  expect(confirmation.text).toContain('Please check the details below');
  expect(confirmation.text).toMatch(/Account holder:\s+Ada Walker/);
  expect(confirmation.text).toMatch(/Address:\s+2 Mill Lane, York, YO1 7HH/);
  expect(confirmation.text).toMatch(/Mandate reference:\s+DEMO[0-9A-F]{10}\b/);
  expect(confirmation.text).toContain('This Guarantee is offered by all banks and building societies');

  // Signed in, My Donations says why the new monthly gift is not listed yet and what Processing means.
  await useToken(page, (await signIn(request, email)).token);
  await page.goto('/dashboard/donations/me');
  await expect(page.getByRole('table', { name: 'My Donations' })).toContainText(/processing/i);
  const note = page.getByRole('status').filter({ hasText: 'Direct Debit shows as Processing' });
  await expect(note).toContainText('not in any total, receipt or Gift Aid claim');
  await expect(note).toContainText('Your new monthly gift appears under Monthly gifts');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SCREENSHOTS) {
    await page.screenshot({ path: 'test-results/walk4-dd-my-donations-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: 'test-results/walk4-dd-my-donations-1280.png' });
  }
});
