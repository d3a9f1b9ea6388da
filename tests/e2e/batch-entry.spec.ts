import { expect, signIn, test, useToken } from './fixtures';

// Entered on a phone-sized screen: the form must work at 390 px; the posted batch is also shown at 1280.
test('an admin enters a batch of three cheques, posts it once the total matches, and sees the posted batch', async ({
  page,
  request,
}, testInfo) => {
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/batches/add');
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.getByRole('heading', { level: 1, name: 'Batch entry' })).toBeVisible();

  const organization = page.getByLabel('Organization');
  const firstOrg = await organization.locator('option').nth(1).getAttribute('value');
  await organization.selectOption(firstOrg!);
  await page.getByLabel('Method').selectOption('cheque');
  await page.getByLabel('Reference', { exact: true }).fill('Slip 2041');
  await page.getByLabel('Expected total (£)').fill('60.50');

  const amounts = ['10', '20.50', '30'];
  for (const [index, amount] of amounts.entries()) {
    if (index > 0) await page.getByRole('button', { name: 'Add a gift' }).click();
    const line = page.getByRole('group', { name: `Gift ${index + 1}` });
    await line.getByLabel('New donor').check();
    await line.getByLabel('First name').fill(`Cheque${index + 1}`);
    await line.getByLabel('Last name').fill('Writer');
    await line.getByLabel('Amount (£)').fill(amount);
    await line.getByLabel('Cheque or voucher number').fill(`00010${index + 1}`);
  }
  const post = page.getByRole('button', { name: 'Post batch' });
  await expect(page.getByTestId('batch-running-total')).toHaveText('£60.50');
  await expect(post).toBeEnabled();
  await page.screenshot({ path: testInfo.outputPath('batch-entry-390.png'), fullPage: true });

  // A total that does not match the slip keeps the button disabled, and the form says why.
  await page.getByLabel('Expected total (£)').fill('60.00');
  await expect(post).toBeDisabled();
  await expect(page.getByText('Difference £0.50')).toBeVisible();
  await expect(page.getByTestId('batch-not-ready')).toHaveText('The gifts must add up to the expected total.');
  await page.getByLabel('Expected total (£)').fill('60.50');
  await expect(page.getByTestId('batch-not-ready')).toHaveCount(0);
  // A line's amount that is not one is said under it, and beside Post.
  const firstAmount = page.getByRole('group', { name: 'Gift 1' }).getByLabel('Amount (£)');
  await firstAmount.fill('-10');
  await expect(page.getByRole('group', { name: 'Gift 1' })).toContainText(
    'Type an amount above £0 in pounds, like 25 or 12.50',
  );
  await expect(page.getByTestId('batch-not-ready')).toHaveText('Gift 1 needs an amount above £0.');
  await expect(post).toBeDisabled();
  await firstAmount.fill('10');

  // A day not yet come is refused beside the field, before any confirmation.
  const bankedOn = page.getByLabel('Banked on');
  const today = await bankedOn.inputValue();
  await bankedOn.fill('2099-01-01');
  await expect(page.getByText('The banked day cannot be in the future')).toBeVisible();
  await expect(page.getByTestId('batch-not-ready')).toHaveText('Mend the banked day above.');
  await expect(post).toBeDisabled();
  await bankedOn.fill(today);
  await expect(page.getByText('The banked day cannot be in the future')).toHaveCount(0);

  // From the keyboard: the confirmation takes the focus (on its safe choice), and gives it back.
  await post.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Confirm the batch' });
  await expect(confirm.getByRole('button', { name: 'Back to the batch' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(post).toBeFocused();
  await post.click();
  // The banked day as people write it, "24 November 2026", not 2026-11-24.
  const longDay = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(`${today}T12:00:00Z`));
  await expect(confirm).toContainText(`Post 3 gifts totalling £60.50 by cheque to`);
  await expect(confirm).toContainText(`banked on ${longDay}?`);
  await page.getByRole('button', { name: 'Confirm and post' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Batch banked ${longDay}` })).toBeVisible();
  const gifts = page.getByRole('table', { name: 'Gifts in this batch' });
  await expect(gifts.getByRole('row')).toHaveCount(4);
  await expect(gifts).toContainText('Cheque2 Writer');
  await expect(gifts).toContainText('General fund');
  // Each line's status in words, linking to its gift's page.
  await expect(gifts.getByRole('link', { name: 'Banked' })).toHaveCount(3);
  await page.screenshot({ path: testInfo.outputPath('batch-posted-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.reload();
  await expect(page.getByRole('table', { name: 'Gifts in this batch' }).getByRole('row')).toHaveCount(4);
  await page.screenshot({ path: testInfo.outputPath('batch-posted-1280.png'), fullPage: true });

  // A gift's page names its paper donor without showing the stand-in address kept for them.
  await gifts.getByRole('row').nth(1).getByRole('link').click();
  // It says how it was paid and leads back to its batch.
  const payment = page.getByRole('region', { name: 'Payment' });
  await expect(payment.getByRole('link', { name: 'Cheque1 Writer' })).toBeVisible();
  await expect(page.locator('main')).not.toContainText('donors.invalid');
  await expect(payment).toContainText('Cheque');
  // A banked gift is not edited in place: the page says how it is corrected instead of offering a form.
  await expect(page.getByRole('region', { name: 'Edit the gift’s details' })).toHaveCount(0);
  await expect(page.getByText('reverse it and enter the right one in a new batch')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('batch-gift-1280.png'), fullPage: true });
  // A phone loads the page afresh (the sidebar starts closed there).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(payment.getByRole('link', { name: 'Open its batch' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('batch-gift-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  const giftUrl = page.url();
  await payment.getByRole('link', { name: 'Open its batch' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Batch banked ${longDay}` })).toBeVisible();
  await page.goto(giftUrl);
  await page.getByRole('region', { name: 'Payment' }).getByRole('link', { name: 'Cheque1 Writer' }).click();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue('no email');

  // The list of batches shows the new one (with no batches it would say so instead of an empty table).
  await page.goto('/dashboard/batches');
  await expect(
    page.getByRole('table', { name: 'Batches' }).getByRole('row').filter({ hasText: '£60.50' }),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('batch-list-1280.png'), fullPage: true });
});

