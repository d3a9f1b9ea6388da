import type { APIRequestContext, Page } from '@playwright/test';
import { axeViolations, expect, test, tokenFor as signIn, useToken } from './fixtures';

/**
 * WCAG 2.2 AA scan (axe-core) of every dashboard screen, for an admin and a donor, in light and
 * dark theme, at desktop and phone width (the phone drawer open too); no screen may make the page
 * scroll sideways, and with SCREENSHOTS=1 each one is kept in test-results/dashboard/ to look at.
 * One sign-in per role; the screens change through the dashboard's own client-side router, so each
 * scan costs no page load.
 */

const ADMIN = 'admin@example.org';
const DONOR = 'donor@example.org';

type Ids = { donor: string; donation: string; organization: string; campaign: string; appeal: string };

/** Seeded records to open the edit screens with (the oldest ones, never another spec's data). */
async function seededIds(request: APIRequestContext, token: string): Promise<Ids> {
  const get = async (path: string) => {
    const res = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
    expect(res.ok(), path).toBe(true);
    const rows = (await res.json()) as { _id: string }[];
    expect(rows.length, path).toBeGreaterThan(0);
    return rows[rows.length - 1]._id;
  };
  return {
    donor: await get('/api/users?limit=100'),
    donation: await get('/api/donations?limit=100'),
    organization: await get('/api/organizations?limit=100'),
    campaign: await get('/api/campaigns?limit=100'),
    appeal: await get('/api/appeals?limit=100'),
  };
}

/**
 * `static`: a mock-up screen that reads no account (the same page for every role). The admin's scan
 * covers it; the donor's own sidebar is scanned on every other screen.
 */
type Screen = { path: string; label?: string; static?: true; then?: (page: Page) => Promise<void> };

function screens(ids: Ids): Screen[] {
  return [
    { path: 'overview' },
    { path: 'donors' },
    { path: 'donors/add' },
    { path: `donors/edit/${ids.donor}` },
    { path: 'donors/edit/me' },
    { path: 'donations' },
    { path: 'donations/me' },
    { path: 'donations/add' },
    { path: `donations/edit/${ids.donation}` },
    { path: 'organizations' },
    { path: 'organizations/add' },
    { path: `organizations/edit/${ids.organization}` },
    { path: 'settings' },
    { path: 'gift-aid' },
    { path: 'batches' },
    { path: 'batches/add' },
    { path: 'monthly-gifts' },
    { path: 'payouts' },
    { path: 'audit' },
    { path: 'active-campaigns' },
    { path: 'active-appeals' },
    { path: 'active-campaigns-add' },
    { path: 'active-appeals-add' },
    { path: `active-campaigns-edit/${ids.campaign}` },
    { path: `active-appeals-edit/${ids.appeal}` },
    { path: `supporters/${ids.appeal}` },
    { path: 'reward' },
    { path: 'event', static: true },
    { path: 'communication', static: true },
    { path: 'communication/n1', static: true },
    { path: 'payment', static: true },
    {
      path: 'payment',
      label: 'payment (add form)',
      static: true,
      then: async (page) => {
        await page.getByRole('button', { name: 'Add Method' }).click();
        await expect(page.getByRole('heading', { name: 'Add Payment Method' })).toBeVisible();
      },
    },
    { path: 'faqs', static: true },
    { path: 'contact' },
    { path: 'support-inbox' },
    { path: 'template-causes' },
    { path: 'template-causes/add' },
    { path: 'resources', static: true },
    { path: 'donate-history', static: true },
    { path: 'donate-receipts', static: true },
    {
      path: 'donate-receipts',
      label: 'donate-receipts (actions menu open)',
      static: true,
      then: async (page) => {
        await page
          .getByRole('button', { name: /^Actions for/ })
          .first()
          .click();
        await expect(page.getByRole('menu')).toBeVisible();
      },
    },
    { path: 'donate-recurring', static: true },
    { path: 'no-such-screen', label: 'Not Found' },
  ];
}

