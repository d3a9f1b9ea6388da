import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, firstApproved, test } from './fixtures';

/** Directive name → its sources, from a Content-Security-Policy value. */
function directives(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

type Violation = { directive: string; blocked: string; sample: string };
/** What the tests leave on the page's window: the violations seen, and what an injected script would set. */
type TestWindow = Window & { __violations: Violation[]; __injected?: string; __injectedAttr?: string };

/** Records every CSP violation in the page (registered through the browser, not the page). */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as TestWindow;
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample });
    });
  });
  return () => page.evaluate(() => (window as unknown as TestWindow).__violations);
}

test('server-rendered pages carry a strict policy from Astro: hashed scripts, no unsafe-inline, our origin and Stripe only', async ({
  request,
}) => {
  const appeal = await firstApproved(request, '/api/appeals');
  for (const path of ['/', '/campaigns', `/appeals/${appeal.short_id}`, '/dashboard/overview', '/no/such/page']) {
    const res = await request.get(path);
    const policy = res.headers()['content-security-policy'];
    expect(policy, path).toBeTruthy();
    const d = directives(policy);
    const scripts = d.get('script-src')!;
    expect(scripts, path).toEqual(
      expect.arrayContaining(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com']),
    );
    expect(
      scripts.some((s) => s.startsWith("'sha256-")),
      path,
    ).toBe(true);
    for (const weak of ["'unsafe-inline'", "'unsafe-eval'", '*', 'https:', 'data:'])
      expect(scripts, `${path} script-src`).not.toContain(weak);
    // Styles: Astro's hashes for <style>; only style="" attributes may be inline.
    expect(d.get('style-src'), path).not.toContain("'unsafe-inline'");
    expect(d.get('style-src-attr'), path).toEqual(["'unsafe-inline'"]);
    expect(d.get('connect-src'), path).toEqual(["'self'", 'https://api.stripe.com', 'https://m.stripe.network']);
    expect(d.get('frame-src'), path).toEqual(
      expect.arrayContaining(['https://js.stripe.com', 'https://hooks.stripe.com']),
    );
    expect(d.get('img-src'), path).toContain("'self'");
    expect(d.get('frame-ancestors'), path).toEqual(["'none'"]);
    expect(d.get('form-action'), path).toEqual(["'self'"]);
    expect(d.get('object-src'), path).toEqual(["'none'"]);
    expect(d.get('report-uri'), path).toEqual(['/api/csp-report']);
    expect(d.get('report-to'), path).toEqual(['csp-endpoint']);
    expect(res.headers()['reporting-endpoints'], path).toBe('csp-endpoint="/api/csp-report"');
  }
  // Pre-rendered pages carry the same script and style hashes in a <meta> policy (plus the headers' framing rules).
  const events = await request.get('/events');
  const meta = /<meta http-equiv="content-security-policy" content="([^"]+)"/.exec(await events.text())?.[1] ?? '';
  expect(directives(meta).get('script-src')).not.toContain("'unsafe-inline'");
  expect(
    directives(meta)
      .get('script-src')!
      .some((s) => s.startsWith("'sha256-")),
  ).toBe(true);
  expect(events.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  // JSON answers allow nothing at all.
  expect((await request.get('/api/health')).headers()['content-security-policy']).toContain("default-src 'none'");
});

test('an injected inline script does not run, and the page keeps working', async ({ page }) => {
  const violations = await recordViolations(page);
  // Simulate markup injection that got past escaping: a script element and an event handler attribute.
  await page.route('**/campaigns', async (route) => {
    const response = await route.fetch();
    const html = (await response.text())
      .replace('</head>', '<script>window.__injected = "script ran"</script></head>')
      .replace('<main', '<img src="/favicon.svg?x" onload="window.__injectedAttr = \'handler ran\'" alt=""><main');
    await route.fulfill({ response, body: html });
  });
  await page.goto('/campaigns');
  expect(await page.evaluate(() => (window as unknown as TestWindow).__injected)).toBeUndefined();
  expect(await page.evaluate(() => (window as unknown as TestWindow).__injectedAttr)).toBeUndefined();
  const seen = await violations();
  expect(seen.map((v) => v.directive)).toEqual(expect.arrayContaining(['script-src-elem', 'script-src-attr']));
  expect(seen.every((v) => v.blocked === 'inline')).toBe(true);
  // Our own hashed island scripts still run: the sign-in dialog opens.
  await page.locator('header').getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('dialog', { name: 'Log in or sign up' })).toBeVisible();
});

test('home (carousel, video facade), an appeal with its donation box, and the dashboard run without a CSP violation', async ({
  page,
  request,
}) => {
  const violations = await recordViolations(page);
  await page.goto('/');
  await page.waitForSelector('astro-island:not([ssr])');
  await expect(page.locator('.swiper-slide').first()).toBeVisible();
  await page.locator('.video-section').scrollIntoViewIfNeeded();
  const poster = page.locator('.video-section img');
  await expect(poster).toBeVisible();
  await expect.poll(() => poster.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  expect(await violations()).toEqual([]);

  const appeal = await firstApproved(request, '/api/appeals');
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  await expect(page.locator('.image-carousel img').first()).toBeVisible();
  expect(await violations()).toEqual([]);

  await page.goto('/dashboard/overview');
  await expect(page.getByRole('heading', { name: 'Sign in to your dashboard' })).toBeVisible();
  expect(await violations()).toEqual([]);
});

/** The hash sources of the inline blocks a document holds: scripts a browser runs, and styles. */
function ownHashes(html: string): string[] {
  const out: string[] = [];
  for (const [, tag, attributes, body] of html.matchAll(/<(script|style)\b([^>]*)>([\s\S]*?)<\/\1>/g)) {
    if (tag === 'script' && (/\ssrc=/.test(attributes) || /type="application\/ld\+json"/.test(attributes))) continue;
    out.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return [...new Set(out)].sort();
}

const policyHashes = (policy: string) => [...new Set(policy.match(/'sha256-[^']+'/g) ?? [])].sort();

test("each page's policy lists exactly the hashes of its own inline scripts and styles, and Chromium runs them all", async ({
  page,
  request,
}) => {
  const appeal = await firstApproved(request, '/api/appeals');
  const campaign = await firstApproved(request, '/api/campaigns');
  const paths = [
    '/',
    `/appeals/${appeal.short_id}`,
    `/campaigns/${campaign.short_id}`,
    '/dashboard/overview',
    '/login',
  ];
  const violations = await recordViolations(page);
  for (const path of paths) {
    const res = await request.get(path);
    const html = await res.text();
    // Pre-rendered pages (/login) carry the page's policy in a <meta>; rendered ones in the header.
    const meta = /<meta http-equiv="content-security-policy" content="([^"]+)"/.exec(html)?.[1];
    const policy = meta ?? res.headers()['content-security-policy'];
    expect(ownHashes(html).length, path).toBeGreaterThan(1);
    expect(policyHashes(policy), path).toEqual(ownHashes(html));
    await page.goto(path);
    await page.waitForLoadState('load');
    // The dashboard's app has hydrated and rendered (any style or script it adds would have run).
    if (path.startsWith('/dashboard'))
      await expect(page.getByRole('heading', { name: 'Sign in to your dashboard' })).toBeVisible();
    expect(await violations(), path).toEqual([]);
  }
});
