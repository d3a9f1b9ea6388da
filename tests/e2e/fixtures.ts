import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, test as base, expect, type Locator, type Page } from '@playwright/test';
import { serverOrigin } from './servers';

/**
 * Everything the browser tests share: every spec imports `test` and `expect` from here instead of
 * Playwright's own, and its sign-in, new-donor, dashboard and accessibility helpers. `test` points
 * `page` and `request` at the server of the worker running the test (tests/e2e/servers.ts), and
 * offers `signInAs(email)`, the token of the run's one sign-in of that account.
 */
export { expect };

// --- Mail and sign-in ---------------------------------------------------------------------------

export type Mail = { to: string; subject: string; text: string; html: string };
export type Session = {
  token: string;
  user: { _id: string; name: { first_name: string; last_name: string }; org_ids: string[]; type: string };
};

/** The dev outbox of one address, newest first. */
export async function outbox(request: APIRequestContext, email: string): Promise<Mail[]> {
  const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as Mail[];
}

/** The newest sign-in code emailed to `email` (waits for it to arrive). */
export async function codeFor(request: APIRequestContext, email: string): Promise<string> {
  let code = '';
  await expect(async () => {
    const mail = (await outbox(request, email)).find((m) => /code is: \d{6}/.test(m.text));
    code = /code is: (\d{6})/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
  }).toPass({ timeout: 5_000 });
  return code;
}