/** Routes like a dashboard link click does: pushState + popstate, no page load. */
async function go(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/dashboard/${path}`);
  await settled(page);
}

/** The screen has its heading and nothing is still loading. */
async function settled(page: Page) {
  await expect(page.locator('#dash-main h1').first()).toBeVisible();
  await page.waitForFunction(() => {
    const main = document.querySelector('#dash-main');
    if (!main || document.querySelector('.dash-loading-dot, .dash-loading, [aria-busy="true"]')) return false;
    return !/Loading\.\.\./.test(main.textContent ?? '');
  });
}

/** The screen's WCAG 2.2 AA violations, each named by where it was found. */
async function violations(page: Page, where: string): Promise<string[]> {
  return (await axeViolations(page)).map((v) => `${where} → ${v}`);
}

/** A screen wider than the window: the whole page would scroll sideways on a phone (tables scroll in their own box). */
async function sideways(page: Page, width: number, where: string): Promise<string[]> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  return scrollWidth > width ? [`${where} → the page is ${scrollWidth}px wide and scrolls sideways`] : [];
}

/** Switches width and theme in place (the theme through its own radio button) and waits for both. */
async function look(page: Page, width: 1280 | 390, theme: 'light' | 'dark') {
  const size = page.viewportSize();
  if (size?.width !== width) await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
  await page.evaluate((t) => {
    if (document.documentElement.dataset.theme !== t)
      document.querySelector<HTMLElement>(`[role="radio"][title^="${t[0].toUpperCase()}"]`)?.click();
  }, theme);
  await page.waitForFunction(
    ([w, t]) =>
      document.documentElement.dataset.theme === t &&
      document.querySelector('#dash-sidebar')?.getAttribute('data-state') === (w === 390 ? 'closed' : 'expanded'),
    [width, theme] as const,
  );
}

/** Each screen is opened once and scanned in all four looks (theme and width change in place). */
const LOOKS = [
  { width: 1280, theme: 'light' },
  { width: 1280, theme: 'dark' },
  { width: 390, theme: 'dark' },
  { width: 390, theme: 'light' },
] as const;

async function scanAll(page: Page, ids: Ids, token: string, { staticScreens = true } = {}) {
  await useToken(page, token);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/overview');
  await page.waitForSelector('astro-island:not([ssr])');
  await settled(page);
  const who = await page.evaluate(() => document.querySelector('.dash-user')?.getAttribute('title') ?? 'user');
  const found: string[] = [];
  for (const screen of screens(ids).filter((s) => staticScreens || !s.static)) {
    await look(page, 1280, 'light');
    await go(page, screen.path);
    await screen.then?.(page);
    for (const { width, theme } of LOOKS) {
      await look(page, width, theme);
      const where = `${who} ${width}px ${theme} ${screen.label ?? screen.path}`;
      found.push(...(await violations(page, where)));
      if (theme === 'light') found.push(...(await sideways(page, width, where)));
      if (theme === 'light' && process.env.SCREENSHOTS) {
        const name = `${who}-${(screen.label ?? screen.path).replace(/[^a-z0-9-]+/gi, '_')}-${width}`;
        await page.screenshot({ path: `test-results/dashboard/${name}.png`, fullPage: true });
      }
    }
  }
  // The phone drawer (same menu on every screen), in both themes.
  for (const theme of ['light', 'dark'] as const) {
    await look(page, 390, theme);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(page.locator('#dash-sidebar')).toHaveAttribute('data-state', 'open');
    found.push(...(await violations(page, `${who} 390px ${theme} drawer open`)));
    await page.keyboard.press('Escape');
    await expect(page.locator('#dash-sidebar')).toHaveAttribute('data-state', 'closed');
  }
  return found;
}

test('every dashboard screen passes WCAG 2.2 AA for an admin (light, dark, desktop, phone)', async ({
  page,
  request,
}) => {
  // About 50 screens, four looks each: minutes on a shared 2-core machine.
  test.setTimeout(240_000);
  const token = await signIn(request, ADMIN);
  expect(await scanAll(page, await seededIds(request, token), token)).toEqual([]);
});

test('every dashboard screen that reads the account passes WCAG 2.2 AA for a donor (light, dark, desktop, phone)', async ({
  page,
  request,
}) => {
  // About 50 screens, four looks each: minutes on a shared 2-core machine.
  test.setTimeout(240_000);
  const token = await signIn(request, DONOR);
  const auth = { headers: { authorization: `Bearer ${token}` } };
  const me = (await (await request.get('/api/auth', auth)).json()) as { _id: string };
  const mine = (await (await request.get('/api/donations?type=me', auth)).json()) as { _id: string }[];
  const oldest = async (path: string) => ((await (await request.get(path)).json()) as { _id: string }[]).at(-1)!._id;
  // The donor's own records where it has some; staff-only screens then say politely that they are not theirs.
  const ids: Ids = {
    donor: me._id,
    donation: mine[0]?._id ?? '00000000-0000-4000-8000-000000000000',
    organization: '00000000-0000-4000-8000-000000000000',
    campaign: await oldest('/api/campaigns?limit=100'),
    appeal: await oldest('/api/appeals?limit=100'),
  };
  expect(await scanAll(page, ids, token, { staticScreens: false })).toEqual([]);
});
