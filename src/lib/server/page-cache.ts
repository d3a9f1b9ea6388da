/**
 * Edge caching of the public server-rendered pages and of the API's public reads
 * (docs/decisions/015), with the Workers Cache API (`caches.default`, one cache per Cloudflare
 * location; miniflare's locally).
 *
 * - Only anonymous GETs of the public pages below are cached, with no query but `?page=N` and
 *   social/campaign click ids (utm_*, fbclid…, left out of the key): a URL with anything else (the
 *   `?donation=` return from a payment, unknown parameters) is rendered fresh and marked `no-store`. Nothing under /api, /dashboard, /donor or /fund-raising is cached.
 *   The pages read no cookie or header, so one copy serves every visitor.
 * - A copy is fresh for PAGE_FRESH_SECONDS (the setting of that name may shorten it), then served stale for up to PAGE_STALE_SECONDS while one
 *   background render replaces it (stale-while-revalidate done in the worker, since the Cache API
 *   itself ignores that directive).
 * - Every successful write through the API (a gift recorded by the webhook or the demo
 *   confirmation, a manual gift, a campaign edit) moves the cache generation, which retires every
 *   cached page of this location at once: the next visitor gets a fresh render.
 * - The API's public reads (campaign and appeal lists and items, public top donors) are kept the
 *   same way, keyed by their whole query: what every visitor's browser asks for on a shared appeal.
 *   A request with a token, or one that asks for the origin's answer (`Cache-Control: no-cache`),
 *   is never served from the cache.
 * - The raised total a donor sees after giving never depends on this cache: the thank-you state
 *   asks the API past it (`fresh`), and the return URL carries `?donation=`.
 */

export const PAGE_FRESH_SECONDS = 30;
export const PAGE_STALE_SECONDS = 300;

/** How long a cached copy is fresh, then stale-but-served, in seconds. */
export type Freshness = { fresh: number; stale: number };
export const DEFAULT_FRESHNESS: Freshness = { fresh: PAGE_FRESH_SECONDS, stale: PAGE_STALE_SECONDS };

/**
 * The freshness from the PAGE_FRESH_SECONDS setting: whole seconds from 1 to the default (a test
 * server shortens it so the stale path can be seen without waiting half a minute). Anything else
 * keeps the default.
 */
export function freshnessFrom(setting: string | undefined): Freshness {
  const seconds = /^\d{1,4}$/.test(setting ?? '') ? Number(setting) : Number.NaN;
  return seconds >= 1 && seconds <= PAGE_FRESH_SECONDS ? { ...DEFAULT_FRESHNESS, fresh: seconds } : DEFAULT_FRESHNESS;
}

/** What browsers and any shared cache in front of the worker are told about a public page. */
export const publicCacheControl = (freshness: Freshness) =>
  `public, max-age=0, s-maxage=${freshness.fresh}, stale-while-revalidate=${freshness.stale}`;
export const PUBLIC_PAGE_CACHE_CONTROL = publicCacheControl(DEFAULT_FRESHNESS);
/** A page rendered for a URL that must not be shared (e.g. the `?donation=` return). */
export const PRIVATE_PAGE_CACHE_CONTROL = 'private, no-store';

const ID = '[A-Za-z0-9_-]{1,64}';
const PUBLIC_PAGES = [
  /^\/$/,
  /^\/campaigns$/,
  /^\/appeals$/,
  new RegExp(`^/campaigns/${ID}$`),
  new RegExp(`^/campaigns/${ID}/appeals$`),
  new RegExp(`^/appeals/${ID}$`),
  new RegExp(`^/campaign/${ID}/appeal/${ID}$`),
];

/**
 * Click identifiers that social networks and campaigns append to shared links. No page reads them,
 * so they are left out of the cache key: a burst of visitors from a post shares one cached copy.
 */
const TRACKING_PARAM =
  /^(utm_[a-z_]+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|igshid|twclid|ttclid|li_fat_id|mc_cid|mc_eid|_ga)$/;

