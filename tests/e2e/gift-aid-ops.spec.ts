import { readFile } from 'node:fs/promises';
import { expect, signIn, test, useToken } from './fixtures';

/**
 * Gift Aid operations as an admin runs them: a paper declaration on a donor's page, a hand-recorded
 * gift verified on its page (batch entry's own verify screen comes with batch entry), a claim, its
 * ODS schedule, and voiding the draft.
 */
test('an admin adds a paper declaration, verifies a manual gift, creates a claim, downloads its ODS and voids the draft', async ({ page, request }) => {
  const { token } = await signIn(request, 'admin@example.org');
  const auth = { authorization: `Bearer ${token}` };
  const [org] = (await (await request.get('/api/organizations?limit=100', { headers: auth })).json()) as { _id: string; name: string }[];
  const campaigns = (await (await request.get(`/api/campaigns?organization_id=${org._id}&limit=50`, { headers: auth })).json()) as { _id: string; organization?: { value: string } | string }[];
  // A manual gift names an appeal: take the organization's first campaign that has one.
  let campaign = campaigns[0];
  let appeals: { _id: string }[] = [];
  for (const candidate of campaigns) {
    appeals = (await (await request.get(`/api/campaigns/${candidate._id}/appeals`, { headers: auth })).json()) as { _id: string }[];
    campaign = candidate;
    if (appeals.length) break;
  }
  expect(appeals.length, 'the seed gives this organization a campaign with appeals').toBeGreaterThan(0);
  const donor = (await (await request.post('/api/users', { headers: auth, data: { email: `paper-${Date.now()}@example.org`, first_name: 'Pat', last_name: 'Paper', type: 'donor' } })).json()) as { _id: string };
  expect(donor._id).toBeTruthy();
  const created = await request.post('/api/donations', { headers: auth, data: { donor: donor._id, amount: 4000, date: '2026-01-10', campaign: campaign._id, appeal: appeals[0]._id, method: 'cheque' } });
  expect(created.status(), await created.text()).toBe(201);
  const gift = (await created.json()) as { _id: string };

  await useToken(page, token);
  await page.goto(`/dashboard/donors/edit/${donor._id}`);
  await page.waitForSelector('astro-island:not([ssr])');
  const declarations = page.getByRole('region', { name: 'Gift Aid declarations' });
  await expect(declarations.getByText('No Gift Aid declaration on record.')).toBeVisible();
  await declarations.getByRole('button', { name: 'Add declaration' }).click();
  await declarations.getByLabel('To').selectOption(org._id);
  await declarations.getByLabel('First name').fill('Pat');
  await declarations.getByLabel('Last name').fill('Paper');
  await declarations.getByLabel('House name or number').fill('14');
  await declarations.getByLabel('Postcode').fill('ls1 4ap');
  await declarations.getByLabel('Made on').fill('2026-01-02');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/gift-aid-ops-declaration-form-1280.png', fullPage: true });
  await declarations.getByRole('button', { name: 'Save declaration' }).click();
  await expect(declarations.getByText('Paper declaration recorded.')).toBeVisible();
  await expect(declarations.getByText('in force')).toBeVisible();
  await page.screenshot({ path: 'test-results/gift-aid-ops-declarations-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/gift-aid-ops-declarations-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto(`/dashboard/donations/edit/${gift._id}`);
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByRole('button', { name: 'Verify Gift Aid' }).click();
  await expect(page.getByText('Gift Aid verified')).toBeVisible();

  await page.goto('/dashboard/gift-aid');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByLabel('Organization').selectOption(org._id);
  await page.getByRole('button', { name: 'Create claim' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Claim created' })).toBeVisible();
  const claims = page.getByRole('table', { name: 'Gift Aid claims' });
  const row = claims.getByRole('row').filter({ hasText: 'draft' }).first();
  await row.getByRole('button', { name: 'Open' }).click();
  const panel = page.getByRole('region', { name: /^Claim of / });
  await expect(panel.getByRole('table', { name: 'Gifts in this claim' }).getByRole('link', { name: 'Pat Paper' })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download ODS' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^gift-aid-claim-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.ods$/);
  const ods = await readFile((await download.path())!);
  expect(ods.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(ods.subarray(30, 38).toString('latin1')).toBe('mimetype');
  expect(ods.subarray(38, 84).toString('latin1')).toBe('application/vnd.oasis.opendocument.spreadsheet');
  await page.screenshot({ path: 'test-results/gift-aid-ops-claim-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/gift-aid-ops-claim-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  page.once('dialog', (dialog) => void dialog.accept());
  await panel.getByRole('button', { name: 'Void claim' }).click();
  await expect(panel).toContainText('Voided; its gifts can be claimed again.');
  await expect(claims.getByText('void').first()).toBeVisible();
  await expect(page.locator('.gift-aid-eligible-summary')).not.toContainText('0 eligible gifts');
});
