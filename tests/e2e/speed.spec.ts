import type { APIRequestContext } from '@playwright/test';
import { expect, gbpShort, test } from './fixtures';

/**
 * Speed in the built worker: public pages come from the edge cache (Workers Cache API) while a
 * donor sees the fresh total; critical CSS is inline; the LCP image is a responsive AVIF/WebP
 * <picture> fetched with high priority.
 */

type Appeal = {
  _id: string;
  short_id: string;
  title: string;
  campaign_id: string;
  summary: { total_donations: number; donation_count: number };
};

/** The public cache header, with the freshness the test server is configured with (30 s in production). */
const PUBLIC = /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=300$/;
const freshSeconds = (cacheControl: string | undefined) => Number(/s-maxage=(\d+)/.exec(cacheControl ?? '')?.[1]);

async function appeal(request: APIRequestContext, index: number): Promise<Appeal> {
  const res = await request.get('/api/appeals?limit=20');
  return ((await res.json()) as Appeal[])[index];
}

test('public pages and public API reads are cached at the edge; personal responses never are', async ({ request }) => {
  const a = await appeal(request, 8);
  for (const [first, path] of [
    ['/', '/'],
    ['/campaigns', '/campaigns'],
    [`/appeals/${a.short_id}`, `/appeals/${a.short_id}`],
    // Visitors from a social post share the copy: click ids are not part of the key.
    ['/', '/?utm_source=facebook&utm_medium=social&fbclid=IwAR0abc'],
  ]) {
    await request.get(first);
    const again = await request.get(path);
    expect(again.status()).toBe(200);
    expect(again.headers()['cache-control']).toMatch(PUBLIC);
    expect(again.headers()['x-cache']).toMatch(/^(HIT|STALE)$/);
  }
  // The return from a payment, any other query and a signed-in request are rendered fresh and kept private.
  for (const [path, headers] of [
    [`/appeals/${a.short_id}?donation=complete`, {}],
    ['/?preview=1', {}],
    ['/', { authorization: 'Bearer abcdefghijklmnopqrstuvwxyz' }],
  ] as const) {
    const res = await request.get(path, { headers });
    expect(res.headers()['cache-control']).toBe('private, no-store');
    expect(res.headers()['x-cache']).toBeUndefined();
  }
  // The API's public reads are kept the same way, each answer naming its own request.
  const first = await request.get('/api/campaigns?limit=5&status=approved');
  const reordered = await request.get('/api/campaigns?status=approved&limit=5');
  expect(reordered.headers()['cache-control']).toMatch(PUBLIC);
  expect(reordered.headers()['x-cache']).toMatch(/^(HIT|STALE)$/);
  expect(await reordered.json()).toEqual(await first.json());
  expect(reordered.headers()['x-request-id']).not.toBe(first.headers()['x-request-id']);
  // A token, or a caller asking for the origin's answer, skips the cache.
  for (const headers of [
    { authorization: 'Bearer abcdefghijklmnopqrstuvwxyz' },
    { 'cache-control': 'no-cache' },
    { pragma: 'no-cache' },
  ] as Record<string, string>[]) {
    const api = await request.get('/api/campaigns?limit=5&status=approved', { headers });
    expect(api.headers()['cache-control'] ?? '').not.toMatch(/public|s-maxage/);
    expect(api.headers()['x-cache']).toBeUndefined();
  }
  const dashboard = await request.get('/dashboard/overview');
  expect(dashboard.headers()['cache-control']).toBe('no-store');
});

test('a donor sees the fresh total on the thank-you, on a page served from the cache', async ({ page, request }) => {
  const a = await appeal(request, 7);
  await request.get(`/appeals/${a.short_id}`);
  const cached = await request.get(`/appeals/${a.short_id}`);
  expect(cached.headers()['x-cache']).toMatch(/^(HIT|STALE)$/);
  const before = (await (await request.get(`/api/appeals/${a._id}`)).json()) as Appeal;

  await page.goto(`/appeals/${a.short_id}`);
  await expect(page.locator('.detail-raised strong')).toHaveText(gbpShort(before.summary.total_donations));
  await page.locator('.donation-slot').scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
  const box = page.locator('.donation-box');
  await box.getByRole('textbox', { name: /^Email/ }).fill(`speed.${Date.now()}@example.com`);
  await box.getByLabel('Amount (£)').fill('7.50');
  await box.getByRole('button', { name: /^Donate/ }).click();
  // The thank-you asks the API past the edge cache.
  const freshAsk = page.waitForRequest(
    (r) => r.url().endsWith(`/api/appeals/${a._id}`) && r.headers()['cache-control'] === 'no-cache',
  );
  await box.getByRole('button', { name: /^Pay / }).click();
  await expect(box.getByRole('heading', { name: 'Thank you for your donation' })).toBeVisible();
  await freshAsk;

  // Without a reload: the thank-you put the fresh figures into the page.
  const after = before.summary.total_donations + 750;
  await expect(page.locator('.detail-raised strong')).toHaveText(gbpShort(after));
  const count = before.summary.donation_count + 1;
  await expect(page.locator('.detail-percent')).toContainText(`${count} donations`);
  // And the gift retired the cached copy: the next visitor gets a fresh render.
  const next = await request.get(`/appeals/${a.short_id}`);
  expect(next.headers()['x-cache']).toBe('MISS');
  expect(await next.text()).toContain(gbpShort(after));
  // The API's cached answer too.
  const read = await request.get(`/api/appeals/${a._id}`);
  expect(read.headers()['x-cache']).toBe('MISS');
  expect(((await read.json()) as Appeal).summary.total_donations).toBe(after);
});