/** Marks the generation a copy was rendered in, and when. */
const GENERATION_HEADER = 'x-page-generation';
const RENDERED_AT_HEADER = 'x-rendered-at';
/** Internal: a background re-render asks to skip the lookup. Any client may send it: it only costs a render. */
export const REVALIDATE_HEADER = 'x-page-revalidate';

export type PageCacheDecision = { kind: 'cache'; key: Request } | { kind: 'bypass'; private: boolean };

/**
 * The build's mark on a cache key. A page names its build's hashed scripts and styles, which a new
 * deployment no longer serves: one build never reads another's copies (they expire on their own).
 */
const BUILD_PARAM = '__build';
function keyOf(url: URL, build: string): Request {
  if (build) url.searchParams.set(BUILD_PARAM, build);
  return new Request(url.toString(), { method: 'GET' });
}

/**
 * Whether this request's page may come from (and go into) the shared cache, and under which key
 * (`build`: this worker's build id, src/lib/server/build-id.ts).
 */
export function pageCacheDecision(request: Request, build = ''): PageCacheDecision {
  const url = new URL(request.url);
  if (request.method !== 'GET' || !PUBLIC_PAGES.some((re) => re.test(url.pathname)))
    return { kind: 'bypass', private: false };
  if (request.headers.has('authorization')) return { kind: 'bypass', private: true };
  const names = [...new Set(url.searchParams.keys())];
  if (names.some((name) => name !== 'page' && !TRACKING_PARAM.test(name))) return { kind: 'bypass', private: true };
  const page = url.searchParams.get('page');
  if (page !== null && !/^[1-9]\d{0,4}$/.test(page)) return { kind: 'bypass', private: true };
  const key = new URL(url.pathname, url.origin);
  if (page !== null) key.searchParams.set('page', page);
  return { kind: 'cache', key: keyOf(key, build) };
}

/**
 * The API's public reads, with the route pattern their log line names (no ids). Their answers
 * depend on the URL alone when no token is sent.
 */
const PUBLIC_API_READS: { path: RegExp; route: string }[] = [
  { path: /^\/api\/campaigns$/, route: '/api/campaigns' },
  { path: new RegExp(`^/api/campaigns/${ID}$`), route: '/api/campaigns/:id' },
  { path: new RegExp(`^/api/campaigns/${ID}/appeals$`), route: '/api/campaigns/:id/appeals' },
  { path: /^\/api\/appeals$/, route: '/api/appeals' },
  { path: new RegExp(`^/api/appeals/${ID}$`), route: '/api/appeals/:id' },
  // Only with type=public (a leaderboard); the other types need a token anyway.
  { path: /^\/api\/donations$/, route: '/api/donations' },
];
/** Longer queries are answered without the cache rather than filling it with one-off keys. */
const MAX_API_QUERY = 512;

export type ApiCacheDecision = { kind: 'cache'; key: Request; route: string } | { kind: 'bypass' };

/** A request that wants the origin's answer: fetch's `cache: 'no-store'` or `'reload'`, or the header itself. */
const asksForFresh = (headers: Headers) =>
  /no-cache|no-store/i.test(headers.get('cache-control') ?? '') || /no-cache/i.test(headers.get('pragma') ?? '');

/** Whether this API request may be answered from (and stored in) the shared cache, and under which key. */
export function apiCacheDecision(request: Request, build = ''): ApiCacheDecision {
  if (request.method !== 'GET' || request.headers.has('authorization') || asksForFresh(request.headers))
    return { kind: 'bypass' };
  const url = new URL(request.url);
  const read = PUBLIC_API_READS.find((r) => r.path.test(url.pathname));
  // The build's own mark is the cache's to set, never a caller's.
  if (!read || url.search.length > MAX_API_QUERY || url.searchParams.has(BUILD_PARAM)) return { kind: 'bypass' };
  if (read.route === '/api/donations' && url.searchParams.get('type') !== 'public') return { kind: 'bypass' };
  // One key whatever the order of the parameters (a repeated one keeps its values' order).
  const key = new URL(url.pathname + url.search, url.origin);
  key.searchParams.sort();
  return { kind: 'cache', key: keyOf(key, build), route: read.route };
}

