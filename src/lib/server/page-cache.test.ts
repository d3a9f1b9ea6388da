import { describe, expect, it } from 'vitest';
import {
  apiCacheDecision,
  apiWriteRetiresPages,
  bumpPageGeneration,
  freshnessFrom,
  pageCacheDecision,
  PUBLIC_PAGE_CACHE_CONTROL,
  readCachedPage,
  renderOnce,
  retirePagesCoalesced,
  storable,
  storePage,
} from './page-cache';

const decide = (path: string, init: RequestInit = {}) =>
  pageCacheDecision(new Request(`https://give.example.org${path}`, init));

describe('page cache decisions', () => {
  it.each([
    '/',
    '/campaigns',
    '/appeals',
    '/campaigns/abc',
    '/campaigns/abc/appeals',
    '/appeals/2lrxqWFUP1TwJDkRs6cHgd',
    '/campaign/a/appeal/b',
  ])('caches the public page %s', (path) => {
    const d = decide(path);
    expect(d.kind).toBe('cache');
    if (d.kind === 'cache') expect(d.key.url).toBe(`https://give.example.org${path}`);
  });

  it('keys ?page=N, drops social click ids, keeps nothing else', () => {
    const d = decide('/appeals?utm_source=fb&page=2&fbclid=x');
    expect(d.kind === 'cache' && d.key.url).toBe('https://give.example.org/appeals?page=2');
    expect(decide('/?fbclid=abc&utm_campaign=winter')).toMatchObject({ kind: 'cache' });
  });

  it.each([
    ['/appeals/x?donation=complete&redirect_status=succeeded'],
    ['/?preview=1'],
    ['/campaigns?page=0'],
    ['/campaigns?page=abc'],
  ])('renders %s fresh and private', (path) => {
    expect(decide(path)).toEqual({ kind: 'bypass', private: true });
  });

  it('never caches a signed-in request, a write, the API or the dashboard', () => {
    expect(decide('/', { headers: { authorization: 'Bearer x' } })).toEqual({ kind: 'bypass', private: true });
    expect(decide('/', { method: 'POST' })).toEqual({ kind: 'bypass', private: false });
    for (const path of [
      '/api/campaigns',
      '/dashboard/overview',
      '/donor/abc',
      '/fund-raising/review',
      '/login',
      '/appeals/a/b/c',
    ]) {
      expect(decide(path)).toEqual({ kind: 'bypass', private: false });
    }
  });

  it('says public pages are shared for 30 s and served stale for 5 minutes while revalidating', () => {
    expect(PUBLIC_PAGE_CACHE_CONTROL).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=300');
  });

  it('retires cached pages after a successful content write only', () => {
    const req = (method: string, path: string) => new Request(`https://x.org${path}`, { method });
    const ok = new Response('{}', { status: 200 });
    expect(apiWriteRetiresPages(req('POST', '/api/stripe/webhook'), ok)).toBe(true);
    expect(apiWriteRetiresPages(req('POST', '/api/stripe/demo/confirm'), ok)).toBe(true);
    expect(apiWriteRetiresPages(req('PUT', '/api/campaigns/abc'), ok)).toBe(true);
    expect(apiWriteRetiresPages(req('POST', '/api/donations'), new Response('{}', { status: 201 }))).toBe(true);
    expect(apiWriteRetiresPages(req('POST', '/api/donations'), new Response('{}', { status: 400 }))).toBe(false);
    expect(apiWriteRetiresPages(req('GET', '/api/campaigns'), ok)).toBe(false);
    expect(apiWriteRetiresPages(req('POST', '/api/auth/login'), ok)).toBe(false);
    expect(apiWriteRetiresPages(req('POST', '/api/stripe/client_secret'), ok)).toBe(false);
  });
});

