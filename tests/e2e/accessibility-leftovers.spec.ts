import type { Locator, Page } from '@playwright/test';
import { DEMO_ACCOUNT_FAILS, DEMO_ACCOUNT_SUCCEEDS } from '../../domain';
import { expect, signUp, test, tokenFor, openAs, useToken } from './fixtures';

/**
 * Decision 060: the login dialog's disabled Next says what it waits for, the Direct Debit step's bank
 * fields carry their own errors, the phone menu is a modal dialog, and the small public and dashboard
 * targets a finger needs are 44 px.
 */

const shot = async (target: Page | Locator, name: string) => {
  if (process.env.SCREENSHOTS) await target.screenshot({ path: `test-results/a11y-leftovers/${name}.png` });
};

test('the login dialog’s disabled Next and Login say what they wait for, as their description', async ({ page }) => {
  await page.goto('/campaigns');
  await page.locator('header').getByRole('button', { name: 'Login' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in or sign up' });
  const next = dialog.getByRole('button', { name: 'Next' });
  const email = dialog.getByLabel('Email address');
  await expect(next).toBeDisabled();
  // Before anything is typed: a plain instruction, read with the dimmed button, not an alert.
  await expect(next).toHaveAccessibleDescription('To continue, add your email address.');
  await expect(dialog.getByText('To continue, add your email address.')).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await shot(dialog, 'login-empty');
  await email.fill('donor@example');
  await expect(next).toHaveAccessibleDescription('To continue, add a full email address, like name@example.com.');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(dialog, 'login-partial-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await email.fill('donor@example.org');
  await expect(next).toBeEnabled();
  await expect(next).toHaveAccessibleDescription('');
  await expect(dialog.getByText(/^To continue/)).toHaveCount(0);
  await next.click();

  const codeStep = page.getByRole('dialog', { name: 'Enter your code' });
  const login = codeStep.getByRole('button', { name: 'Login' });
  await expect(login).toHaveAccessibleDescription('To log in, add the 6-digit code.');
  await codeStep.getByLabel('6-digit code').fill('12345');
  await expect(login).toHaveAccessibleDescription('To log in, add the 6-digit code.');
  await codeStep.getByLabel('6-digit code').fill('123456');
  await expect(login).toBeEnabled();
  await expect(login).toHaveAccessibleDescription('');
});

test('the Direct Debit step ties each bank error to its field and focuses the first wrong one', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await useToken(page, await signUp(request, `e2e.dd-fields.${Date.now()}@example.com`));
  const appeal = ((await (await request.get('/api/appeals?limit=20')).json()) as { short_id: string }[]).at(-1)!;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  await box.getByText('Donate Every Month').click();
  await expect(box.getByLabel('Monthly amount').locator('option')).not.toHaveCount(1);
  await box.getByLabel('Monthly amount').selectOption({ index: 1 });
  await box.getByRole('radio', { name: 'Direct Debit' }).check();
  await box.getByRole('button', { name: /^Donate/ }).click();

  const sortCode = box.getByLabel('Sort code');
  const account = box.getByLabel('Account number');
  await expect(sortCode).toHaveAttribute('aria-invalid', 'false');
  await sortCode.fill('10-88');
  await account.fill('123');
  await box.getByLabel('Address line 1').fill('1 High Street');
  await box.getByLabel('Town or city').fill('Leeds');
  await box.getByLabel('Postcode').fill('LS1 4AP');
  const setUp = box.getByRole('button', { name: /^Set up Direct Debit/ });
  await setUp.click();
  await expect(sortCode).toBeFocused();
  await expect(sortCode).toHaveAttribute('aria-invalid', 'true');
  await expect(sortCode).toHaveAccessibleDescription('Enter a 6-digit sort code');
  await expect(account).toHaveAttribute('aria-invalid', 'true');
  // The error first, then the hint naming the test accounts.
  await expect(account).toHaveAccessibleDescription(/^Enter an 8-digit account number Stripe's test sort code/);
  await shot(box, 'direct-debit-bank-errors-390');

  await sortCode.fill('10-88-00');
  await account.fill('11111111');
  await expect(sortCode).toHaveAttribute('aria-invalid', 'false');
  await setUp.click();
  await expect(account).toBeFocused();
  await expect(account).toHaveAccessibleDescription(
    new RegExp(`^Use one of Stripe's test accounts: ${DEMO_ACCOUNT_SUCCEEDS} or ${DEMO_ACCOUNT_FAILS} Stripe's`),
  );
  // Nothing form-wide was said: the message is the field's.
  await expect(box.getByRole('alert')).toHaveCount(0);

  await account.fill(DEMO_ACCOUNT_SUCCEEDS);
  await expect(account).toHaveAttribute('aria-invalid', 'false');
  await setUp.click();
  // Past the bank fields, the account holder's box is the next thing asked for.
  await expect(box.getByLabel(/I am the account holder/)).toBeFocused();
  await expect(box.getByLabel(/I am the account holder/)).toHaveAttribute('aria-invalid', 'true');
});

test.describe('the phone menu', () => {
  test('is a modal dialog: named, focus inside and kept there, Escape or the scrim close it and give the focus back', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openAs(page, await tokenFor(request, 'admin@example.org'), '/dashboard/faqs');
    await expect(page.getByRole('heading', { level: 1, name: 'FAQs' })).toBeVisible();
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await toggle.click();
    const menu = page.getByRole('dialog', { name: 'Dashboard' });
    await expect(menu).toBeVisible();
    await expect(menu).toHaveAttribute('aria-modal', 'true');
    await expect(menu.getByRole('link', { name: 'UK NFP' })).toBeFocused();
    await shot(page, 'phone-menu-open-390');
    // Shift+Tab from the first item goes to the last, Tab from the last back to the first: never the
    // skip link or the page under the scrim.
    await page.keyboard.press('Shift+Tab');
    const last = menu.getByRole('link').last();
    await expect(last).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(menu.getByRole('link', { name: 'UK NFP' })).toBeFocused();
    const links = await menu.getByRole('link').count();
    for (let i = 0; i < links + 2; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(toggle).toBeFocused();

    await toggle.click();
    await expect(menu).toBeVisible();
    await page.locator('.dash-scrim').click({ position: { x: 370, y: 400 } });
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(toggle).toBeFocused();

    // A link closes it and the focus goes to the new page, not back to the menu button.
    await toggle.click();
    await menu.getByRole('link', { name: 'Contact Support' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Support' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.locator('#dash-main')).toBeFocused();

    // On a desktop the menu is a side panel, not a dialog.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(page.getByRole('complementary', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

/** Width and height of each visible match, with its text. */
const sizes = (locator: Locator) =>
  locator.evaluateAll((els) =>
    els
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .map((el) => {
        const r = el.getBoundingClientRect();
        return { text: (el.textContent || el.getAttribute('aria-label') || '').trim(), w: r.width, h: r.height };
      }),
  );

async function expectFingerSized(locator: Locator, { count, minWidth = 44 }: { count: number; minWidth?: number }) {
  const found = await sizes(locator);
  expect(found.length).toBeGreaterThanOrEqual(count);
  for (const target of found) {
    expect(target.h, target.text).toBeGreaterThanOrEqual(44);
    expect(target.w, target.text).toBeGreaterThanOrEqual(minWidth);
  }
}

test.describe('on a 390 px touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

  test('the carousel’s dots, the header’s and footer’s links and the dashboard’s small links are a finger’s size', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    const carousel = page.locator('.campaign-carousel');
    await carousel.scrollIntoViewIfNeeded();
    const dots = carousel.getByRole('button', { name: /^Go to slide/ });
    await expect(dots.first()).toBeVisible();
    // Nine campaigns' dots share a phone's width: 44 px high, about 40 wide, never under WCAG's 24.
    await expectFingerSized(dots, { count: 2, minWidth: 36 });
    // Still drawn as small dots: the dots' row is as wide as before, give or take.
    await shot(carousel, 'carousel-dots-390');
    await dots.nth(1).click();
    await expect(dots.nth(1)).toHaveAttribute('aria-current', 'true');

    await expectFingerSized(page.locator('header .brand, header .main-nav a'), { count: 3 });
    await expectFingerSized(page.locator('footer a'), { count: 7 });
    await expectFingerSized(page.locator('.related-head a'), { count: 1 });
    await page.locator('.skip-link').focus();
    await expectFingerSized(page.locator('.skip-link'), { count: 1 });
    await page.locator('footer').scrollIntoViewIfNeeded();
    await shot(page, 'footer-390');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'header-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await openAs(page, await tokenFor(request, 'admin@example.org'), '/dashboard/overview');
    await expect(page.getByRole('link', { name: 'Claims' })).toBeVisible();
    await expectFingerSized(page.locator('.dash-main .dash-link'), { count: 2 });
    await expectFingerSized(page.locator('.dash-main .dash-icon-btn, .dash-header .dash-icon-btn'), { count: 3 });
    await shot(page, 'dashboard-overview-390');
  });
});