/** `caches.default` where the runtime has it (workerd), else null (Node tests). */
export function edgeCache(): Cache | null {
  const storage = (globalThis as { caches?: CacheStorage & { default?: Cache } }).caches;
  return storage?.default ?? null;
}

const generationKey = (origin: string) =>
  new Request(new URL('/__page-cache-generation', origin).toString(), { method: 'GET' });

/**
 * The generation as this isolate last read it, trusted for GENERATION_MEMO_MS: a cached page then
 * costs one cache lookup instead of two. A write in this isolate is seen at once (bump sets it); one
 * in another isolate of the location within about that time, well inside the 30 s a copy may be served.
 * Past that, while the value is younger than GENERATION_WAIT_MS, a request that can leave work
 * running after its response (`background`) answers with the value it has and re-reads it for the
 * next ones: at a steady rate no visitor waits for the lookup (it was the slowest 2% of cached
 * answers at 50 req/s). Older than that, the request waits for it.
 */
const GENERATION_MEMO_MS = 1000;
const GENERATION_WAIT_MS = 5000;
type GenerationMemo = { value: string; readAt: number; refreshingSince?: number };
const generationMemo = new WeakMap<Cache, Map<string, GenerationMemo>>();

/** Runs work after the response has gone (the worker's waitUntil). */
export type Background = (work: Promise<unknown>) => void;

function memoOf(cache: Cache) {
  let memo = generationMemo.get(cache);
  if (!memo) generationMemo.set(cache, (memo = new Map()));
  return memo;
}

async function readGeneration(cache: Cache, origin: string, now: number): Promise<string> {
  const memo = memoOf(cache);
  const before = memo.get(origin);
  const hit = await cache.match(generationKey(origin));
  const value = hit ? await hit.text() : '0';
  // A bump while this read was in flight is newer than what the read saw.
  if (memo.get(origin) === before) memo.set(origin, { value, readAt: now });
  return value;
}

async function currentGeneration(
  cache: Cache,
  origin: string,
  now = Date.now(),
  background?: Background,
): Promise<string> {
  const known = memoOf(cache).get(origin);
  const age = known ? now - known.readAt : Number.NaN;
  if (known && age >= 0 && age < GENERATION_MEMO_MS) return known.value;
  if (known && background && age >= 0 && age < GENERATION_WAIT_MS) {
    // One re-read at a time (another may start if one has not finished within the memo time).
    if (known.refreshingSince === undefined || !(now - known.refreshingSince < GENERATION_MEMO_MS)) {
      known.refreshingSince = now;
      background(readGeneration(cache, origin, now));
    }
    return known.value;
  }
  return readGeneration(cache, origin, now);
}

/** Retires every cached page of this origin (in this location). */
export async function bumpPageGeneration(origin: string, cache = edgeCache()): Promise<void> {
  if (!cache) return;
  const next = `${Date.now()}-${crypto.randomUUID().slice(0, 8)}`;
  memoOf(cache).set(origin, { value: next, readAt: Date.now() });
  await cache.put(
    generationKey(origin),
    new Response(next, { headers: { 'Cache-Control': 'public, s-maxage=31536000' } }),
  );
}

/**
 * Retirements by Stripe's webhooks are coalesced per isolate. The first gift after a quiet spell
 * retires the pages at once; the gifts that follow within the window share one more retirement at
 * its end. While gifts keep coming, each window is twice the last, up to RETIRE_COALESCE_MAX_MS:
 * in a storm of 20 gifts a second a hot page is rendered once every 5 seconds instead of twenty
 * times a second (a webhook is Stripe's request, not a visitor's: nobody reloads a page waiting on
 * it, and a donor's own thank-you reads past the cache). A window with no gift at all ends the storm.
 */
export const RETIRE_COALESCE_MS = 1000;
export const RETIRE_COALESCE_MAX_MS = 5000;
type Retirement = { lastAt: number; askedAt: number; windowMs: number; pending: Promise<void> | null };
const retirements = new WeakMap<Cache, Map<string, Retirement>>();

