import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, gbpShort, signUp, test, useToken } from './fixtures';

/** Donating through the island in demo payments mode, on seeded appeal pages of the built worker. */

type Appeal = {
  _id: string;
  short_id: string;
  title: string;
  campaign_id: string;
  summary: { total_donations: number };
};

async function appeals(request: APIRequestContext): Promise<Appeal[]> {
  const res = await request.get('/api/appeals?limit=20');
  expect(res.ok()).toBe(true);
  return (await res.json()) as Appeal[];
}

async function raised(request: APIRequestContext, id: string): Promise<number> {
  const res = await request.get(`/api/appeals/${id}`);
  return ((await res.json()) as Appeal).summary.total_donations;
}

async function openBox(page: Page, appeal: Appeal) {
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  const box = page.locator('.donation-box');
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  return box;
}

async function fillGiftAid(page: Page) {
  await page.getByLabel('Gift Aid (UK Only)').check();
  await expect(page.getByText(/I want to Gift Aid my donation/)).toBeVisible();
  const box = page.locator('.donation-box .gift-aid-details');
  await box.getByLabel('First name').fill('Ann');
  await box.getByLabel('Last name').fill('Example');
  await box.getByLabel('House name or number').fill('1');
  await box.getByLabel('Street and town').fill('Station Road, Leeds');
  await box.getByLabel('Postcode').fill('ls1 4ap');
  await expect(page.locator('.donation-box').getByTestId('gift-aid-worth')).toContainText('with Gift Aid');
}

const cases = [
  { name: 'once without Gift Aid', monthly: false, giftAid: false, index: 0 },
  { name: 'once with Gift Aid', monthly: false, giftAid: true, index: 1 },
  { name: 'monthly without Gift Aid', monthly: true, giftAid: false, index: 2 },
  { name: 'monthly with Gift Aid', monthly: true, giftAid: true, index: 3 },
];

for (const c of cases) {
  test(`a visitor donates ${c.name} and the appeal total grows by the gift`, async ({ page, request }) => {
    const appeal = (await appeals(request))[c.index];
    const before = await raised(request, appeal._id);
    const box = await openBox(page, appeal);
    const donate = box.getByRole('button', { name: /^Donate/ });
    await expect(donate).toBeDisabled();

    const email = box.getByRole('textbox', { name: /^Email/ });
    await expect(email).toHaveCSS('border-top-color', 'rgb(138, 148, 158)');
    await email.fill('someone@');
    await expect(email).toHaveClass(/email-invalid/);
    await expect(email).toHaveCSS('border-top-color', 'rgb(180, 35, 24)');
    const address = `e2e.${c.index}.${Date.now()}@example.com`;
    await email.fill(address);
    await expect(email).toHaveClass(/email-valid/);
    await expect(email).toHaveCSS('border-top-color', 'rgb(16, 124, 65)');

    let amount: number;
    if (c.monthly) {
      await box.getByText('Donate Every Month').click();
      const select = box.getByLabel('Monthly amount');
      await expect(select.locator('option')).not.toHaveCount(1);
      const values = await select
        .locator('option')
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
      const prices = (await (await request.get('/api/stripe/subscriptions')).json()) as {
        id: string;
        unit_amount: number;
      }[];
      expect(values).toEqual(prices.map((p) => p.id));
      await select.selectOption(prices[1].id);
      amount = prices[1].unit_amount;
    } else {
      await box.getByLabel('Amount (£)').fill('12.34');
      amount = 1234;
    }
    if (c.giftAid) {
      await fillGiftAid(page);
    }
    await expect(donate).toBeEnabled();
    await donate.click();

    await expect(box.getByText('Demo mode: no card is charged.')).toBeVisible();
    await box.getByRole('button', { name: /^Pay / }).click();
    await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible();
    // The thank-you confirms the Gift Aid the gift carries and where the receipt goes.
    const details = box.getByTestId('donation-done-details');
    await expect(details).toContainText(`Your receipt is on its way to ${address}.`);
    if (c.giftAid)
      await expect(details).toContainText(
        `With Gift Aid it is worth ${new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format((amount + Math.floor(amount / 4)) / 100)}${c.monthly ? ' a month' : ''}`,
      );
    else await expect(details).not.toContainText('Gift Aid');

    await expect.poll(() => raised(request, appeal._id)).toBe(before + amount);
    if (c.giftAid) {
      // The Gift Aid beside the total grows with the gift too, without a reload.
      const fresh = await request.get(`/api/appeals/${appeal._id}`, { headers: { 'cache-control': 'no-cache' } });
      const giftAid = ((await fresh.json()) as { summary: { gift_aid: number } }).summary.gift_aid;
      expect(giftAid).toBeGreaterThanOrEqual(Math.floor(amount / 4));
      await expect(page.locator('.detail-raised .gift-aid-plus')).toHaveText(` + ${gbpShort(giftAid)} Gift Aid`);
    }
    await page.reload();
    await expect(page.locator('.detail-raised strong')).toHaveText(gbpShort(before + amount));
  });
}

