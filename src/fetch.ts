import { env, waitUntil } from 'cloudflare:workers';
import { astro, getFetchState } from 'astro/hono';
import { Hono } from 'hono';
import { createApp } from '../api';
import { requestIdFrom } from '../api/middlewares/logger';
import {
  apiWriteRetiresPages,
  bumpPageGeneration,
  edgeCache,
  pageCacheDecision,
  PRIVATE_PAGE_CACHE_CONTROL,
  readCachedPage,
  REVALIDATE_HEADER,
  storable,
  storePage,
} from './lib/server/page-cache';
import { withSecurityHeaders } from './lib/server/security-headers';

/**
 * The worker's request pipeline (Astro advanced routing): the Hono API owns /api, Astro renders
 * everything else. The API gets the bindings explicitly, so it stays a plain Hono Worker app.
 * Security headers, the request id and page request logs are added around this by src/worker.ts
 * (the headers here too, so cached copies and `astro dev` carry them). Public pages go through the edge cache (src/lib/server/page-cache.ts, docs/decisions/015).
 */
const api = createApp();
const app = new Hono();
/** No page cache under `astro dev`: an edited page shows at once. */
const pageCache = () => (import.meta.env.DEV ? null : edgeCache());

/**
 * Runs work after the response is sent. Astro's Hono entry gives handlers no ExecutionContext, so
 * this uses `waitUntil` from `cloudflare:workers` (awaiting the work where that is missing).
 */
async function afterResponse(work: Promise<unknown>) {
  const guarded = work.catch((err) => console.error('[page-cache]', err));
  try {
    waitUntil(guarded);
  } catch {
    await guarded;
  }
}

app.use(async (c, next) => {
  await next();
  c.res = withSecurityHeaders(c.res);
});
app.all('/api/*', async (c) => {
  const response = await api.fetch(c.req.raw, env);
  const cache = pageCache();
  if (cache && apiWriteRetiresPages(c.req.raw, response)) await afterResponse(bumpPageGeneration(new URL(c.req.url).origin, cache));
  return response;
});
app.use(async (c, next) => {
  const decision = pageCacheDecision(c.req.raw);
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
    const cached = await readCachedPage(cache, decision.key);
    if (cached) {
      cached.response.headers.set('X-Cache', cached.state);
      if (cached.state === 'STALE') {
        const request = new Request(c.req.url, { headers: { [REVALIDATE_HEADER]: '1' } });
        await afterResponse(Promise.resolve().then(() => app.fetch(request, env)));
      }
      return cached.response;
    }
  }
  await next();
  if (!storable(c.res)) return;
  const { send, put } = await storePage(cache, decision.key, c.res);
  send.headers.set('X-Cache', 'MISS');
  c.res = send;
  await afterResponse(put);
});
app.use(async (c, next) => {
  // Error pages quote the same reference the worker logged (src/worker.ts assigns it).
  getFetchState(c).locals.requestId = requestIdFrom(c.req.raw.headers);
  await next();
});
app.use(astro());

export default app;
