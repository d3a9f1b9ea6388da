import type { APIRequestContext, Page } from '@playwright/test';
import { MOCK_UP_SCREENS } from '../../src/dashboard/lib/routes';
import { bigText, expect, screenshotPieces, sideways, signIn, spilledText, test, useToken } from './fixtures';

/**
 * WCAG 1.4.10 Reflow and 1.4.4 Resize text in the dashboard, at 320 CSS px and on a 390 px phone
 * with the text at 200%: the page scrolls only up and down (a data table may scroll in its own
 * box), for the demo admin, finance officer and donor.
 */

const SIZES = [
  { width: 320, height: 640, zoom: false },
  { width: 390, height: 844, zoom: true },
] as const;

/** Routes like a dashboard link click does, and waits until the screen has loaded. */
async function go(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/dashboard/${path}`);
  await expect(page.locator('#dash-main h1').first()).toBeVisible();
  await page.waitForFunction(() => {
    const main = document.querySelector('#dash-main');
    if (!main || document.querySelector('.dash-loading-dot, .dash-loading, [aria-busy="true"]')) return false;
    return !/Loading\.\.\./.test(main.textContent ?? '');
  });
}

/** The demo admin's session on a 1280 px window. */
async function adminAtDesktop(page: Page, request: APIRequestContext) {
  const { token } = await signIn(request, 'admin@example.org');
  await useToken(page, token);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function oldestId(request: APIRequestContext, token: string, path: string) {
  const rows = (await (await request.get(path, { headers: { authorization: `Bearer ${token}` } })).json()) as {
    _id: string;
  }[];
  return rows.at(-1)!._id;
}

async function check(page: Page, token: string, paths: string[], who: string) {
  const found: unknown[] = [];
  await useToken(page, token);
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/dashboard/overview');
    await page.waitForSelector('astro-island:not([ssr])');
    if (size.zoom) await bigText(page);
    for (const path of paths) {
      await go(page, path);
      const where = `${who} ${path} at ${size.width} px${size.zoom ? ', 200% text' : ''}`;
      const result = await sideways(page);
      const cut = await spilledText(page, '#dash-main');
      if (result.overflow || result.past.length || cut.length) found.push({ where, ...result, cut });
      if (process.env.SCREENSHOTS)
        await screenshotPieces(
          page,
          `${who}-${path.slice(0, 24).replace(/\W+/g, '-')}-${size.width}${size.zoom ? '-200' : ''}`,
        );
    }
  }
  return found;
}

test('the dashboard reflows for an admin at 320 px, and at 390 px with 200% text', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { token } = await signIn(request, 'admin@example.org');
  const donation = await oldestId(request, token, '/api/donations?limit=100');
  const appeal = await oldestId(request, token, '/api/appeals?limit=100');
  // The demo donor's page: their Gift Aid declarations are on it.
  const donor = (await signIn(request, 'donor@example.org')).user._id;
  const paths = [
    'overview',
    'donations',
    'donors',
    `donors/edit/${donor}`,
    'monthly-gifts',
    `donations/edit/${donation}`,
    `active-appeals-edit/${appeal}`,
    `supporters/${appeal}`,
    'batches/add',
    'gift-aid',
  ];
  expect(await check(page, token, paths, 'admin')).toEqual([]);
});

test('the dashboard reflows for a finance officer and a donor at 320 px, and at 390 px with 200% text', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const finance = (await signIn(request, 'finance@example.org')).token;
  const donor = (await signIn(request, 'donor@example.org')).token;
  const found = [
    ...(await check(page, finance, ['overview', 'donations', 'monthly-gifts', 'gift-aid'], 'finance')),
    ...(await check(page, donor, ['overview', 'donations/me', 'gift-aid'], 'donor')),
  ];
  expect(found).toEqual([]);
});

test("the overview's charts grow their labels with 200% text, and take a row each on a wide screen", async ({
  page,
  request,
}) => {
  await adminAtDesktop(page, request);
  await page.goto('/dashboard/overview');
  const cards = page.locator('.dash-chart-card');
  await expect(cards).toHaveCount(5);
  await expect(page.locator('.dash-chart svg').first()).toBeVisible();
  const tickSize = () =>
    page
      .locator('text.recharts-cartesian-axis-tick-value')
      .first()
      .evaluate((t) => getComputedStyle(t).fontSize);
  const widths = () => cards.evaluateAll((all) => all.map((c) => Math.round(c.getBoundingClientRect().width)));
  expect(await tickSize()).toBe('12px');
  // Default text at 1280 px: the first chart spans the row, the other four go two to a row.
  const [first, ...rest] = await widths();
  for (const w of rest) expect(w).toBeLessThan(first / 2 + 1);

  // 200% text (read again when the window resizes): labels twice the size, one chart per row.
  await bigText(page);
  await page.setViewportSize({ width: 1281, height: 900 });
  await expect.poll(tickSize).toBe('24px');
  const wide = await widths();
  for (const w of wide) expect(w).toBe(wide[0]);
  // Each campaign's name stays right of the chart's left edge (shortened to fit, not spilled).
  const spilled = await page
    .locator('.dash-chart-card')
    .nth(1)
    .evaluate((card) => {
      const left = card.querySelector('.dash-chart')!.getBoundingClientRect().left;
      return [...card.querySelectorAll('.recharts-yAxis text.recharts-cartesian-axis-tick-value')]
        .filter((t) => t.getBoundingClientRect().left < left - 1)
        .map((t) => t.textContent);
    });
  expect(spilled).toEqual([]);
  expect(await sideways(page)).toMatchObject({ overflow: 0, past: [] });
});

test('the rest of the dashboard reflows for an admin at 320 px, and at 390 px with 200% text', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const { token } = await signIn(request, 'admin@example.org');
  // The Cron Trigger's run makes the demo payouts (as payouts.spec.ts does), so one has a page.
  expect((await request.get('/cdn-cgi/handler/scheduled?cron=23+*+*+*+*')).status()).toBe(200);
  const payouts = async () =>
    (await (
      await request.get('/api/finance/payouts?limit=50', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { _id: string }[];
  await expect.poll(async () => (await payouts()).length).toBeGreaterThan(0);
  const payout = (await payouts())[0]._id;
  const paths = [
    'active-campaigns',
    'active-appeals',
    'batches',
    'payouts',
    `payouts/${payout}`,
    'audit',
    'organizations',
    'settings',
    'support-inbox',
    'template-causes',
    'template-causes/add',
    'faqs',
    'contact',
    // The static mock-up screens the specification keeps.
    ...MOCK_UP_SCREENS,
  ];
  expect(await check(page, token, paths, 'admin')).toEqual([]);
});

test("a reader's larger default text size brings the dashboard's phone layout on a wide screen", async ({
  page,
  request,
}) => {
  await adminAtDesktop(page, request);
  // The browser's own setting (Chromium's font size), not a page style: em breakpoints follow it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32 } });
  await page.goto('/dashboard/overview');
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.locator('#dash-main h1').first()).toBeVisible();
  // 1280 px at 32 px text is 40em: under the 48em breakpoint, so the menu is the phone's drawer.
  const menu = page.getByRole('button', { name: 'Toggle sidebar' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('navigation', { name: 'Dashboard menu' })).not.toBeInViewport();
  await menu.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await sideways(page)).toMatchObject({ overflow: 0, past: [] });
});