/** Retires the cached pages now, or once at the end of the current window; the promise settles when it is done. */
export function retirePagesCoalesced(
  origin: string,
  cache = edgeCache(),
  now = Date.now(),
  wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
): Promise<void> {
  if (!cache) return Promise.resolve();
  let byOrigin = retirements.get(cache);
  if (!byOrigin) retirements.set(cache, (byOrigin = new Map()));
  const state = byOrigin.get(origin) ?? {
    lastAt: Number.NEGATIVE_INFINITY,
    askedAt: Number.NEGATIVE_INFINITY,
    windowMs: RETIRE_COALESCE_MS,
    pending: null,
  };
  byOrigin.set(origin, state);
  const quietSpell = now - state.askedAt > state.windowMs;
  state.askedAt = now;
  if (state.pending) return state.pending;
  if (quietSpell) state.windowMs = RETIRE_COALESCE_MS;
  const due = state.lastAt + state.windowMs;
  if (now >= due) {
    state.lastAt = now;
    return bumpPageGeneration(origin, cache);
  }
  state.pending = wait(due - now).then(async () => {
    state.lastAt = due;
    state.pending = null;
    // This window was a burst: the next one is longer while gifts keep coming.
    state.windowMs = Math.min(state.windowMs * 2, RETIRE_COALESCE_MAX_MS);
    await bumpPageGeneration(origin, cache);
  });
  return state.pending;
}

/** The render of a page (or API answer) under way in this isolate, per URL and generation. */
type Shared = { body: ArrayBuffer; status: number; headers: [string, string][] } | null;
const rendering = new WeakMap<Cache, Map<string, Promise<Shared>>>();

/**
 * Renders a cache miss once per URL and generation in this isolate: visitors who miss the same page
 * while its render is under way get a copy of that render instead of starting their own (after a
 * retirement, every connection on a hot page would otherwise render it at the same moment). The
 * render stores the copy as storePage does; `null` means it was not storable and each caller renders.
 */
export async function renderOnce(
  cache: Cache,
  key: Request,
  render: () => Promise<Response>,
  type: 'text/html' | 'application/json' = 'text/html',
  background?: Background,
  freshness = DEFAULT_FRESHNESS,
): Promise<{ send: Response; put: Promise<void> | null; shared: boolean }> {
  const generation = await currentGeneration(cache, new URL(key.url).origin, Date.now(), background);
  let inFlight = rendering.get(cache);
  if (!inFlight) rendering.set(cache, (inFlight = new Map()));
  const slot = `${generation} ${key.url}`;
  const running = inFlight.get(slot);
  if (running) {
    const copy = await running;
    if (copy) {
      const send = new Response(copy.body.slice(0), { status: copy.status, headers: copy.headers });
      return { send, put: null, shared: true };
    }
  }
  let settle: (value: Shared) => void = () => {};
  if (!running) inFlight.set(slot, new Promise<Shared>((resolve) => (settle = resolve)));
  try {
    const rendered = await render();
    if (!storable(rendered, type)) {
      settle(null);
      return { send: rendered, put: null, shared: false };
    }
    const { send, put } = await storePage(cache, key, rendered, Date.now(), background, freshness);
    const body = await send.clone().arrayBuffer();
    settle({ body, status: send.status, headers: [...send.headers].filter(([name]) => !NOT_SHARED.has(name)) });
    return { send, put, shared: false };
  } catch (error) {
    settle(null);
    throw error;
  } finally {
    if (!running) inFlight.delete(slot);
  }
}

export type CachedPage = { response: Response; state: 'HIT' | 'STALE' } | null;

/**
 * The pages this isolate served lately, in front of the Cache API: a copy read or stored here once
 * is served from memory until its generation moves or it ages out, so a burst of visitors to a
 * shared appeal costs no cache lookup at all. Bounded (the oldest entry goes first); each isolate
 * holds its own, and the Cache API stays the copy every isolate of the location shares.
 */
const MEMORY_PAGES = 64;
type MemoryPage = { body: ArrayBuffer; headers: [string, string][]; generation: string; renderedAt: number };
const memoryPages = new WeakMap<Cache, Map<string, MemoryPage>>();

