import { describe, expect, it } from 'vitest';
import { apiWriteRetiresPages, pageCacheDecision, PUBLIC_PAGE_CACHE_CONTROL } from './page-cache';

const decide = (path: string, init: RequestInit = {}) => pageCacheDecision(new Request(`https://give.example.org${path}`, init));

describe('page cache decisions', () => {
  it.each(['/', '/campaigns', '/appeals', '/campaigns/abc', '/campaigns/abc/appeals', '/appeals/2lrxqWFUP1TwJDkRs6cHgd', '/campaign/a/appeal/b'])(
    'caches the public page %s',
    (path) => {
      const d = decide(path);
      expect(d.kind).toBe('cache');
      if (d.kind === 'cache') expect(d.key.url).toBe(`https://give.example.org${path}`);
    },
  );

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
    for (const path of ['/api/campaigns', '/dashboard/overview', '/donor/abc', '/fund-raising/review', '/login', '/appeals/a/b/c']) {
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
