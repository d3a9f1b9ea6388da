import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { axeViolations, expect, openAs, test, tokenFor as signIn } from './fixtures';

/** The admin's charts, filters and CSV export, and a donor's message on an appeal page. */

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((t) => {
    if (document.documentElement.dataset.theme !== t)
      document.querySelector<HTMLElement>(`[role="radio"][title^="${t[0].toUpperCase()}"]`)?.click();
  }, theme);
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
}

async function openDashboard(page: Page, token: string, at: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openAs(page, token, at);
}

test('an admin reads the overview charts and their tables in light and dark theme (axe-clean)', async ({
  page,
  request,
}) => {
  const token = await signIn(request, 'admin@example.org');
  await openDashboard(page, token, '/dashboard/overview');
  const weekly = page.getByRole('region', { name: 'Gifts per week (last 52 weeks)' });
  await expect(
    weekly.getByRole('img', { name: /Stacked bar chart of one-off and monthly gifts per week/ }),
  ).toBeVisible();
  await expect(weekly.locator('.recharts-bar-rectangle').first()).toBeVisible();
  for (const title of [
    'Raised per campaign against its goal',
    'Monthly recurring income and active monthly donors',
    'New and returning donors',
    'Gift Aid',
  ]) {
    await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
  }
  // Email delivery, for site admins: the local server has no mail provider, and says so.
  await expect(page.getByRole('heading', { name: 'Email delivery', exact: true })).toBeVisible();
  await expect(page.getByText('No mail provider is set up (MAIL_API_KEY)')).toBeVisible();
  // Its counts would mislead there (the outbox is never marked sent), so none are shown.
  await expect(page.locator('dl[aria-label="Email delivery"]')).toHaveCount(0);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/insight-light.png', fullPage: true });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    expect(await axeViolations(page)).toEqual([]);
  }
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/insight-dark.png', fullPage: true });
  // Every chart has a table with the figures.
  const campaigns = page.getByRole('region', { name: 'Raised per campaign against its goal' });
  await campaigns.getByRole('button', { name: 'Table' }).click();
  await expect(campaigns.getByRole('button', { name: 'Table' })).toHaveAttribute('aria-pressed', 'true');
  await expect(campaigns.getByRole('columnheader', { name: 'Raised' })).toBeVisible();
  await expect(campaigns.getByRole('row')).not.toHaveCount(1);
  await weekly.getByRole('button', { name: 'Table' }).click();
  await expect(weekly.getByRole('table')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await setTheme(page, 'light');
  expect(await axeViolations(page)).toEqual([]);
  // Phone width: the charts stack and stay readable.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(weekly.getByRole('table')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/insight-390.png', fullPage: true });
});