describe('public API reads', () => {
  const decideApi = (path: string, init: RequestInit = {}) =>
    apiCacheDecision(new Request(`https://give.example.org${path}`, init));

  it.each([
    ['/api/campaigns', '/api/campaigns'],
    ['/api/campaigns/31551842-05af-49ff-acdb-a9b948e93b60', '/api/campaigns/:id'],
    ['/api/campaigns/1V5VlneMwNCmAJm78iSozo/appeals?limit=10', '/api/campaigns/:id/appeals'],
    ['/api/appeals?limit=100', '/api/appeals'],
    ['/api/appeals/2lrxqWFUP1TwJDkRs6cHgd', '/api/appeals/:id'],
    ['/api/donations?type=public&campaign_id=abc', '/api/donations'],
  ])('caches the anonymous read %s, logged as %s', (path, route) => {
    expect(decideApi(path)).toMatchObject({ kind: 'cache', route });
  });

  it('keys the whole query, whatever the order of its parameters', () => {
    const a = decideApi('/api/appeals?status=approved&limit=5&limit=6');
    const b = decideApi('/api/appeals?limit=5&status=approved&limit=6');
    expect(a.kind === 'cache' && a.key.url).toBe(
      'https://give.example.org/api/appeals?limit=5&limit=6&status=approved',
    );
    expect(b.kind === 'cache' && b.key.url).toBe(a.kind === 'cache' && a.key.url);
    const other = decideApi('/api/appeals?limit=5');
    expect(other.kind === 'cache' && other.key.url).toBe('https://give.example.org/api/appeals?limit=5');
  });

  it("keys every copy by the worker's build, so a deployment never serves the last one's pages", () => {
    // A page names its build's hashed scripts; the next build no longer serves them.
    const page = (build: string) =>
      pageCacheDecision(new Request('https://give.example.org/appeals?utm_source=x'), build);
    const api = (build: string) => apiCacheDecision(new Request('https://give.example.org/api/appeals?limit=5'), build);
    const url = (d: ReturnType<typeof page> | ReturnType<typeof api>) => (d.kind === 'cache' ? d.key.url : null);
    expect(url(page('b1'))).toBe('https://give.example.org/appeals?__build=b1');
    expect(url(page('b2'))).toBe('https://give.example.org/appeals?__build=b2');
    expect(url(api('b1'))).toBe('https://give.example.org/api/appeals?limit=5&__build=b1');
    expect(url(api('b1'))).not.toBe(url(api('b2')));
    // A caller cannot pick a build's copy: the mark is the cache's own.
    expect(decideApi('/api/appeals?__build=b1').kind).toBe('bypass');
    expect(pageCacheDecision(new Request('https://give.example.org/appeals?__build=b1'), 'b1')).toEqual({
      kind: 'bypass',
      private: true,
    });
  });

  it('never caches a token, a caller asking for the origin, a write, private donations or other routes', () => {
    const inits: RequestInit[] = [
      { headers: { authorization: 'Bearer x' } },
      { headers: { 'cache-control': 'no-cache' } },
      { headers: { 'cache-control': 'max-age=0, no-store' } },
      { headers: { pragma: 'no-cache' } },
      { method: 'POST' },
      { method: 'PUT' },
    ];
    for (const init of inits) {
      expect(decideApi('/api/campaigns', init)).toEqual({ kind: 'bypass' });
    }
    for (const path of [
      '/api/donations',
      '/api/donations?type=me',
      '/api/donations/summary',
      '/api/me',
      '/api/users',
      '/api/health',
      '/api/gift-aid/claims',
      '/api/campaigns/a/b/c',
    ]) {
      expect(decideApi(path)).toEqual({ kind: 'bypass' });
    }
    expect(decideApi(`/api/appeals?search=${'x'.repeat(600)}`)).toEqual({ kind: 'bypass' });
  });
});

/** A Map-backed stand-in for caches.default (keys by URL), enough for match/put. */
class FakeCache {
  store = new Map<string, Response>();
  lookups: string[] = [];
  async match(request: Request) {
    this.lookups.push(new URL(request.url).pathname);
    return this.store.get(request.url)?.clone();
  }
  async put(request: Request, response: Response) {
    this.store.set(request.url, response.clone());
  }
}