function memoryOf(cache: Cache) {
  let pages = memoryPages.get(cache);
  if (!pages) memoryPages.set(cache, (pages = new Map()));
  return pages;
}

/** Headers a stored copy keeps from neither its request nor our bookkeeping: each answer names its own request. */
const NOT_SHARED = new Set([GENERATION_HEADER, RENDERED_AT_HEADER, 'x-request-id']);

/** A stored copy's headers without our bookkeeping ones, as a visitor gets them. */
const visibleHeaders = (headers: Headers): [string, string][] => [...headers].filter(([name]) => !NOT_SHARED.has(name));

function remember(cache: Cache, url: string, page: MemoryPage) {
  const pages = memoryOf(cache);
  pages.delete(url);
  pages.set(url, page);
  if (pages.size > MEMORY_PAGES) pages.delete(pages.keys().next().value!);
}

/** The cached copy of a page when it belongs to the current generation and is not too old. */
export async function readCachedPage(
  cache: Cache,
  key: Request,
  now = Date.now(),
  background?: Background,
  freshness = DEFAULT_FRESHNESS,
): Promise<CachedPage> {
  const generation = await currentGeneration(cache, new URL(key.url).origin, now, background);
  let page = memoryOf(cache).get(key.url);
  if (page?.generation !== generation) {
    const hit = await cache.match(key);
    if (!hit || hit.headers.get(GENERATION_HEADER) !== generation) return null;
    page = {
      body: await hit.arrayBuffer(),
      headers: visibleHeaders(hit.headers),
      generation,
      renderedAt: Number(hit.headers.get(RENDERED_AT_HEADER) ?? 0),
    };
    remember(cache, key.url, page);
  }
  const age = (now - page.renderedAt) / 1000;
  if (!(age >= 0) || age > freshness.fresh + freshness.stale) return null;
  const response = new Response(page.body.slice(0), { status: 200, headers: page.headers });
  response.headers.set('Cache-Control', publicCacheControl(freshness));
  response.headers.set('Age', String(Math.floor(age)));
  return { response, state: age <= freshness.fresh ? 'HIT' : 'STALE' };
}

/** Whether an answer may be stored: a full 200 HTML page (or, for the API, JSON) that sets no cookie. */
export function storable(response: Response, type: 'text/html' | 'application/json' = 'text/html'): boolean {
  return (
    response.status === 200 &&
    !response.headers.has('set-cookie') &&
    (response.headers.get('content-type') ?? '').startsWith(type)
  );
}

/** Stores a copy of a rendered page under the current generation; returns the response to send. */
export async function storePage(
  cache: Cache,
  key: Request,
  rendered: Response,
  now = Date.now(),
  background?: Background,
  freshness = DEFAULT_FRESHNESS,
): Promise<{ send: Response; put: Promise<void> }> {
  const generation = await currentGeneration(cache, new URL(key.url).origin, now, background);
  const body = await rendered.arrayBuffer();
  const stored = new Response(body, rendered);
  stored.headers.set('Cache-Control', `public, s-maxage=${freshness.fresh + freshness.stale}`);
  stored.headers.set(GENERATION_HEADER, generation);
  stored.headers.set(RENDERED_AT_HEADER, String(now));
  const send = new Response(body, rendered);
  send.headers.set('Cache-Control', publicCacheControl(freshness));
  remember(cache, key.url, {
    body: body.slice(0),
    headers: visibleHeaders(stored.headers),
    generation,
    renderedAt: now,
  });
  return { send, put: cache.put(key, stored) };
}

/** API writes that change nothing a public page shows. */
const NON_CONTENT_WRITES = [/^\/api\/auth(\/|$)/, /^\/api\/stripe\/client_secret$/];

/** Whether a finished API request changed data the public pages show (so cached pages retire). */
export function apiWriteRetiresPages(request: Request, response: Response): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return false;
  if (response.status < 200 || response.status >= 300) return false;
  const path = new URL(request.url).pathname;
  return !NON_CONTENT_WRITES.some((re) => re.test(path));
}
