import { readFile } from 'node:fs/promises';
import { readZip } from '../support/ods-reader';
import { expect, signIn, test, useToken } from './fixtures';

const londonToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());

/**
 * Gift Aid operations as an admin runs them: a paper declaration on a donor's page, a batch gift
 * verified against it as it is entered, a claim with its gifts, its ODS schedule, and voiding the draft.
 */
test('an admin adds a paper declaration, verifies a batch gift, creates a claim, downloads its ODS, opens its gifts and voids the draft', async ({
  page,
  request,
}, testInfo) => {
  const { token } = await signIn(request, 'admin@example.org');
  const auth = { authorization: `Bearer ${token}` };
  const [org] = (await (await request.get('/api/organizations?limit=100', { headers: auth })).json()) as {
    _id: string;
    name: string;
  }[];
  const email = `paper-${Date.now()}@example.org`;
  const donor = (await (
    await request.post('/api/users', {
      headers: auth,
      data: { email, first_name: 'Pat', last_name: 'Paper', type: 'donor' },
    })
  ).json()) as { _id: string };
  expect(donor._id).toBeTruthy();
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(`gift-aid-ops-${name}.png`), fullPage: true });

  await useToken(page, token);
  await page.setViewportSize({ width: 1280, height: 900 });
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
  await declarations.getByRole('button', { name: 'Save declaration' }).click();
  await expect(declarations.getByText('Paper declaration recorded.')).toBeVisible();
  await expect(declarations.getByText('in force')).toBeVisible();
  await expect(declarations).toContainText('Made on');
  await shot('declarations-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot('declarations-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Batch entry: the Gift Aid line is checked against the declaration as it is entered.
  await page.goto('/dashboard/batches/add');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByLabel('Organization').selectOption(org._id);
  await page.getByLabel('Method').selectOption('cheque');
  await page.getByLabel('Expected total (£)').fill('40.00');
  const line = page.getByRole('group', { name: 'Gift 1' });
  await line.getByLabel('Search donors').fill(email);
  await expect(line.getByRole('combobox', { name: 'Donor' }).locator(`option[value="${donor._id}"]`)).toHaveCount(1);
  await line.getByRole('combobox', { name: 'Donor' }).selectOption(donor._id);
  await line.getByLabel('Amount (£)').fill('40');
  await line.getByLabel(/^Gift Aid/).check();
  await expect(line.getByRole('status')).toContainText('Gift Aid verified: a paper declaration made on');
  // A benefit above HMRC's limits takes Gift Aid off the line.
  await line.getByLabel('Benefit above HMRC limits').check();
  await expect(line.getByRole('status')).toContainText('Not eligible for Gift Aid');
  await expect(line.getByLabel(/^Gift Aid/)).toBeDisabled();
  await line.getByLabel('Benefit above HMRC limits').uncheck();
  await line.getByLabel(/^Gift Aid/).check();
  await expect(line.getByRole('status')).toContainText('Gift Aid verified');
  await shot('batch-1280');
  await page.getByRole('button', { name: 'Post batch' }).click();
  await page.getByRole('button', { name: 'Confirm and post' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Batch banked / })).toBeVisible();

  await page.goto('/dashboard/gift-aid');
  await page.waitForSelector('astro-island:not([ssr])');
  await page.getByLabel('Organization').selectOption(org._id);
  await expect(page.locator('.gift-aid-eligible-summary')).not.toContainText('0 eligible gifts');
  // The adjustments (of every organization the viewer sees) are a table, or a line saying there are none.
  await expect(
    page.getByRole('table', { name: 'Gift Aid adjustments' }).or(page.getByText('No refunds of claimed gifts.')),
  ).toBeVisible();
  // Days the wrong way round are said in the form's words, and no claim is made of them.
  await page.getByLabel('From', { exact: true }).fill('2026-11-30');
  await page.getByLabel('To', { exact: true }).fill('2026-11-01');
  await expect(page.getByText('The “To” date must be on or after the “From” date.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create claim' })).toBeDisabled();
  await page.getByLabel('To', { exact: true }).fill('');
  await page.getByLabel('From', { exact: true }).fill('');
  await expect(page.locator('.gift-aid-eligible-summary')).not.toContainText('0 eligible gifts');
  await page.getByRole('button', { name: 'Create claim' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Claim created' })).toBeVisible();
  const claims = page.getByRole('table', { name: 'Gift Aid claims' });
  await expect(claims.getByRole('row').filter({ hasText: 'draft' }).first()).toBeVisible();
  // At 1280 px the claims list fits beside the menu: each claim's Open button is in view, not scrolled off.
  await claims.scrollIntoViewIfNeeded();
  await expect(claims.getByRole('button', { name: /^Open the claim of / }).first()).toBeInViewport({ ratio: 1 });
  // The new claim opens with its gifts: the batch gift is on it.
  const panel = page.getByRole('region', { name: /^Claim of / });
  const gifts = panel.getByRole('table', { name: 'Gifts in this claim' });
  await expect(gifts.getByRole('link', { name: 'Pat Paper' })).toBeVisible();
  await expect(gifts.getByRole('row').filter({ hasText: 'Pat Paper' })).toContainText('£40.00');
  await expect(panel).toContainText('Use the ODS');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download ODS' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^gift-aid-claim-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.ods$/);
  const ods = new Uint8Array(await readFile((await download.path())!));
  expect(Buffer.from(ods.subarray(0, 2)).toString('latin1')).toBe('PK');
  const entries = readZip(ods);
  expect(entries[0].name).toBe('mimetype');
  const content = new TextDecoder().decode(entries.find((e) => e.name === 'content.xml')!.data);
  expect(content).toContain('office:value-type="float" office:value="40.00"');
  expect(content).toContain(`office:value-type="date" office:date-value="${londonToday()}"`);

  await shot('claim-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot('claim-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // An empty HMRC reference gets one sentence, and nothing changes.
  await panel.getByRole('button', { name: 'Mark submitted' }).click();
  await expect(panel.getByRole('alert')).toHaveText(
    "Enter HMRC's reference for this submission before marking it submitted.",
  );

  page.once('dialog', (dialog) => void dialog.accept());
  await panel.getByRole('button', { name: 'Void claim' }).click();
  await expect(panel).toContainText('Voided; its gifts can be claimed again.');
  await expect(claims.getByText('void').first()).toBeVisible();
  await expect(page.locator('.gift-aid-eligible-summary')).not.toContainText('0 eligible gifts');
  await expect(page.getByRole('table', { name: 'Eligible gifts' })).toContainText('Pat Paper');
  await page.getByRole('region', { name: 'Gift Aid Small Donations Scheme' }).scrollIntoViewIfNeeded();
  await shot('screen-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot('screen-390');
});

test('an admin marks an appeal a sponsored event in the editor', async ({ page, request }, testInfo) => {
  const { token } = await signIn(request, 'admin@example.org');
  const auth = { authorization: `Bearer ${token}` };
  const campaigns = (await (await request.get('/api/campaigns?limit=50', { headers: auth })).json()) as {
    _id: string;
  }[];
  let appeal: { _id: string; sponsored_event: boolean } | undefined;
  for (const campaign of campaigns) {
    [appeal] = (await (await request.get(`/api/campaigns/${campaign._id}/appeals`, { headers: auth })).json()) as {
      _id: string;
      sponsored_event: boolean;
    }[];
    if (appeal) break;
  }
  expect(appeal, 'the seed has an appeal').toBeTruthy();
  expect(appeal!.sponsored_event).toBe(false);

  await useToken(page, token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard/active-appeals-edit/${appeal!._id}`);
  await page.waitForSelector('astro-island:not([ssr])');
  // Another status says what saving it tells the fundraiser (decision 064); chosen back, nothing.
  const status = page.getByRole('combobox', { name: 'Status' });
  await expect(status).toHaveValue('approved');
  await status.selectOption('draft');
  await expect(status).toHaveAccessibleDescription(
    'Saving emails the fundraiser who started it (unless that is you), and anyone giving to it monthly, that it is off the site.',
  );
  await status.selectOption('approved');
  await expect(page.getByText('Saving emails the fundraiser')).toHaveCount(0);
  const sponsored = page.getByLabel('Sponsored event');
  await expect(sponsored).not.toBeChecked();
  await expect(page.getByText('carry “Yes” in the Sponsored event column')).toBeVisible();
  await sponsored.check();
  await page.screenshot({ path: testInfo.outputPath('gift-aid-ops-sponsored-editor-1280.png'), fullPage: true });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard\/active-appeals(\?|$)/);
  const saved = (await (await request.get(`/api/campaigns/${appeal!._id}`, { headers: auth })).json()) as {
    sponsored_event: boolean;
  };
  expect(saved.sponsored_event).toBe(true);

  // Back as the seed had it, unticked in the editor, so other tests' schedules are unchanged.
  await page.goto(`/dashboard/active-appeals-edit/${appeal!._id}`);
  await expect(page.getByLabel('Sponsored event')).toBeChecked();
  await page.getByLabel('Sponsored event').uncheck();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard\/active-appeals(\?|$)/);
  expect(
    (
      (await (await request.get(`/api/campaigns/${appeal!._id}`, { headers: auth })).json()) as {
        sponsored_event: boolean;
      }
    ).sponsored_event,
  ).toBe(false);
});
