import type { Page } from '@playwright/test';
import { expect, firstApproved, test } from './fixtures';

/**
 * The islands' side of the security check: when an answer asks for it (428) they load Turnstile
 * from challenges.cloudflare.com (the policy must allow it), show the widget and send the request
 * again with its token. Turnstile's script is faked at the network boundary (no internet here);
 * the server's side of the check has API tests (api/services/auth/login-codes.test.ts, stripe.test.ts).
 */
async function fakeTurnstile(page: Page) {
  await page.route('https://challenges.cloudflare.com/turnstile/v0/api.js*', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `window.turnstile = {
        render(el, options) {
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = 'Verify you are human';
          button.onclick = () => options.callback('XXXX.DUMMY.TOKEN.XXXX');
          el.appendChild(button);
          return 'widget-1';
        },
        remove() {},
      };`,
    }),
  );
}

/** Answers the first matching API call with 428 (as past a threshold), lets later ones through and records their bodies. */
async function askForCheckOnce(page: Page, path: string) {
  const bodies: Record<string, unknown>[] = [];
  let asked = false;
  await page.route(`**${path}`, async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    if (!asked) {
      asked = true;
      await route.fulfill({
        status: 428,
        json: { statusCode: 428, message: 'Please complete the security check below, then try again.' },
      });
      return;
    }
    bodies.push(body);
    await route.continue();
  });
  return bodies;
}

test('the donation box shows the security check when asked and sends the gift again with its token', async ({
  page,
  request,
}) => {
  await fakeTurnstile(page);
  const sent = await askForCheckOnce(page, '/api/stripe/client_secret');
  const appeal = await firstApproved(request, '/api/appeals');
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  await box.getByRole('textbox', { name: /^Email/ }).fill(`check.${Date.now()}@example.com`);
  await box.getByLabel('Amount (£)').fill('7');
  await box.getByRole('button', { name: /^Donate/ }).click();
  await expect(box.getByRole('alert')).toContainText('security check');
  await box
    .getByRole('group', { name: 'Security check' })
    .getByRole('button', { name: 'Verify you are human' })
    .click();
  await expect(box.getByRole('heading', { name: 'Donate £7' })).toBeVisible();
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ amount: 700, turnstile_token: 'XXXX.DUMMY.TOKEN.XXXX' });
});

test('the sign-in dialog shows the security check when asked and sends the code request again with its token', async ({
  page,
}) => {
  await fakeTurnstile(page);
  const sent = await askForCheckOnce(page, '/api/auth/login');
  await page.goto('/');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.locator('header').getByRole('button', { name: 'Login' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in or sign up' });
  await dialog.getByLabel('Email address').fill('donor@example.org');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByRole('alert')).toContainText('security check');
  await expect(dialog.getByLabel('Email address')).toHaveValue('donor@example.org');
  await dialog.getByRole('button', { name: 'Verify you are human' }).click();
  await expect(page.getByRole('dialog', { name: 'Enter your code' })).toBeVisible();
  expect(sent[0]).toEqual({ email: 'donor@example.org', turnstile_token: 'XXXX.DUMMY.TOKEN.XXXX' });
});
