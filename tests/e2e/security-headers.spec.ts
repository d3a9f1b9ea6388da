import { expect, test } from './fixtures';

test('pages and API answers forbid framing and MIME sniffing', async ({ request }) => {
  // /events is pre-rendered (served from static assets with public/_headers); the rest by the worker.
  for (const path of ['/', '/campaigns', '/events', '/favicon.svg', '/no/such/page', '/dashboard/overview', '/api/health', '/api/nope']) {
    const res = await request.get(path);
    const headers = res.headers();
    expect(headers['x-frame-options'], path).toBe('DENY');
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
  }
});