test('a paying-in slip of cheques and cash is one batch: each gift says how it was paid', async ({ page, request }) => {
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  await page.goto('/dashboard/batches/add');
  await page.waitForSelector('astro-island:not([ssr])');
  const organization = page.getByLabel('Organization');
  await organization.selectOption((await organization.locator('option').nth(1).getAttribute('value'))!);
  await page.getByLabel('Method').selectOption('cheque');
  await page.getByLabel('Reference', { exact: true }).fill('Mixed slip 3301');
  await page.getByLabel('Expected total (£)').fill('45');
  for (const [index, amount] of ['25', '20'].entries()) {
    if (index > 0) await page.getByRole('button', { name: 'Add a gift' }).click();
    const line = page.getByRole('group', { name: `Gift ${index + 1}` });
    await line.getByLabel('New donor').check();
    await line.getByLabel('First name').fill(`Mixed${index + 1}`);
    await line.getByLabel('Last name').fill('Giver');
    await line.getByLabel('Amount (£)').fill(amount);
  }
  // The first gift is as the slip; the second was cash in the same deposit.
  const second = page.getByRole('group', { name: 'Gift 2' });
  await expect(second.getByLabel('Paid by')).toHaveValue('');
  await expect(second.getByLabel('Paid by').locator('option').first()).toHaveText('As the slip (cheque)');
  await second.getByLabel('Paid by').selectOption('cash');
  await page.getByRole('button', { name: 'Post batch' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Confirm the batch' });
  await expect(confirm).toContainText('Post 2 gifts totalling £45.00 by cheque and cash to');
  await page.getByRole('button', { name: 'Confirm and post' }).click();
  await expect(page.locator('.dash-batch-summary')).toContainText('2 gifts by cheque and cash to');
  const gifts = page.getByRole('table', { name: 'Gifts in this batch' });
  await expect(gifts.getByRole('columnheader', { name: 'Paid by' })).toBeVisible();
  await expect(gifts.getByRole('row', { name: /Mixed1 Giver/ })).toContainText('cheque');
  await expect(gifts.getByRole('row', { name: /Mixed2 Giver/ })).toContainText('cash');
  await page.goto('/dashboard/batches');
  await expect(page.getByRole('row', { name: /Mixed slip 3301/ })).toContainText('cheque and cash');
});

test('a tin collection is entered as its total with no donor, cash or contactless only', async ({ page, request }) => {
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/batches/add');
  await page.waitForSelector('astro-island:not([ssr])');
  const organization = page.getByLabel('Organization');
  await organization.selectOption((await organization.locator('option').nth(1).getAttribute('value'))!);
  await page.getByLabel('Reference', { exact: true }).fill('Tin slip 7710');
  await page.getByLabel('Expected total (£)').fill('143.20');
  const line = page.getByRole('group', { name: 'Gift 1' });
  await line.getByLabel('Tin or bucket collection (its total, no donor)').check();
  // No donor to choose, no Gift Aid or receipt to tick.
  await expect(line.getByLabel('Donor', { exact: true })).toHaveCount(0);
  await expect(line.getByLabel('New donor')).toHaveCount(0);
  await expect(line.getByRole('checkbox', { name: /Gift Aid|receipt/ })).toHaveCount(0);
  await line.getByLabel('Amount (£)').fill('143.20');
  await line.getByLabel('Where and when collected').fill('Shop counter tin, March');
  // The slip says cheque (the form's first choice): a collection cannot be.
  await expect(page.getByTestId('batch-not-ready')).toHaveText(
    'Gift 1 needs to be paid by cash or contactless (a collection).',
  );
  await page.getByLabel('Method').selectOption('cash');
  await expect(page.getByTestId('batch-not-ready')).toHaveCount(0);
  await page.getByRole('button', { name: 'Post batch' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Confirm the batch' })).toContainText(
    'Post 1 gift totalling £143.20 by cash to',
  );
  await page.getByRole('button', { name: 'Confirm and post' }).click();
  const gifts = page.getByRole('table', { name: 'Gifts in this batch' });
  await expect(gifts).toContainText('Tin and bucket collections');
  await expect(gifts).toContainText('Shop counter tin, March');
});