test('critical CSS is inline and the LCP image is a high-priority responsive AVIF/WebP picture', async ({
  page,
  request,
}) => {
  const a = await appeal(request, 9);
  for (const path of ['/', `/appeals/${a.short_id}`]) {
    const html = await (await request.get(path)).text();
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
    expect(html).toMatch(/<style[^>]*>[^<]{1000,}/);
  }

  // The LCP images are preloaded from <head>, AVIF srcset first.
  const preload = (html: string) =>
    /<link rel="preload" as="image" type="image\/avif" imagesrcset="[^"]*-480\.avif 480w/.test(
      html.slice(0, html.indexOf('</head>')),
    );
  expect(preload(await (await request.get('/')).text())).toBe(true);
  expect(preload(await (await request.get(`/appeals/${a.short_id}`)).text())).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const hero = page.locator('.hero-image');
  await expect(hero).toHaveAttribute('fetchpriority', 'high');
  const picture = page.locator('picture:has(.hero-image)');
  await expect(picture.locator('source[type="image/avif"]')).toHaveAttribute('srcset', /cause-7-480\.avif 480w/);
  await expect(picture.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /cause-7-480\.webp 480w/);
  await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/cause-7-\d+\.avif$/);
  // The phone gets a copy sized for its screen (390 CSS px at DPR 1), not the 1200 px original.
  expect(await hero.evaluate((img: HTMLImageElement) => img.currentSrc)).not.toMatch(/1200/);
  expect(await hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  await page.goto(`/appeals/${a.short_id}`);
  const first = page.locator('.image-carousel img').first();
  await expect(first).toHaveAttribute('fetchpriority', 'high');
  await expect(first).toHaveAttribute('loading', 'eager');
  await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\.avif$/);
});

test('once its freshness is over, a copy is served stale while one background render replaces it', async ({
  request,
}) => {
  const a = await appeal(request, 10);
  const path = `/appeals/${a.short_id}`;
  const read = `/api/appeals/${a._id}`;
  let fresh = 0;
  for (const url of [path, read]) {
    await request.get(url);
    const again = await request.get(url);
    expect(again.headers()['x-cache']).toBe('HIT');
    fresh = freshSeconds(again.headers()['cache-control']);
  }
  // The test server keeps copies fresh for a few seconds (PAGE_FRESH_SECONDS); production for 30.
  expect(fresh).toBeGreaterThan(0);
  expect(fresh).toBeLessThanOrEqual(30);
  await new Promise((resolve) => setTimeout(resolve, (fresh + 1) * 1000));
  const stale = await request.get(path);
  expect(stale.status()).toBe(200);
  expect(stale.headers()['x-cache']).toBe('STALE');
  expect(await stale.text()).toContain(a.title);
  const staleRead = await request.get(read);
  expect(staleRead.headers()['x-cache']).toBe('STALE');
  expect(((await staleRead.json()) as Appeal).title).toBe(a.title);
  for (const url of [path, read]) {
    await expect.poll(async () => (await request.get(url)).headers()['x-cache'], { timeout: 15_000 }).toBe('HIT');
  }
});

test('the header row keeps its place before and after the sign-in island is there (CLS 0)', async ({ page }) => {
  // Astro's inline island scripts come before the island in the header, so a browser may paint the
  // row before it has parsed the island: the row must not depend on it.
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const actions = page.locator('.header-actions');
    await expect(actions.getByRole('button', { name: 'Login' })).toBeVisible();
    const withIsland = await actions.boundingBox();
    const donate = await actions.getByRole('link', { name: 'Donate' }).boundingBox();
    await page.evaluate(() => document.querySelector('.header-actions > astro-island')?.remove());
    expect(await actions.boundingBox(), `${width}px`).toEqual(withIsland);
    expect(await actions.getByRole('link', { name: 'Donate' }).boundingBox(), `${width}px`).toEqual(donate);
  }
});
