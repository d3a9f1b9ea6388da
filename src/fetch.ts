import { env, waitUntil } from 'cloudflare:workers';
import { astro, getFetchState } from 'astro/hono';
import { Hono } from 'hono';
import { createApp } from '../api';
import { APPLE_PAY_ASSOCIATION_PATH, applePayAssociation } from '../api/lib/apple-pay';
import type { Bindings } from '../api/lib/types';
import { errorSummary, logLine, requestIdFrom, requestLine } from '../api/middlewares/logger';
import {
  type ApiCacheDecision,
  apiCacheDecision,
  apiWriteRetiresPages,
  bumpPageGeneration,
  edgeCache,
  freshnessFrom,
  pageCacheDecision,
  PRIVATE_PAGE_CACHE_CONTROL,
  readCachedPage,
  renderOnce,
  retirePagesCoalesced,
  REVALIDATE_HEADER,
} from './lib/server/page-cache';
import { BUILD_ID } from './lib/server/build-id';
import { withPageOwnCsp } from './lib/server/page-csp';
import { withSecurityHeaders } from './lib/server/security-headers';

/**
 * The worker's request pipeline (Astro advanced routing): the Hono API owns /api, Astro renders
 * everything else. The API gets the bindings explicitly, so it stays a plain Hono Worker app.
 * Security headers, the request id and page request logs are added around this by src/worker.ts
 * (the headers here too, so cached copies and `astro dev` carry them). Public pages and the API's
 * public reads go through the edge cache (src/lib/server/page-cache.ts, docs/decisions/015).
 */
const api = createApp();
const app = new Hono();
/** No page cache under `astro dev`: an edited page shows at once. */
const pageCache = () => (import.meta.env.DEV ? null : edgeCache());
/** How long a cached copy is fresh (a test server shortens it with PAGE_FRESH_SECONDS). */
const freshness = () => freshnessFrom((env as unknown as Bindings).PAGE_FRESH_SECONDS);

/**
 * Runs work after the response is sent. Astro's Hono entry gives handlers no ExecutionContext, so
 * this uses `waitUntil` from `cloudflare:workers` (awaiting the work where that is missing).
 */
async function afterResponse(work: Promise<unknown>) {
  const guarded = work.catch((err) =>
    logLine('error', 'page cache background work failed', { error: errorSummary(err) }),
  );
  try {
    waitUntil(guarded);
  } catch {
    await guarded;
  }
}
/**
 * The API's execution context: its `waitUntil` lets a route finish work after its answer (a
 * Stripe webhook's receipt, api/lib/after-answer.ts), as it would as a Worker of its own.
 */
const apiExecution = {
  waitUntil: (work: Promise<unknown>) => void afterResponse(work),
  passThroughOnException() {},
  props: {},
};
/** The page cache's re-read of its generation, after the response. */
const background = (work: Promise<unknown>) => void afterResponse(work);

app.use(async (c, next) => {
  await next();
  c.res = withSecurityHeaders(c.res);
});
/** A stale copy is served at once and replaced by one background request that skips the lookup. */
async function revalidateInBackground(url: string) {
  const request = new Request(url, { headers: { [REVALIDATE_HEADER]: '1' } });
  await afterResponse(Promise.resolve().then(() => app.fetch(request, env)));
}

/** A public API read: the cached answer of this generation, else the API's, stored for the next caller. */
async function publicApiRead(request: Request, cache: Cache, decision: Extract<ApiCacheDecision, { kind: 'cache' }>) {
  const started = Date.now();
  if (!request.headers.get(REVALIDATE_HEADER)) {
    const cached = await readCachedPage(cache, decision.key, Date.now(), background, freshness());
    if (cached) {
      const requestId = requestIdFrom(request.headers);
      cached.response.headers.set('X-Cache', cached.state);
      cached.response.headers.set('X-Request-Id', requestId);
      if (cached.state === 'STALE') await revalidateInBackground(request.url);
      // The API did not run, so its one line per request is written here.
      requestLine({
        request_id: requestId,
        method: 'GET',
        route: decision.route,
        status: 200,
        ms: Date.now() - started,
        user_id: null,
        cache: cached.state,
      });
      return cached.response;
    }
  }
  const { send, put, shared } = await renderOnce(
    cache,
    decision.key,
    async () => api.fetch(request, env, apiExecution),
    'application/json',
    background,
    freshness(),
  );
  if (!put && !shared) return send;
  send.headers.set('X-Cache', shared ? 'SHARED' : 'MISS');
  if (shared) send.headers.set('X-Request-Id', requestIdFrom(request.headers));
  if (put) await afterResponse(put);
  return send;
}

// Apple Pay verifies the domain with this file before the Payment Element offers it.
app.get(APPLE_PAY_ASSOCIATION_PATH, () => applePayAssociation(env as unknown as Bindings));
app.all('/api/*', async (c) => {
  const cache = pageCache();
  const decision = cache ? apiCacheDecision(c.req.raw, BUILD_ID) : null;
  if (cache && decision?.kind === 'cache') return publicApiRead(c.req.raw, cache, decision);
  const response = await api.fetch(c.req.raw, env, apiExecution);
  if (cache && apiWriteRetiresPages(c.req.raw, response)) {
    const origin = new URL(c.req.url).origin;
    // Stripe's webhooks arrive in bursts on a telethon night: their retirements are coalesced (about one a second).
    const retire =
      c.req.path === '/api/stripe/webhook' ? retirePagesCoalesced(origin, cache) : bumpPageGeneration(origin, cache);
    await afterResponse(retire);
  }
  return response;
});
app.use(async (c, next) => {
  const decision = pageCacheDecision(c.req.raw, BUILD_ID);
  const cache = pageCache();
  if (decision.kind === 'bypass' || !cache) {
    await next();
    if (decision.kind === 'bypass' && decision.private && c.res.headers.get('content-type')?.startsWith('text/html')) {
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set('Cache-Control', PRIVATE_PAGE_CACHE_CONTROL);
    }
    return;
  }
  if (!c.req.header(REVALIDATE_HEADER)) {
    const cached = await readCachedPage(cache, decision.key, Date.now(), background, freshness());
    if (cached) {
      cached.response.headers.set('X-Cache', cached.state);
      if (cached.state === 'STALE') await revalidateInBackground(c.req.url);
      return cached.response;
    }
  }
  const { send, put, shared } = await renderOnce(
    cache,
    decision.key,
    async () => {
      await next();
      return c.res;
    },
    'text/html',
    background,
    freshness(),
  );
  if (!put && !shared) return;
  send.headers.set('X-Cache', shared ? 'SHARED' : 'MISS');
  c.res = send;
  if (put) await afterResponse(put);
});
app.use(async (c, next) => {
  // Error pages quote the same reference the worker logged (src/worker.ts assigns it).
  getFetchState(c).locals.requestId = requestIdFrom(c.req.raw.headers);
  await next();
});
// Each rendered page's policy lists only its own inline blocks' hashes (before the page cache stores it).
app.use(async (c, next) => {
  await next();
  const narrowed = await withPageOwnCsp(c.res);
  // Hono's setter would copy the old response's headers (its policy among them) onto the new one.
  c.res = undefined;
  c.res = narrowed;
});
app.use(astro());

export default app;
