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
};

/**
 * A seeded, approved item: the oldest in the list (lists are newest first), so items that other
 * browser tests create never get picked.
 */
export async function firstApproved(
  request: APIRequestContext,
  path: '/api/appeals' | '/api/campaigns',
): Promise<Item> {
  const res = await request.get(`${path}?limit=100`);
  expect(res.ok()).toBe(true);
  const items = (await res.json()) as Item[];
  return items[items.length - 1];
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

// --- The test ------------------------------------------------------------------------------------

export const test = base.extend<{ signInAs: (email: string) => Promise<string> }>({
  baseURL: async ({}, use, testInfo) => {
    await use(serverOrigin(testInfo.parallelIndex));
  },
  signInAs: async ({ request }, use) => {
    await use((email) => tokenFor(request, email));
  },
});
