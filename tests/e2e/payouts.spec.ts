import { readFile } from 'node:fs/promises';
import { expect, signIn, test, useToken } from './fixtures';

const londonDay = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(date);

test('an admin opens Payouts after the housekeeping run made the demo payout, and sees its lines', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const { token } = await signIn(request, 'admin@example.org');
  // The Cron Trigger's run: demo mode pays out each organization's settled demo gifts once a day.
  expect((await request.get('/cdn-cgi/handler/scheduled?cron=23+*+*+*+*')).status()).toBe(200);
  const listed = async () =>
    (await (
      await request.get('/api/finance/payouts?limit=50', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { _id: string; amount: number }[];
  await expect.poll(async () => (await listed()).length).toBeGreaterThan(0);
  const [newest] = await listed();

  await useToken(page, token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/overview');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByRole('link', { name: 'Payouts' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payouts' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Payouts' });
  await expect(table.getByRole('row').nth(1)).toContainText('paid');
  await page.screenshot({ path: testInfo.outputPath('payouts-1280.png'), fullPage: true });

  await page.goto(`/dashboard/payouts/${newest._id}`);
  await page.waitForSelector('astro-island:not([ssr])');
  const lines = page.getByRole('table', { name: 'Lines in this payout' });
  await expect(lines.getByRole('row').nth(1)).toBeVisible();
  // Each gift links to its donation page, and the lines add up to the deposit.
  await expect(lines.getByRole('link').first()).toHaveAttribute('href', /\/dashboard\/donations\/edit\//);
  const deposit = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(newest.amount / 100);
  await expect(lines.locator('tfoot')).toContainText(deposit);
  await page.screenshot({ path: testInfo.outputPath('payout-lines-1280.png'), fullPage: true });
  // Its CSV opens in Excel as it should (byte order mark, numbers as numbers) and its Net column adds up to the deposit.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe(`payout-${newest._id}.csv`);
  const csvText = await readFile((await csv.path())!, 'utf8');
  expect(
    csvText.startsWith('\uFEFFPayout,Arrives,Balance transaction,Type,Donation,Donor,Campaign,Gross,Fee,Net\r\n'),
  ).toBe(true);
  const netPence = csvText
    .trim()
    .split('\r\n')
    .slice(1)
    .map((row) => Math.round(Number(row.split(',').at(-1)) * 100));
  expect(netPence.every(Number.isFinite)).toBe(true);
  expect(netPence.reduce((a, b) => a + b, 0)).toBe(newest.amount);
  // A phone loads the page afresh (the sidebar starts closed there).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('table', { name: 'Lines in this payout' }).locator('tfoot')).toContainText(deposit);
  await page.screenshot({ path: testInfo.outputPath('payout-lines-390.png'), fullPage: true });
  await page.goto('/dashboard/payouts');
  await expect(page.getByRole('table', { name: 'Payouts' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('payouts-390.png'), fullPage: true });
});

test('the journal downloaded: From and To on the donations list, then Journal for Xero or Sage, balances', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/donations');
  await page.waitForSelector('astro-island:not([ssr])');
  // Pressed before the days are chosen, the button says what it needs and takes the focus to From.
  const journal = page.getByRole('button', { name: 'Journal for Xero (CSV)' });
  const needsDays = page.getByRole('search', { name: 'Search and filter donations' }).getByRole('alert');
  await journal.click();
  await expect(needsDays).toHaveText(/Choose the From and To dates of the journal first/);
  await expect(page.getByLabel('From', { exact: true })).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('journal-needs-days-1280.png') });
  const to = new Date();
  const from = new Date(to.getTime() - 60 * 86_400_000);
  await page.getByLabel('From', { exact: true }).fill(londonDay(from));
  await page.getByLabel('To', { exact: true }).fill(londonDay(to));
  await expect(needsDays).toHaveCount(0);
  const [sage] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Journal for Sage (CSV)' }).click(),
  ]);
  const sageText = (await readFile((await sage.path())!, 'utf8')).replace(/^\uFEFF/, '');
  expect(sageText.split(/\r?\n/)[0]).toBe('Date,Reference,Nominal code,Details,Debit,Credit,Fund');
  const [download] = await Promise.all([page.waitForEvent('download'), journal.click()]);
  const text = await readFile((await download.path())!, 'utf8');
  const [header, ...rows] = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(header).toBe('*Narration,*Date,Description,*AccountCode,*TaxRate,*Amount,TrackingName1,TrackingOption1');
  expect(rows.length).toBeGreaterThan(0);
  // Xero's manual journal: debits are positive amounts, credits negative; they must cancel out.
  const amounts = rows.map((row) => {
    const cells = row.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, '').replace(/^"|"$/g, ''));
    return Math.round(Number(cells[5]) * 100);
  });
  const debits = amounts.filter((a) => a > 0).reduce((s, a) => s + a, 0);
  const credits = -amounts.filter((a) => a < 0).reduce((s, a) => s + a, 0);
  expect(debits).toBeGreaterThan(0);
  expect(debits).toBe(credits);
});
