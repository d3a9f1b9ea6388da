import type { Page } from '@playwright/test';
import { expect, firstApproved, islandHydrated, test, useToken } from './fixtures';

/** Uncaught errors and console errors the page logs from now on. */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

test('home: the hero and prize images sit beside their text at 1280 px and leave no gap on a phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  for (const [text, image] of [
    ['.hero-text', '.hero-image'],
    ['.prize > div', '.prize img'],
  ]) {
    const words = await box(page, text);
    const picture = await box(page, image);
    // Same grid row: the image starts beside the text, not under it.
    expect(picture.x, image).toBeGreaterThan(words.x + words.width);
    expect(picture.y, image).toBeLessThan(words.y + words.height);
  }
  expect(
    await page.locator('.hero-inner').evaluate((el) => getComputedStyle(el).gridTemplateRows.split(' ').length),
  ).toBe(1);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const words = await box(page, '.hero-text');
  const picture = await box(page, '.hero-image');
  // One 2.5rem grid gap between text and image, no empty rows for <source> elements.
  expect(picture.y - (words.y + words.height)).toBeLessThanOrEqual(41);
});

test('signed in on a phone, an appeal page hydrates its donation box without a React error', async ({
  page,
  request,
  signInAs,
}) => {
  const appeal = await firstApproved(request, '/api/appeals');
  await useToken(page, await signInAs('donor@example.org'));
  await page.setViewportSize({ width: 390, height: 844 });
  const errors = collectErrors(page);
  await page.goto(`/appeals/${appeal.short_id}`);
  // The header has loaded the user before the box (far below) is scrolled to and hydrates.
  await expect(page.locator('header').getByRole('button', { name: /^Account menu for/ })).toBeVisible();
  await page.locator('#donate').scrollIntoViewIfNeeded();
  await islandHydrated(page.locator('astro-island[component-url*="DonationBox"]'));
  // Signed in: the box asks for no email.
  await expect(page.locator('#donate').getByLabel('Email', { exact: true })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the checkout mock-ups are labelled previews that cannot send anything', async ({ page }) => {
  for (const path of ['/donate', '/donate-campaign']) {
    await page.goto(path);
    await expect(page.getByRole('note')).toContainText('cannot take a payment and sends nothing');
    await expect(page.locator('main form')).toHaveCount(0);
    const fields = page.locator('main input');
    expect(await fields.count()).toBeGreaterThan(5);
    for (const field of await fields.all()) await expect(field).toBeDisabled();
    await expect(page.getByLabel('Card number')).toBeDisabled();
    await page.getByRole('link', { name: 'Choose an appeal to donate' }).click();
    await expect(page).toHaveURL('/appeals');
  }
});

test('/login opens the real sign-in dialog, focus on the email field and then on the code field', async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto('/login');
  await expect(page.getByText(/login link/)).toHaveCount(0);
  const dialog = page.getByRole('dialog', { name: 'Log in or sign up' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Email address')).toBeFocused();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await page.locator('main').getByRole('button', { name: 'Log in or sign up' }).click();
  await expect(dialog.getByLabel('Email address')).toBeFocused();
  await page.keyboard.type('walk-fixes-login@example.org');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Enter your code' }).getByLabel('6-digit code')).toBeFocused();
  expect(errors).toEqual([]);
});

test("the header's Login shows it heard a tap made before its script arrived", async ({ page }) => {
  // A slow phone: the sign-in island's script (and React) arrive a second after the tap.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/_astro/HeaderAuth*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/campaigns');
  const login = page.locator('header').getByRole('button', { name: 'Login' });
  await login.click();
  await expect(login).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(page.getByRole('dialog', { name: 'Log in or sign up' }).getByLabel('Email address')).toBeFocused();
  await expect(page.locator('header [aria-busy]')).toHaveCount(0);
});

test("the header's Login opens the dialog with focus on the email field", async ({ page }) => {
  await page.goto('/campaigns');
  // The first click hydrates the header island and is replayed once React is there.
  await page.locator('header').getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('dialog', { name: 'Log in or sign up' }).getByLabel('Email address')).toBeFocused();
});

test('a new appeal waiting for approval says so on My Appeals', async ({ page, signInAs }) => {
  await useToken(page, await signInAs('donor@example.org'));
  await page.goto('/dashboard/active-appeals?created=AAAAAAAAAAAAAAAAAAAAAA&status=draft');
  const notice = page.getByRole('status').filter({ hasText: 'waiting for approval' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('until they approve it');
  await expect(page.getByText('Your appeal is live')).toHaveCount(0);
});

test('the operator and each receiving charity are named consistently: footer, /fees, /policy, campaign pages', async ({
  page,
  request,
}) => {
  await page.goto('/fees');
  const footer = page.locator('footer');
  await expect(footer).toContainText('UK NFP runs this website');
  await expect(footer).not.toContainText('1187342');
  const charities = page.locator('.fee-charities li');
  await expect(charities).toHaveText([
    'Harbour Food Network: Scottish charity number SC051234 (Office of the Scottish Charity Regulator)',
    'Homes & Hearts Trust: Registered charity number 1174409 (Charity Commission for England and Wales)',
    'Wells for Hope: Registered charity number 1187342 (Charity Commission for England and Wales)',
  ]);
  await expect(page.locator('.fee-table .total th').first()).toHaveText('The charity receives');
  await page.goto('/policy');
  await expect(page.locator('main')).toContainText('UK NFP runs this website');
  await expect(page.locator('main')).not.toContainText('1187342');
  // A campaign page names its own organization.
  const campaign = await firstApproved(request, '/api/campaigns');
  await page.goto(`/campaigns/${campaign.short_id}`);
  await expect(page.locator('.detail-charity')).toContainText(
    /Donations go to (Wells for Hope|Homes & Hearts Trust|Harbour Food Network)\./,
  );
});

test('phone header: Start a Fundraise is there; Donate on an appeal page jumps to its donation box', async ({
  page,
  request,
}) => {
  const appeal = await firstApproved(request, '/api/appeals');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`/appeals/${appeal.short_id}`);
    const header = page.locator('header');
    await expect(header.getByRole('link', { name: 'Start a Fundraise' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Start a Fundraise' })).toHaveAttribute('href', '/fund-raising');
    const donate = header.getByRole('link', { name: 'Donate', exact: true });
    await expect(donate).toHaveAttribute('href', '#donate');
    await donate.click();
    await expect(page).toHaveURL(/#donate$/);
    const slot = await box(page, '#donate');
    const headerBox = await box(page, 'header');
    // In view, below the sticky header.
    expect(slot.y, `${width}`).toBeGreaterThanOrEqual(headerBox.y + headerBox.height - 1);
    expect(slot.y, `${width}`).toBeLessThan(844 / 2);
  }
  // Elsewhere Donate still goes to the appeals.
  await page.goto('/campaigns');
  await expect(page.locator('header').getByRole('link', { name: 'Donate', exact: true })).toHaveAttribute(
    'href',
    '/appeals',
  );
});

test('the header keeps to one row at 820 and 1280 px, and no page scrolls sideways at 390 px', async ({ page }) => {
  for (const width of [820, 1024, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/campaigns');
    const brand = await box(page, '.brand');
    for (const selector of ['.main-nav', '.header-actions']) {
      const part = await box(page, selector);
      expect(Math.abs(part.y + part.height / 2 - (brand.y + brand.height / 2)), `${selector} at ${width}`).toBeLessThan(
        4,
      );
    }
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/campaigns');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const nav = page.locator('.main-nav');
  expect(await nav.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
});

test('pre-rendered pages log no console errors (no header-only CSP directives in their <meta> policy)', async ({
  page,
}) => {
  for (const path of [
    '/donate',
    '/donor/1',
    '/blogs',
    '/blog/1',
    '/fund-raise',
    '/events',
    '/login',
    '/donate-campaign',
  ]) {
    const errors = collectErrors(page);
    const res = await page.goto(path);
    const meta = (await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content')) ?? '';
    expect(meta, path).toContain('script-src');
    for (const directive of ['frame-ancestors', 'report-uri', 'report-to']) {
      expect(meta, `${path} meta`).not.toContain(directive);
      expect(res?.headers()['content-security-policy'], `${path} header`).toContain(directive);
    }
    await page.waitForLoadState('load');
    expect(errors, path).toEqual([]);
    page.removeAllListeners('console');
    page.removeAllListeners('pageerror');
  }
});

test('error pages send a status line that matches their status', async ({ page, request }) => {
  const notFound = await page.goto('/appeals/no-such-appeal');
  expect([notFound?.status(), notFound?.statusText()]).toEqual([404, 'Not Found']);
  const badLink = await request.get('/monthly/cancel?token=nonsense');
  expect([badLink.status(), badLink.statusText()]).toEqual([400, 'Bad Request']);
  const fine = await request.get('/campaigns');
  expect([fine.status(), fine.statusText()]).toEqual([200, 'OK']);
});

test('a list page past the last one answers 404 and says how many pages there are', async ({ page }) => {
  const res = await page.goto('/appeals?page=99');
  expect(res?.status()).toBe(404);
  const message = page.locator('main .empty-state');
  await expect(message).toContainText(/There is no page 99: this list has \d+ pages?\./);
  await expect(page.getByText(/Page 99 of/)).toHaveCount(0);
  await message.getByRole('link').click();
  expect((await page.goto(page.url()))?.status()).toBe(200);
});

test('a campaign shares as "Share Campaign", an appeal as "Share Appeal"', async ({ page, request }) => {
  const campaign = await firstApproved(request, '/api/campaigns');
  await page.goto(`/campaigns/${campaign.short_id}`);
  await expect(page.locator('.detail-share summary')).toHaveText('Share Campaign');
  const appeal = await firstApproved(request, '/api/appeals');
  await page.goto(`/appeals/${appeal.short_id}`);
  await expect(page.locator('.detail-share summary')).toHaveText('Share Appeal');
});

test('the share panel closes on Escape and gives focus back to its button', async ({ page, request }) => {
  const appeal = await firstApproved(request, '/api/appeals');
  await page.goto(`/appeals/${appeal.short_id}`);
  const share = page.locator('.detail-share details');
  await share.locator('summary').click();
  await expect(share).toHaveAttribute('open', '');
  await share.getByRole('button', { name: 'Copy link' }).focus();
  await page.keyboard.press('Escape');
  await expect(share).not.toHaveAttribute('open', '');
  await expect(share.locator('summary')).toBeFocused();
});

test('the image carousel has previous and next buttons for mouse users', async ({ page, request }) => {
  const campaign = await firstApproved(request, '/api/campaigns');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/campaigns/${campaign.short_id}`);
  const carousel = page.locator('.image-carousel');
  const track = carousel.locator('.snap-track');
  const previous = carousel.getByRole('button', { name: 'Previous image' });
  const next = carousel.getByRole('button', { name: 'Next image' });
  await expect(previous).toBeDisabled();
  await expect(next).toBeEnabled();
  await next.click();
  await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBeGreaterThan(100);
  await expect(previous).toBeEnabled();
  await previous.click();
  await expect.poll(() => track.evaluate((el) => el.scrollLeft)).toBe(0);
});