test('an admin filters donations, the view survives reload, and the CSV export matches the filter', async ({
  page,
  request,
}) => {
  const token = await signIn(request, 'admin@example.org');
  const auth = { headers: { authorization: `Bearer ${token}` } };
  const all = await request.get('/api/donations?limit=1', auth);
  const total = Number(all.headers()['x-total-count']);
  await openDashboard(page, token, '/dashboard/donations');
  await expect(page.getByRole('heading', { name: 'All Donations' })).toBeVisible();
  await page.getByLabel('Type', { exact: true }).selectOption('monthly');
  await page.getByLabel('Min £').fill('10');
  await page.getByLabel('Min £').press('Enter');
  await expect(page).toHaveURL(/type=monthly/);
  await expect(page).toHaveURL(/amount_min=1000/);
  await page.getByRole('button', { name: /^Amount: / }).click();
  await expect(page).toHaveURL(/sort=amount/);
  await expect(page.getByRole('columnheader', { name: /^Amount/ })).toHaveAttribute(
    'aria-sort',
    /ascending|descending/,
  );
  const expected = await request.get('/api/donations?type=monthly&amount_min=1000&limit=100', auth);
  const filteredTotal = Number(expected.headers()['x-total-count']);
  expect(filteredTotal).toBeGreaterThan(0);
  expect(filteredTotal).toBeLessThan(total);
  await expect(page.locator('.dash-pagination-info')).toHaveText(`${filteredTotal} row(s)`);
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/donations-filtered.png', fullPage: true });

  await page.reload();
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.getByLabel('Type', { exact: true })).toHaveValue('monthly');
  await expect(page.getByLabel('Min £')).toHaveValue('10');
  await expect(page.locator('.dash-pagination-info')).toHaveText(`${filteredTotal} row(s)`);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^donations-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await readFile((await file.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toBe(
    'Date,Amount (GBP),Refunded (GBP),Net (GBP),Gift Aid,Type,Status,Source,Payment method,Payment reference,Donor name,Donor email,Campaign,Appeal,Donation ID,Fee (GBP)',
  );
  expect(lines).toHaveLength(filteredTotal + 1);
  for (const line of lines.slice(1)) {
    expect(line).toMatch(/^\d{2}\/\d{2}\/\d{4},\d+\.\d{2},/);
    expect(line).toContain(',Monthly,');
    expect(Number(line.split(',')[1])).toBeGreaterThanOrEqual(10);
  }
  expect(await axeViolations(page)).toEqual([]);

  // A Max under the Min is said at once and held back; mending the Min applies both.
  await page.getByLabel('Max £').fill('5');
  await page.getByLabel('Max £').press('Enter');
  await expect(page.getByRole('alert')).toHaveText(/The Max £ must be at least the Min £/);
  await expect(page.getByLabel('Max £')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).not.toHaveURL(/amount_max/);
  await expect(page.locator('.dash-pagination-info')).toHaveText(`${filteredTotal} row(s)`);
  await page.getByLabel('Min £').fill('2');
  await page.getByLabel('Min £').press('Enter');
  await expect(page).toHaveURL(/amount_min=200&amount_max=500/);
  await expect(page.getByText(/The Max £ must be at least/)).toHaveCount(0);
  await page.getByLabel('Min £').fill('-5');
  await page.getByLabel('Min £').press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Type amounts in pounds, like 25 or 12.50.');
  await expect(page).toHaveURL(/amount_min=200/);
});

test('a donor’s message of support appears on the appeal page, escaped, and anonymously when asked', async ({
  page,
  request,
}) => {
  const res = await request.get('/api/appeals?limit=20');
  const appeals = (await res.json()) as { _id: string; short_id: string }[];
  const appeal = appeals[3];
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  const message = `Go team! <b>not bold</b> ${Date.now()}`;
  await box.getByRole('textbox', { name: 'Email' }).fill('supporter-message@example.com');
  await box.getByLabel('Amount (£)').fill('7');
  await box.getByLabel('Message of support (optional)').fill(message);
  await box.getByLabel(/Give anonymously/).check();
  await box.getByRole('button', { name: /^Donate/ }).click();
  await box.getByLabel('Card number').fill('4242 4242 4242 4242');
  await box.getByRole('button', { name: /^Pay / }).click();
  await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible();
  // The donor sees their message join the list at once, as text, before any reload.
  const shown = page
    .getByRole('region', { name: 'Messages of support' })
    .getByRole('listitem')
    .filter({ hasText: message });
  await expect(shown).toBeVisible();
  await expect(shown).toContainText('Anonymous');
  await expect(page.locator('.support-messages b')).toHaveCount(0);

  await page.goto(`/appeals/${appeal.short_id}`);
  const messages = page.getByRole('region', { name: 'Messages of support' });
  const item = messages.getByRole('listitem').filter({ hasText: message });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Anonymous');
  await expect(item).toContainText('£7');
  await expect(messages.locator('b')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Top Donors' })).not.toContainText('supporter-message');
  if (process.env.SCREENSHOTS) {
    await page.setViewportSize({ width: 390, height: 844 });
    await messages.screenshot({ path: 'test-results/messages-390.png' });
  }
});