describe('cached copies: fresh, stale, expired, retired', () => {
  const key = new Request('https://give.example.org/appeals/x');
  const page = () =>
    new Response('<h1>£1,045 raised</h1>', { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });

  it('serves a copy as HIT for 30 s, STALE until 330 s, then not at all', async () => {
    const cache = new FakeCache() as unknown as Cache;
    const t0 = 1_000_000;
    const { send, put } = await storePage(cache, key, page(), t0);
    await put;
    expect(send.headers.get('cache-control')).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    expect(await send.text()).toContain('£1,045');
    const hit = await readCachedPage(cache, key, t0 + 29_000);
    expect(hit?.state).toBe('HIT');
    expect(hit?.response.headers.get('age')).toBe('29');
    expect(hit?.response.headers.get('x-page-generation')).toBeNull();
    expect(await hit?.response.text()).toContain('£1,045');
    expect((await readCachedPage(cache, key, t0 + 31_000))?.state).toBe('STALE');
    expect(await readCachedPage(cache, key, t0 + 331_000)).toBeNull();
  });

  it('takes a shorter freshness from PAGE_FRESH_SECONDS (1-30 s) and says so in the header; anything else keeps 30 s', async () => {
    for (const setting of [undefined, '', '0', '31', '4.5', '-3', 'soon', '99999'])
      expect(freshnessFrom(setting)).toEqual({ fresh: 30, stale: 300 });
    const short = freshnessFrom('4');
    expect(short).toEqual({ fresh: 4, stale: 300 });
    const cache = new FakeCache() as unknown as Cache;
    const t0 = 2_000_000;
    const { send, put } = await storePage(cache, key, page(), t0, undefined, short);
    await put;
    expect(send.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=4, stale-while-revalidate=300');
    expect((await readCachedPage(cache, key, t0 + 3_000, undefined, short))?.state).toBe('HIT');
    const stale = await readCachedPage(cache, key, t0 + 5_000, undefined, short);
    expect(stale?.state).toBe('STALE');
    expect(stale?.response.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=4, stale-while-revalidate=300',
    );
    expect(await readCachedPage(cache, key, t0 + 305_000, undefined, short)).toBeNull();
  });

  it('retires every copy when the generation moves (a gift or an edit)', async () => {
    const cache = new FakeCache() as unknown as Cache;
    await (await storePage(cache, key, page())).put;
    expect(await readCachedPage(cache, key)).not.toBeNull();
    await bumpPageGeneration('https://give.example.org', cache);
    expect(await readCachedPage(cache, key)).toBeNull();
  });

  it("reads the generation once a second: another isolate's write retires copies here within that second", async () => {
    const cache = new FakeCache() as unknown as Cache;
    const t0 = 5_000_000;
    await (await storePage(cache, key, page(), t0)).put;
    // Another isolate of the location records a gift: it writes the generation this isolate reads.
    const origin = 'https://give.example.org';
    await cache.put(new Request(`${origin}/__page-cache-generation`), new Response('elsewhere'));
    expect((await readCachedPage(cache, key, t0 + 500))?.state).toBe('HIT');
    expect(await readCachedPage(cache, key, t0 + 1_000)).toBeNull();
  });

  it('past the second, answers at once and re-reads the generation after the response; past 5 s, waits for it', async () => {
    const cache = new FakeCache() as unknown as Cache;
    const t0 = 6_000_000;
    await (await storePage(cache, key, page(), t0)).put;
    await cache.put(new Request('https://give.example.org/__page-cache-generation'), new Response('elsewhere'));
    const work: Promise<unknown>[] = [];
    const background = (w: Promise<unknown>) => void work.push(w);
    // This visitor does not wait for the lookup: the generation it knew still serves the copy.
    expect((await readCachedPage(cache, key, t0 + 1_200, background))?.state).toBe('HIT');
    expect(work).toHaveLength(1);
    await Promise.all(work);
    // The re-read saw the other isolate's write: the next visitor gets a fresh render.
    expect(await readCachedPage(cache, key, t0 + 1_300, background)).toBeNull();

    const quiet = new FakeCache() as unknown as Cache;
    await (await storePage(quiet, key, page(), t0)).put;
    await quiet.put(new Request('https://give.example.org/__page-cache-generation'), new Response('elsewhere'));
    const idle: Promise<unknown>[] = [];
    expect(await readCachedPage(quiet, key, t0 + 5_000, (w) => void idle.push(w))).toBeNull();
    expect(idle).toHaveLength(0);
  });

  it("serves a burst from the isolate's memory: no cache lookup per visitor, and a retired copy is not served from it", async () => {
    const fake = new FakeCache();
    const cache = fake as unknown as Cache;
    const t0 = 9_000_000;
    await (await storePage(cache, key, page(), t0)).put;
    fake.lookups = [];
    for (let i = 0; i < 20; i++) {
      const hit = await readCachedPage(cache, key, t0 + 100 + i);
      expect(hit?.state).toBe('HIT');
      expect(await hit?.response.text()).toContain('£1,045');
    }
    expect(fake.lookups).toEqual([]);
    await bumpPageGeneration('https://give.example.org', cache);
    expect(await readCachedPage(cache, key)).toBeNull();
  });

  it("never hands one request's id to the next caller, from memory or from the shared cache", async () => {
    const fake = new FakeCache();
    const answer = new Response('[]', {
      headers: { 'content-type': 'application/json', 'x-request-id': 'first-request-0001' },
    });
    const { send, put } = await storePage(fake as unknown as Cache, key, answer);
    await put;
    expect(send.headers.get('x-request-id')).toBe('first-request-0001');
    expect((await readCachedPage(fake as unknown as Cache, key))?.response.headers.get('x-request-id')).toBeNull();
    // Another isolate of the location: no memory copy, read from the Cache API.
    const elsewhere = new FakeCache();
    elsewhere.store = fake.store;
    const shared = await readCachedPage(elsewhere as unknown as Cache, key);
    expect(elsewhere.lookups).toContain('/appeals/x');
    expect(shared?.response.headers.get('x-request-id')).toBeNull();
    expect(await shared?.response.text()).toBe('[]');
  });

  it('stores only full HTML pages (or API JSON) without cookies', () => {
    expect(storable(new Response('[]', { headers: { 'content-type': 'application/json' } }), 'application/json')).toBe(
      true,
    );
    expect(
      storable(
        new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } }),
        'application/json',
      ),
    ).toBe(false);
    expect(storable(page(), 'application/json')).toBe(false);
    expect(storable(page())).toBe(true);
    expect(storable(new Response('x', { status: 404, headers: { 'content-type': 'text/html' } }))).toBe(false);
    expect(storable(new Response('{}', { headers: { 'content-type': 'application/json' } }))).toBe(false);
    expect(storable(new Response('x', { headers: { 'content-type': 'text/html', 'set-cookie': 'a=b' } }))).toBe(false);
  });
});

