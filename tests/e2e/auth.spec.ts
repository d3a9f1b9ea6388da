import type { Page } from '@playwright/test';
import { axeViolations, codeFor, expect, test } from './fixtures';

async function openDialog(page: Page) {
  // The header island hydrates when Login is reached for; the first click is enough.
  await page.locator('header').getByRole('button', { name: 'Login' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in or sign up' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('a seeded donor signs in with the emailed code, stays signed in after reload, and logs out', async ({
  page,
  request,
}) => {
  await page.goto('/campaigns');
  const dialog = await openDialog(page);
  const next = dialog.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await dialog.getByLabel('Email address').fill('donor@example');
  await expect(next).toBeDisabled();
  await dialog.getByLabel('Email address').fill('donor@example.org');
  await next.click();

  const codeDialog = page.getByRole('dialog', { name: 'Enter your code' });
  const loginButton = codeDialog.getByRole('button', { name: 'Login' });
  await expect(codeDialog.getByLabel('6-digit code')).toBeFocused();
  await expect(codeDialog.getByLabel('First name')).toHaveCount(0);
  const code = await codeFor(request, 'donor@example.org');
  await codeDialog.getByLabel('6-digit code').fill(code.slice(0, 5));
  await expect(loginButton).toBeDisabled();
  await codeDialog.getByLabel('6-digit code').fill(`${code}99`);
  await expect(codeDialog.getByLabel('6-digit code')).toHaveValue(code);
  await loginButton.click();

  await expect(page.getByRole('dialog')).toHaveCount(0);
  const avatar = page.getByRole('button', { name: /Account menu for/ });
  await expect(avatar.locator('[aria-hidden="true"]')).toHaveText(/^[A-Z]{1,2}$/);
  expect(await page.evaluate(() => localStorage.getItem('uk_nfp_token'))).toMatch(/^[A-Za-z0-9_-]{43}$/);

  await page.reload();
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(avatar).toBeVisible();
  await avatar.click();
  const menu = page.getByRole('menu', { name: 'Account' });
  await expect(menu.getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/overview');
  await expect(menu.getByRole('menuitem', { name: 'Dashboard' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(avatar).toBeFocused();

  await avatar.click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL('/');
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.locator('header').getByRole('button', { name: 'Login' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('uk_nfp_token'))).toBeNull();
});

test('a new visitor is asked for a name only once the code is proven; closing the dialog resets it', async ({
  page,
  request,
}) => {
  const email = `new-${Date.now()}@example.net`;
  await page.goto('/');
  let dialog = await openDialog(page);
  await dialog.getByLabel('Email address').fill(email);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  dialog = await openDialog(page);
  await expect(dialog.getByLabel('Email address')).toHaveValue('');

  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('button', { name: 'Next' }).click();
  const codeDialog = page.getByRole('dialog', { name: 'Enter your code' });
  // Known and unknown addresses look the same until the code is proven.
  await expect(codeDialog.getByLabel('6-digit code')).toBeVisible();
  await expect(codeDialog.getByLabel('First name')).toHaveCount(0);
  await codeDialog.getByLabel('6-digit code').fill(await codeFor(request, email));
  await codeDialog.getByRole('button', { name: 'Login' }).click();
  await expect(codeDialog.getByRole('status')).toContainText('first and last name');
  const create = codeDialog.getByRole('button', { name: 'Create account' });
  await expect(create).toBeDisabled();
  await codeDialog.getByLabel('First name').fill('Nia');
  await expect(create).toBeDisabled();
  await codeDialog.getByLabel('Last name').fill('Jones');
  await expect(create).toBeEnabled();
  await create.click();
  await expect(
    page.getByRole('button', { name: 'Account menu for Nia Jones' }).locator('[aria-hidden="true"]'),
  ).toHaveText('NJ');
});

test('Login pressed right after Escape opens the dialog again, whenever the close event comes', async ({ page }) => {
  await page.goto('/');
  const dialog = await openDialog(page);
  await dialog.getByLabel('Email address').fill('quick@example.net');
  // Escape (the dialog's close request: 'cancel' at once, 'close' a task later) and Login in one task,
  // as a fast keyboard user's Escape then Enter can land before the 'close' event.
  await page.evaluate(() => {
    document.querySelector<HTMLDialogElement>('dialog.login-dialog')?.requestClose();
    [...document.querySelectorAll<HTMLButtonElement>('header button')]
      .find((b) => b.textContent?.trim() === 'Login')
      ?.click();
  });
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByRole('dialog').getByLabel('Email address')).toBeFocused();
  // Still open once the late 'close' event has been handled.
  await page.waitForTimeout(100);
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('a stored token the server rejects is cleared and the Login button returns', async ({ page }) => {
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('uk_nfp_token', 'x'.repeat(43)));
  await page.reload();
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.locator('header').getByRole('button', { name: 'Login' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('uk_nfp_token'))).toBeNull();
});

test('the sign-in dialog and avatar menu fit desktop and phone widths', async ({ page, request }) => {
  for (const [label, width, height] of [
    ['desktop', 1280, 800],
    ['phone', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    const dialog = await openDialog(page);
    await dialog.getByLabel('Email address').fill('orgadmin@example.org');
    await page.screenshot({ path: `test-results/auth-dialog-${label}.png` });
    await dialog.getByRole('button', { name: 'Next' }).click();
    const codeDialog = page.getByRole('dialog', { name: 'Enter your code' });
    // The dialog moves on once the server has sent the code: only then is the newest email this one's
    // (the desktop round sent one before).
    await expect(codeDialog.getByLabel('6-digit code')).toBeVisible();
    await codeDialog.getByLabel('6-digit code').fill(await codeFor(request, 'orgadmin@example.org'));
    await page.screenshot({ path: `test-results/auth-code-${label}.png` });
    expect(await axeViolations(page, { include: 'dialog', tags: 'all' })).toEqual([]);
    const box = await codeDialog.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(width);
    await codeDialog.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: /Account menu for/ }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await page.screenshot({ path: `test-results/auth-menu-${label}.png` });
    expect(await axeViolations(page, { include: '.avatar-menu', tags: 'all' })).toEqual([]);
    // Logging out reloads '/', the URL we are already on: wait for that load, or the next goto races it.
    const reloaded = page.waitForEvent('load');
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await reloaded;
    await expect(page).toHaveURL('/');
  }
});
