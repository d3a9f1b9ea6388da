import { expect, test } from './fixtures';

test('pages and API answers forbid framing and MIME sniffing', async ({ request }) => {
  // /events is pre-rendered (served from static assets with public/_headers); the rest by the worker.
  for (const path of [
    '/',
    '/campaigns',
    '/events',
    '/favicon.svg',
    '/no/such/page',
    '/dashboard/overview',
    '/api/health',
    '/api/nope',
  ]) {
    const res = await request.get(path);
    const headers = res.headers();
    expect(headers['x-frame-options'], path).toBe('DENY');
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
  }
});

test('every worker answer names the id the worker gave it, never one the caller chose', async ({ request }) => {
  const callerChosen = 'caller-chosen-id-0001';
  const ids = new Set<string>();
  for (const path of ['/api/health', '/api/campaigns', '/api/nope']) {
    const res = await request.get(path, { headers: { 'x-request-id': callerChosen } });
    const id = res.headers()['x-request-id'];
    expect(id, path).toMatch(/^[0-9a-f-]{36}$/);
    ids.add(id);
  }
  expect(ids.size).toBe(3);
});