describe('a storm of writes and visitors', () => {
  const origin = 'https://give.example.org';
  const key = new Request(`${origin}/appeals/storm`);
  const html = (text: string) =>
    new Response(text, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
  /** A retirement's wait that the test ends itself (`release`), noting each length asked for. */
  const heldWaits = () => {
    const waits: number[] = [];
    let releaseLast: () => void = () => {};
    const wait = (ms: number) => {
      waits.push(ms);
      return new Promise<void>((resolve) => (releaseLast = resolve));
    };
    return { waits, wait, release: () => releaseLast() };
  };

  it("coalesces Stripe's retirements: the first at once, the rest of the second in one more at its end", async () => {
    const cache = new FakeCache() as unknown as Cache;
    const { waits, wait, release } = heldWaits();
    const t0 = 20_000_000;
    await (await storePage(cache, key, html('before'), t0)).put;
    await retirePagesCoalesced(origin, cache, t0, wait);
    expect(await readCachedPage(cache, key, t0)).toBeNull();
    // The page is rendered again; the gifts of the next 300 ms share one retirement at the window's end.
    await (await storePage(cache, key, html('after the first gift'), t0 + 100)).put;
    const second = retirePagesCoalesced(origin, cache, t0 + 200, wait);
    const third = retirePagesCoalesced(origin, cache, t0 + 300, wait);
    expect(third).toBe(second);
    expect(waits).toEqual([800]);
    expect((await readCachedPage(cache, key, t0 + 400))?.state).toBe('HIT');
    release();
    await second;
    expect(await readCachedPage(cache, key, Date.now())).toBeNull();
  });

  it('widens the window while gifts keep coming (1, 2, 4, then 5 s) and starts again at 1 s after a quiet spell', async () => {
    const cache = new FakeCache() as unknown as Cache;
    const { waits, wait, release } = heldWaits();
    const generation = async () => (await cache.match(new Request(`${origin}/__page-cache-generation`)))?.text();
    const t0 = 30_000_000;
    // A storm: a gift every 50 ms. Each retirement waits for the end of its window.
    await retirePagesCoalesced(origin, cache, t0, wait);
    const retired: (string | undefined)[] = [await generation()];
    let t = t0;
    for (let window = 0; window < 5; window++) {
      t += 50;
      const pending = retirePagesCoalesced(origin, cache, t, wait);
      // Later gifts of the same window share its retirement.
      expect(retirePagesCoalesced(origin, cache, t + 50, wait)).toBe(pending);
      release();
      await pending;
      retired.push(await generation());
      t += waits.at(-1)!;
    }
    // Each gift came 50 ms after the last retirement: it waits for the rest of its window.
    expect(waits).toEqual([950, 1950, 3950, 4950, 4950]);
    expect(new Set(retired).size).toBe(retired.length);
    // Nothing for longer than a window: the next gift retires at once and the window is 1 s again.
    t += 5_001 + 50;
    await retirePagesCoalesced(origin, cache, t, wait);
    expect(waits).toHaveLength(5);
    const pending = retirePagesCoalesced(origin, cache, t + 100, wait);
    expect(waits.at(-1)).toBe(900);
    release();
    await pending;
  });

  it('renders a missed page once for the visitors who ask while it renders, and again after a retirement', async () => {
    const cache = new FakeCache() as unknown as Cache;
    let renders = 0;
    let finish: () => void = () => {};
    const render = async () => {
      renders++;
      await new Promise<void>((resolve) => (finish = resolve));
      return html(`render ${renders}`);
    };
    const first = renderOnce(cache, key, render);
    await new Promise((r) => setTimeout(r, 0));
    const others = [renderOnce(cache, key, render), renderOnce(cache, key, render)];
    await new Promise((r) => setTimeout(r, 0));
    finish();
    const answers = await Promise.all([first, ...others]);
    expect(renders).toBe(1);
    expect(answers.map((a) => a.shared)).toEqual([false, true, true]);
    for (const a of answers) expect(await a.send.text()).toBe('render 1');
    expect(answers[1].send.headers.get('cache-control')).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    await bumpPageGeneration(origin, cache);
    const after = renderOnce(cache, key, render);
    await new Promise((r) => setTimeout(r, 0));
    finish();
    expect(await (await after).send.text()).toBe('render 2');
  });

  it('lets every visitor render a page that may not be stored (an error), none waiting on another', async () => {
    const cache = new FakeCache() as unknown as Cache;
    const failed = await renderOnce(
      cache,
      key,
      async () => new Response('oops', { status: 500, headers: { 'content-type': 'text/html' } }),
    );
    expect(failed).toMatchObject({ put: null, shared: false });
    expect(failed.send.status).toBe(500);
  });
});
