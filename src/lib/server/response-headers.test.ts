import { describe, expect, it } from 'vitest';
import { security } from '../csp-policy.mjs';
import { HEADER_ONLY_CSP, withHeaderOnlyDirectives, withSecurityHeaders } from './security-headers';
import { withReasonPhrase } from './status-text';

describe('status lines', () => {
  it('a page that set only its status gets the reason phrase of that status, not "OK"', () => {
    expect(withReasonPhrase(new Response('x', { status: 404, statusText: 'OK' })).statusText).toBe('Not Found');
    expect(withReasonPhrase(new Response('x', { status: 400 })).statusText).toBe('Bad Request');
    expect(withReasonPhrase(new Response('x', { status: 503, statusText: 'OK' })).statusText).toBe(
      'Service Unavailable',
    );
  });

  it('keeps a status text someone chose, and a 200 as it is', async () => {
    expect(withReasonPhrase(new Response('x', { status: 404, statusText: 'Gone Fishing' })).statusText).toBe(
      'Gone Fishing',
    );
    const ok = new Response('body', { status: 200, headers: { 'x-kept': '1' } });
    expect(withReasonPhrase(ok)).toBe(ok);
    const moved = withReasonPhrase(new Response('body', { status: 404, headers: { 'x-kept': '1' } }));
    expect(moved.headers.get('x-kept')).toBe('1');
    expect(await moved.text()).toBe('body');
  });
});

describe('header-only CSP directives', () => {
  it("Astro's policy (also used in pre-rendered pages' <meta>) carries none of them", () => {
    const names = (security?.csp && typeof security.csp === 'object' ? (security.csp.directives ?? []) : []).map(
      (d) => d.split(' ')[0],
    );
    for (const directive of HEADER_ONLY_CSP) expect(names).not.toContain(directive.split(' ')[0]);
  });

  it("an HTML page's policy header gets them, once", () => {
    const policy = "default-src 'self';script-src 'self' 'sha256-abc'";
    const res = withSecurityHeaders(
      new Response('<p>x</p>', { headers: { 'content-type': 'text/html', 'content-security-policy': policy } }),
    );
    expect(res.headers.get('content-security-policy')).toBe(
      `${policy};frame-ancestors 'none';report-uri /api/csp-report;report-to csp-endpoint`,
    );
    expect(withHeaderOnlyDirectives(res.headers.get('content-security-policy')!)).toBe(
      res.headers.get('content-security-policy'),
    );
  });
});