/** Asks for a code and exchanges it, as the login dialog does; `name` signs a new donor up. */
async function codeSignIn(
  request: APIRequestContext,
  email: string,
  name?: { first_name: string; last_name: string },
): Promise<Session> {
  expect((await request.post('/api/auth/login', { data: { email } })).ok()).toBe(true);
  const code = await codeFor(request, email);
  const res = await request.post('/api/auth/login', { data: { email, code, ...name } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as Session;
}

/**
 * One sign-in per account for the whole run: code emails are rate limited per address and each
 * round trip costs seconds, so specs share the session of each seeded account.
 */
const sessions = new Map<string, Promise<Session>>();

/** The session of `email`, signing in on first use. */
export function signIn(request: APIRequestContext, email: string): Promise<Session> {
  let session = sessions.get(email);
  if (!session) {
    session = codeSignIn(request, email);
    sessions.set(email, session);
    // A failed sign-in is not cached: the next test tries again.
    session.catch(() => sessions.delete(email));
  }
  return session;
}

/** The token of a seeded account's shared session. */
export const tokenFor = async (request: APIRequestContext, email: string) => (await signIn(request, email)).token;

/** A new donor's token: signs `email` up with a name (each call is a fresh sign-in). */
export async function signUp(
  request: APIRequestContext,
  email: string,
  name = { first_name: 'Monty', last_name: 'Donor' },
): Promise<string> {
  return (await codeSignIn(request, email, name)).token;
}

/** Stores the token where the site keeps it, before the page's scripts run. */
export async function useToken(page: Page, token: string) {
  await page.addInitScript((t) => localStorage.setItem('uk_nfp_token', t), token);
}

/** Opens `path` signed in with `token` and waits for its islands to hydrate. */
export async function openAs(page: Page, token: string, path: string) {
  await useToken(page, token);
  await page.goto(path);
  await page.waitForSelector('astro-island:not([ssr])');
}

// --- Pages ----------------------------------------------------------------------------------------

/** Waits until an island has hydrated (Astro drops its ssr attribute). */
export async function islandHydrated(island: Locator) {
  await expect(island).not.toHaveAttribute('ssr');
}

export type Item = {
  _id: string;
  short_id: string;
  title: string;
  campaign_id: string | null;
  story: string;
  description: string;
  /** Pence. */
  goal: number;
  created_at: string;
};

/**
 * A seeded, approved item: the oldest in the list, so items that other browser tests create never
 * get picked. (Not the list's last: lists put items that ended or open later last, decision 071.)
 */
export async function firstApproved(
  request: APIRequestContext,
  path: '/api/appeals' | '/api/campaigns',
): Promise<Item> {
  const res = await request.get(`${path}?limit=100`);
  expect(res.ok()).toBe(true);
  const items = (await res.json()) as Item[];
  return items.reduce((oldest, item) => (item.created_at < oldest.created_at ? item : oldest));
}

/**
 * A campaign the admin makes with the given title and giving days, in a seeded campaign's organization
 * (the demo image, a £1,000 goal): for tests of dates that open or end giving.
 */
export async function adminCampaign(
  request: APIRequestContext,
  adminToken: string,
  fields: { title: string; date: { from: string; to: string } },
): Promise<Item> {
  const [seeded] = (await (await request.get('/api/campaigns?limit=1')).json()) as { organization_id: string }[];
  const made = await request.post('/api/campaigns', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: {
      ...fields,
      description: `${fields.title}, made by a test.`,
      goal: 100_000,
      images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png' }],
      organization_id: seeded.organization_id,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  return made.json();
}

/** Pence as the pages show a total: "£20,000", or "£12.50" when there are pennies. */
export const gbpShort = (pence: number) =>
  new Intl.NumberFormat('en-GB', {
    style: 'currency',
    currency: 'GBP',
    ...(pence % 100 === 0 ? { maximumFractionDigits: 0 } : {}),
  }).format(pence / 100);

export type MonthlyPrice = { id: string; unit_amount: number };

/**
 * Starts and confirms a demo-mode monthly gift by the signed-in donor (`token`) to a seeded campaign at
 * the first price; returns the prices offered.
 */
export async function startMonthlyGift(request: APIRequestContext, token: string): Promise<MonthlyPrice[]> {
  const campaign = ((await (await request.get('/api/campaigns?limit=5')).json()) as { _id: string }[])[0];
  const prices = (await (await request.get('/api/stripe/subscriptions')).json()) as MonthlyPrice[];
  const start = await request.post('/api/stripe/client_secret', {
    data: { price: prices[0].id, campaign_id: campaign._id },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(start.ok()).toBe(true);
  const { clientSecret } = (await start.json()) as { clientSecret: string };
  expect((await request.post('/api/stripe/demo/confirm', { data: { clientSecret } })).ok()).toBe(true);
  return prices;
}

// --- Accessibility --------------------------------------------------------------------------------

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The axe-core engine that @axe-core/playwright wraps, injected once per page (AxeBuilder injects
 * and configures it again on every scan, ~250 ms each) and evaluated through the devtools
 * protocol: the pages' Content-Security-Policy rightly refuses an injected inline <script>.
 */
const AXE_SOURCE = path.join(process.cwd(), 'node_modules/axe-core/axe.min.js');
let axeSource: string | undefined;

/**
 * The page's accessibility violations as `rule: targets` lines: WCAG 2.2 AA rules by default, or
 * the given tags, or every rule (`'all'`); within `include` (a selector) when given.
 */
export async function axeViolations(
  page: Page,
  options: { include?: string; tags?: string[] | 'all' } = {},
): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.evaluate(`${(axeSource ??= readFileSync(AXE_SOURCE, 'utf8'))}\n;void 0`);
  const tags = options.tags ?? WCAG_TAGS;
  return page.evaluate(
    async ({ include, tags }) => {
      const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
      const context = include ? { include: [[include]] } : document;
      const results = await axe.run(context, {
        ...(tags === 'all' ? {} : { runOnly: { type: 'tag', values: tags } }),
        resultTypes: ['violations'],
      });
      return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    },
    { include: options.include, tags },
  );
}

/** No violations (see axeViolations); a failure lists rule ids and targets. */
export async function expectNoAxeViolations(page: Page, options: { include?: string; tags?: string[] | 'all' } = {}) {
  expect(await axeViolations(page, options)).toEqual([]);
}

// --- Reflow (WCAG 1.4.10, 1.4.4) ----------------------------------------------------------------

/**
 * How far the page scrolls sideways, and the elements past its right edge (clipped ones too: the
 * home page's sections clip what sticks out, which hides it instead of scrolling). What scrolls or
 * slides inside its own box (a carousel, a wide table) is allowed. Everything is laid out first:
 * content-visibility skips what is off screen.
 */
export async function sideways(page: Page) {
  return page.evaluate(async () => {
    const root = document.scrollingElement!;
    // One screen at a time, each laid out by a frame. A frame that does not come within 250 ms (a
    // renderer starved of CPU in a busy run) does not hang the test: the next step forces layout
    // anyway. A page that keeps growing as it scrolls is reported, not scrolled for ever.
    const frame = () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => resolve());
        setTimeout(resolve, 250);
      });
    let screens = 0;
    for (let y = 0; y < root.scrollHeight && screens < 200; y += Math.max(innerHeight, 1), screens++) {
      scrollTo(0, y);
      await frame();
    }
    scrollTo(0, 0);
    const grew = screens >= 200 ? ['the page kept growing as it scrolled (200 screens)'] : [];
    const width = root.clientWidth;
    const inOwnBox = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (/auto|scroll/.test(getComputedStyle(up).overflowX) || up.classList.contains('swiper')) return true;
      }
      return false;
    };
    const past = [...document.body.querySelectorAll('*')].filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 1 && box.right > width + 1 && !inOwnBox(el);
    });
    return {
      overflow: root.scrollWidth - width,
      past: [
        ...grew,
        ...past
          .slice(0, 5)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.trim().slice(0, 30)}`),
      ],
    };
  });
}

/**
 * What a person would miss or struggle to read in `scope` (a selector) although the page does not
 * scroll sideways: words spilling past the box that holds them (over a card's border, or cut off
 * where the box hides overflow), text squeezed into a column under two letters wide (a value wrapped
 * a letter a line), a short value cut off in its field, a control standing past its card's border.
 * Charts' SVG text and visually hidden text are left out.
 */
export async function spilledText(page: Page, scope: string) {
  return page.evaluate((scope) => {
    const found: string[] = [];
    const blockOf = (node: Node) => {
      let el = node.parentElement;
      while (el && /^(inline|contents)$/.test(getComputedStyle(el).display)) el = el.parentElement;
      return el;
    };
    for (const root of document.querySelectorAll(scope)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim() ?? '';
        const block = blockOf(node);
        if (!text || !block || node.parentElement?.closest('svg, .visually-hidden, .sr-only')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const words = range.getBoundingClientRect();
        const box = block.getBoundingClientRect();
        if (words.width < 1 || box.width < 2) continue;
        const em = Number.parseFloat(getComputedStyle(block).fontSize);
        const spills = words.right > box.right + 1 || words.left < box.left - 1;
        const squeezed = text.length > 3 && box.width < 2 * em;
        if (spills || squeezed)
          found.push(
            `${spills ? 'spills' : 'squeezed'}: ${block.tagName.toLowerCase()}.${block.className}: ${text.slice(0, 30)}`,
          );
      }
    }
    // A short value (an expiry, a sort code) cut off in its own field: a long one may scroll in it.
    for (const input of document.querySelectorAll<HTMLInputElement>(
      `:is(${scope}) input:is([type=text], :not([type]))`,
    )) {
      if (input.value.length > 0 && input.value.length <= 8 && input.scrollWidth > input.clientWidth + 1)
        found.push(`cut off in its field: ${input.labels?.[0]?.textContent?.trim()}: ${input.value}`);
    }
    // A control standing past the border of the card or fieldset around it.
    for (const control of document.querySelectorAll(`:is(${scope}) :is(input, select, textarea, button)`)) {
      const box = control.getBoundingClientRect();
      if (box.width < 2) continue;
      for (let up = control.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (/auto|scroll/.test(style.overflowX)) break;
        if (Number.parseFloat(style.borderRightWidth) > 0) {
          if (box.right > up.getBoundingClientRect().right + 1)
            found.push(`past its box: ${control.tagName.toLowerCase()} in ${up.tagName.toLowerCase()}.${up.className}`);
          break;
        }
      }
    }
    return found.slice(0, 8);
  }, scope);
}

/**
 * The page, or the element `selector` matches, in test-results/reflow-shots/ as pieces a person can
 * read: one full-length shot of a long phone page is a thin strip once scaled to fit a screen.
 */
export async function screenshotPieces(page: Page, name: string, selector?: string) {
  const area = await page.evaluate((selector) => {
    const root = document.scrollingElement!;
    const box = selector ? document.querySelector(selector)!.getBoundingClientRect() : undefined;
    return box
      ? { x: box.left + scrollX, y: box.top + scrollY, width: box.width, height: box.height }
      : { x: 0, y: 0, width: root.scrollWidth, height: root.scrollHeight };
  }, selector);
  for (let top = 0, part = 0; top < area.height; top += 1400, part++) {
    await page.screenshot({
      path: `test-results/reflow-shots/${name}-${part}.png`,
      fullPage: true,
      clip: { ...area, y: area.y + top, height: Math.min(1400, area.height - top) },
    });
  }
}

/** 200% text: the root font size, as a browser's text zoom sets it. */
export const bigText = (page: Page) =>
  page.evaluate(() => {
    document.documentElement.style.fontSize = '200%';
  });

// --- The test ------------------------------------------------------------------------------------

export const test = base.extend<{ signInAs: (email: string) => Promise<string> }>({
  baseURL: async ({}, use, testInfo) => {
    await use(serverOrigin(testInfo.parallelIndex));
  },
  signInAs: async ({ request }, use) => {
    await use((email) => tokenFor(request, email));
  },
});