test('a declined demo card is explained to the donor and nothing is counted', async ({ page, request }) => {
  const appeal = (await appeals(request))[4];
  const before = await raised(request, appeal._id);
  const box = await openBox(page, appeal);
  await box.getByRole('textbox', { name: /^Email/ }).fill('declined@example.com');
  await box.getByLabel('Amount (£)').fill('5');
  // The card step comes with its form: its heading takes the focus, and a placeholder there would let
  // a keyboard user's Tab skip past the box (walk4.spec.ts).
  await page.evaluate(() => {
    const seen = { placeholder: false };
    (window as unknown as { cardStep: typeof seen }).cardStep = seen;
    new MutationObserver(() => {
      if (document.querySelector('.donation-box')?.textContent?.includes('Loading the payment form'))
        seen.placeholder = true;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await box.getByRole('button', { name: /^Donate/ }).click();
  await expect(box.getByRole('heading', { name: 'Donate £5.00' })).toBeFocused();
  await expect(box.getByLabel('Card number')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { cardStep: { placeholder: boolean } }).cardStep)).toEqual({
    placeholder: false,
  });
  await box.getByLabel('Card number').fill('4000 0000 0000 0002');
  await box.getByRole('button', { name: /^Pay / }).click();
  await expect(box.getByRole('alert')).toContainText('Your card was declined');
  expect(await raised(request, appeal._id)).toBe(before);
});

test('returning with donation=success shows the thank-you', async ({ page, request }) => {
  const appeal = (await appeals(request))[0];
  await page.goto(`/appeals/${appeal.short_id}?donation=success`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  const box = page.locator('.donation-box');
  await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible();
});

test('returning from a payment that did not go through shows the failure, not the thank-you', async ({
  page,
  request,
}) => {
  const appeal = (await appeals(request))[1];
  await page.goto(`/appeals/${appeal.short_id}?donation=complete&redirect_status=requires_payment_method`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  await expect(box.getByRole('alert')).toHaveText(
    'Your payment could not be completed, so no donation was taken. Please try again.',
  );
  await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toHaveCount(0);
  await expect(box.getByRole('button', { name: /^Donate/ })).toBeVisible();
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/donate-return-failed.png' });
});

test('the donation box is accessible and fits a phone screen', async ({ page, request }) => {
  const appeal = (await appeals(request))[5];
  await page.setViewportSize({ width: 390, height: 844 });
  const box = await openBox(page, appeal);
  await box.getByRole('textbox', { name: /^Email/ }).fill('phone@example.com');
  await box.getByLabel('Amount (£)').fill('20');
  await fillGiftAid(page);
  const width = await box.evaluate((el) => el.getBoundingClientRect().width);
  expect(width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/donate-phone.png' });
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  if (process.env.SCREENSHOTS) await page.screenshot({ path: 'test-results/donate-desktop.png', fullPage: false });
  await box.getByRole('button', { name: /^Donate/ }).click();
  await expect(box.getByText('Demo mode: no card is charged.')).toBeVisible();
  if (process.env.SCREENSHOTS) await box.screenshot({ path: 'test-results/donate-demo-card.png' });
  await expectNoAxeViolations(page);
});

test("a guest's name goes with the message: typed, or taken from the Gift Aid name", async ({ page, request }) => {
  const [appeal] = await appeals(request);
  const box = await openBox(page, appeal);
  const name = box.locator('.donor-name');
  await box.getByRole('textbox', { name: /^Email/ }).fill(`named.${Date.now()}@example.com`);
  await box.getByLabel('Amount (£)').fill('3');
  await fillGiftAid(page);
  // Prefilled from the Gift Aid name until the donor types their own.
  await expect(name.getByLabel('First name')).toHaveValue('Ann');
  await expect(name.getByLabel('Last name')).toHaveValue('Example');
  await name.getByLabel('First name').fill('<b>Ann</b>');
  await expect(name.getByText('A name cannot contain < or >')).toBeVisible();
  await expect(box.getByRole('button', { name: /^Donate/ })).toBeDisabled();
  await name.getByLabel('First name').fill('Annie');
  await box.getByLabel(/message of support/i).fill(`Go team ${Date.now()}`);
  await box.getByRole('button', { name: /^Donate/ }).click();
  await box.getByRole('button', { name: /^Pay / }).click();
  await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible();
  const messages = (await (await request.get(`/api/appeals/${appeal._id}/messages`)).json()) as {
    name: string;
    message: string;
  }[];
  expect(messages[0]).toMatchObject({ name: 'Annie E.' });
});

test('the name a guest typed fills the Gift Aid declaration when they tick Gift Aid', async ({ page, request }) => {
  const [appeal] = await appeals(request);
  const box = await openBox(page, appeal);
  const name = box.locator('.donor-name');
  await name.getByLabel('First name').fill('Wendy');
  await name.getByLabel('Last name').fill('Walker');
  await box.getByLabel('Gift Aid (UK Only)').check();
  const declaration = box.locator('.gift-aid-details');
  await expect(declaration.getByLabel('First name')).toHaveValue('Wendy');
  await expect(declaration.getByLabel('Last name')).toHaveValue('Walker');
  // Here the gift confirms the declaration, and the box says so.
  await expect(declaration.getByText('By donating with Gift Aid ticked you confirm this declaration.')).toBeVisible();
  // The disabled Donate button says what it still waits for, and stops saying it once all is there.
  const missing = box.getByTestId('donate-missing');
  await expect(missing).toHaveText(
    'To donate, add a valid email, an amount and your Gift Aid name, house and postcode.',
  );
  await box.getByRole('textbox', { name: /^Email/ }).fill(`declared.${Date.now()}@example.com`);
  await box.getByLabel('Amount (£)').fill('0');
  await expect(missing).toHaveText('To donate, add a valid amount and your Gift Aid name, house and postcode.');
  await box.getByLabel('Amount (£)').fill('5');
  await declaration.getByLabel('House name or number').fill('12');
  await expect(missing).toHaveText('To donate, add your Gift Aid name, house and postcode.');
  await declaration.getByLabel('Postcode').fill('SW1A 1AA');
  await expect(missing).toHaveCount(0);
  await expect(box.getByRole('button', { name: /^Donate/ })).toBeEnabled();
});

test('a returning donor’s Gift Aid details come from their declaration in force, and their new gift keeps one on record', async ({
  page,
  request,
}) => {
  const [appeal] = await appeals(request);
  const token = await signUp(request, `returning.${Date.now()}@example.com`, { first_name: 'Rae', last_name: 'Moss' });
  const auth = { authorization: `Bearer ${token}` };
  // Their first gift, with Gift Aid: the declaration HMRC will hold.
  const started = await request.post('/api/stripe/client_secret', {
    headers: auth,
    data: {
      amount: 1000,
      campaign_id: appeal.campaign_id,
      appeal_id: appeal._id,
      giftAid: true,
      gift_aid: { first_name: 'Rae', last_name: 'Moss', house: '7', address: 'Mill Lane, Leeds', postcode: 'LS1 4AP' },
    },
  });
  expect(started.status(), await started.text()).toBe(200);
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  expect((await request.post('/api/stripe/demo/confirm', { data: { clientSecret } })).ok()).toBe(true);

  await useToken(page, token);
  const box = await openBox(page, appeal);
  await box.getByLabel('Amount (£)').fill('6');
  await box.getByLabel('Gift Aid (UK Only)').check();
  const declaration = box.locator('.gift-aid-details');
  await expect(declaration.getByLabel('House name or number')).toHaveValue('7');
  await expect(declaration.getByLabel('Street and town')).toHaveValue('Mill Lane, Leeds');
  await expect(declaration.getByLabel('Postcode')).toHaveValue('LS1 4AP');
  await box.getByRole('button', { name: /^Donate/ }).click();
  await box.getByRole('button', { name: /^Pay / }).click();
  await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible();
  // Two declarations on record, one in force: the new gift's, with the same address.
  await expect
    .poll(async () => {
      const mine = (await (await request.get('/api/gift-aid/me', { headers: auth })).json()) as {
        declarations: { effective: boolean; house: string }[];
      };
      return [mine.declarations.length, mine.declarations.filter((d) => d.effective).map((d) => d.house)];
    })
    .toEqual([2, ['7']]);
});

test('what a quick visitor types before the box hydrates counts once it does', async ({ page, request }) => {
  const [appeal] = await appeals(request);
  // Hold the box's code back, as a slow phone connection would, while the visitor types.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_astro\/DonationBox\.[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/appeals/${appeal.short_id}`);
  const island = page.locator('astro-island:has(.donation-box)');
  await island.scrollIntoViewIfNeeded();
  await expect(island).toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  await box.getByRole('textbox', { name: /^Email/ }).fill(`quick.${Date.now()}@example.com`);
  await box.getByLabel('Amount (£)').fill('8');
  await box.getByLabel('Gift Aid (UK Only)').check();
  release();
  await expect(island).not.toHaveAttribute('ssr', /.*/);
  await expect(box.getByTestId('gift-aid-worth')).toContainText('£8.00');
  // The Gift Aid tick counts too: its declaration's fields open, and Donate waits for them.
  await expect(box.getByLabel('Gift Aid (UK Only)')).toBeChecked();
  await expect(box.locator('.gift-aid-details')).toBeVisible();
  await expect(box.getByTestId('donate-missing')).toHaveText('To donate, add your Gift Aid name, house and postcode.');
});
