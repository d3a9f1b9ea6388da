import { readFile } from 'node:fs/promises';
import { expect, test, tokenFor as signIn, useToken } from './fixtures';

const HEADER =
  'Title,First name,Last name,House name or number,Postcode,Aggregated donations,Sponsored event,Donation date,Amount';
/** A donor's line: no £ sign, DD/MM/YY, two decimals, postcode in capitals with one space. */
const DONOR_LINE =
  /^[A-Za-z]{0,4},[^,]+,[^,-]+,[^,]+,[A-Z]{1,2}[0-9][0-9A-Z]? [0-9][A-Z]{2},,,\d{2}\/\d{2}\/\d{2},\d+\.\d{2}$/;

test('an admin creates a Gift Aid claim and downloads its HMRC schedule as CSV', async ({ page, request }) => {
  const token = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  await page.goto('/dashboard/gift-aid');
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.getByRole('heading', { level: 1, name: 'Gift Aid' })).toBeVisible();

  const summary = page.locator('.gift-aid-eligible-summary');
  await expect(summary).toContainText(/\d+ eligible gifts?: £[\d,.]+ donated, £[\d,.]+ Gift Aid to claim/);
  const eligible = Number(/(\d+) eligible/.exec((await summary.textContent()) ?? '')?.[1]);
  expect(eligible).toBeGreaterThan(0);
  await expect(page.getByRole('table', { name: 'Eligible gifts' }).getByRole('row')).not.toHaveCount(1);

  await page.getByRole('button', { name: 'Create claim' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Claim created' })).toBeVisible();
  await expect(summary).toContainText('0 eligible gifts');
  const claims = page.getByRole('table', { name: 'Gift Aid claims' });
  // One new draft (a browser test before this one may have left a void claim).
  await expect(claims.getByRole('row').filter({ hasText: 'draft' })).toHaveCount(1);
  await expect(claims.getByText('draft')).toBeVisible();

  // The new claim opens below the table with its downloads and actions.
  const panel = page.getByRole('region', { name: /^Claim of / });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^gift-aid-claim-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe(HEADER);
  expect(lines.at(-1)).toBe('');
  const rows = lines.slice(1, -1);
  expect(rows.length).toBe(Math.min(eligible, 1000));
  for (const row of rows) expect(row).toMatch(DONOR_LINE);

  // The same bytes from the API, on every download.
  const [claim] = (await (
    await request.get('/api/gift-aid/claims', { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { _id: string }[];
  const again = await request.get(`/api/gift-aid/claims/${claim._id}/schedule.csv`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await again.text()).toBe(csv);

  // Submitted with HMRC's reference.
  await panel.getByLabel('HMRC reference').fill('CHR123456');
  await panel.getByRole('button', { name: 'Mark submitted' }).click();
  await expect(claims.getByText('submitted')).toBeVisible();
  await expect(claims.getByText('HMRC CHR123456')).toBeVisible();
});

test('a donor is refused the Gift Aid screen data', async ({ request }) => {
  const token = await signIn(request, 'donor@example.org');
  const res = await request.get('/api/gift-aid/claims', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ statusCode: 403 });
});
