import { expect, firstApproved, test } from './fixtures';
import { outageOrigin } from './servers';

/**
 * Failing safely, against a second server running the same build whose database cannot be reached
 * (scripts/e2e-server.ts --outage: a Turso URL nothing listens on).
 */
const outage = outageOrigin;

test('public pages answer a branded 503 with Retry-After, never a stack or a blank page', async ({ page, request }) => {
  for (const path of ['/', '/campaigns', '/appeals', '/campaigns/0000000000000000000001']) {
    const res = await request.get(`${outage}${path}`);
    expect(res.status(), path).toBe(503);
    expect(res.headers()['retry-after'], path).toBe('30');
    expect(res.headers()['content-type'], path).toMatch(/text\/html/);
    expect(res.headers()['x-frame-options'], path).toBe('DENY');
    const html = await res.text();
    expect(html, path).toContain('We are very busy right now');
    expect(html, path).not.toMatch(/\bat \S+:\d+:\d+|Error:|ECONNREFUSED|fetch failed|Failed query|select /);
  }
  await page.goto(`${outage}/campaigns`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('We are very busy right now');
  await expect(page.getByRole('link', { name: 'UK NFP' })).toBeVisible();
  await expect(page.getByText(/quote reference [0-9a-f-]{36}/)).toBeVisible();
  // Pages that need no database still work.
  expect((await request.get(`${outage}/policy`)).status()).toBe(200);
});

test('the API answers a JSON 503 with a reference', async ({ request }) => {
  const res = await request.get(`${outage}/api/campaigns`);
  expect(res.status()).toBe(503);
  expect(res.headers()['retry-after']).toBe('30');
  const body = (await res.json()) as { statusCode: number; message: string };
  expect(body).toEqual({
    statusCode: 503,
    message: `The service is busy right now. Nothing was changed; please try again in a minute. Reference: ${res.headers()['x-request-id']}`,
  });
  expect((await request.get(`${outage}/api/health`)).status()).toBe(503);
});

test('the donation box says the service is busy and keeps everything the donor typed', async ({ page, request }) => {
  const appeal = await firstApproved(request, '/api/appeals');
  // The page loads from the working server; starting the gift reaches the server whose database is down.
  await page.route('**/api/stripe/client_secret', async (route) => {
    const response = await route.fetch({ url: `${outage}/api/stripe/client_secret` });
    await route.fulfill({ response });
  });
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  const email = `busy.${Date.now()}@example.com`;
  await box.getByRole('textbox', { name: /^Email/ }).fill(email);
  await box.getByLabel('Amount (£)').fill('15');
  await page.getByLabel('Gift Aid (UK Only)').check();
  // The HMRC fields.
  const giftAid = box.locator('.gift-aid-details');
  await giftAid.getByLabel('First name').fill('Ann');
  await giftAid.getByLabel('Last name').fill('Example');
  await box.getByLabel('House name or number').fill('1');
  await box.getByLabel('Postcode').fill('LS1 4AP');
  await box.getByRole('button', { name: /^Donate/ }).click();

  await expect(box.getByRole('alert')).toContainText(
    'Sorry, our service is very busy right now. Your details are still here',
  );
  await expect(box.getByRole('alert')).toContainText(/Reference: [0-9a-f-]{36}/);
  await expect(box.getByRole('textbox', { name: /^Email/ })).toHaveValue(email);
  await expect(box.getByLabel('Amount (£)')).toHaveValue('15');
  await expect(giftAid.getByLabel('First name')).toHaveValue('Ann');
  await expect(box.getByLabel('House name or number')).toHaveValue('1');
  await expect(box.getByLabel('Postcode')).toHaveValue('LS1 4AP');

  // Service back: the same form goes through without typing anything again.
  await page.unroute('**/api/stripe/client_secret');
  await box.getByRole('button', { name: /^Donate/ }).click();
  await expect(box.getByRole('heading', { name: 'Donate £15' })).toBeVisible();
});
