import { afterEach, describe, expect, it, vi } from 'vitest';
import { engineName, setupTestApp } from '#test-app';
import { CSP_REPORT_LIMIT } from './csp-report.index';

afterEach(() => vi.restoreAllMocks());

const legacyReport = (blocked: string) => ({
  'csp-report': {
    'document-uri': 'https://give.uknfp.org/appeals/abc?payment_intent_client_secret=pi_1_secret_2',
    'violated-directive': 'script-src-elem',
    'effective-directive': 'script-src-elem',
    'blocked-uri': blocked,
    'source-file': 'https://give.uknfp.org/appeals/abc',
    'line-number': 12,
    disposition: 'enforce',
  },
});

describe(`POST /api/csp-report (${engineName})`, () => {
  it('logs each violation as one warning line without query strings, and answers 204', async () => {
    const t = await setupTestApp();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const res = await t.request('/api/csp-report', {
      method: 'POST',
      body: JSON.stringify(legacyReport('https://evil.example/x.js?token=abc')),
      headers: { 'content-type': 'application/csp-report', 'cf-connecting-ip': '192.0.2.10' },
    });
    expect(res.status).toBe(204);
    const lines = warn.mock.calls.map((c) => JSON.parse(String(c[0]))).filter((l) => l.msg === 'csp violation');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        directive: 'script-src-elem',
        blocked: 'https://evil.example/x.js',
        page: 'https://give.uknfp.org/appeals/abc',
        line: 12,
        disposition: 'enforce',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/token=abc|client_secret/);
  });

  it('accepts the Reporting API format (report-to) too', async () => {
    const t = await setupTestApp();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const body = [
      {
        type: 'csp-violation',
        url: 'https://x/',
        body: {
          documentURL: 'https://give.uknfp.org/',
          effectiveDirective: 'script-src-elem',
          blockedURL: 'inline',
          disposition: 'enforce',
        },
      },
      { type: 'deprecation', body: {} },
    ];
    const res = await t.request('/api/csp-report', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/reports+json' },
    });
    expect(res.status).toBe(204);
    const lines = warn.mock.calls.map((c) => JSON.parse(String(c[0]))).filter((l) => l.msg === 'csp violation');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      directive: 'script-src-elem',
      blocked: 'inline',
      page: 'https://give.uknfp.org/',
    });
  });

  it('is rate limited per address: a flood is answered but not logged', async () => {
    const t = await setupTestApp();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const send = (ip: string) =>
      t.request('/api/csp-report', {
        method: 'POST',
        body: JSON.stringify(legacyReport('inline')),
        headers: { 'cf-connecting-ip': ip },
      });
    for (let i = 0; i < CSP_REPORT_LIMIT.limit + 10; i++) expect((await send('192.0.2.20')).status).toBe(204);
    expect((await send('192.0.2.21')).status).toBe(204);
    const logged = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('"msg":"csp violation"'));
    expect(logged).toHaveLength(CSP_REPORT_LIMIT.limit + 1);
  });

  it('ignores bodies that are not reports, and refuses oversized ones', async () => {
    const t = await setupTestApp();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const body of ['not json', '{"a":1}', '[1,2]', 'null']) {
      expect((await t.request('/api/csp-report', { method: 'POST', body })).status).toBe(204);
    }
    expect(warn.mock.calls.filter((c) => String(c[0]).includes('csp violation'))).toHaveLength(0);
    const big = await t.request('/api/csp-report', {
      method: 'POST',
      body: JSON.stringify(legacyReport('x'.repeat(20_000))),
    });
    expect(big.status).toBe(413);
  });
});

describe(`GET /api/turnstile (${engineName})`, () => {
  it('gives the public site key (the test key locally), or null when Turnstile is not configured', async () => {
    const t = await setupTestApp();
    expect(await (await t.request('/api/turnstile')).json()).toEqual({ site_key: '1x00000000000000000000AA' });
    const prod = await setupTestApp({ APP_ENV: 'production', AUTH_SECRET: 'x'.repeat(32) });
    expect(await (await prod.request('/api/turnstile')).json()).toEqual({ site_key: null });
    const configured = await setupTestApp({
      APP_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(32),
      TURNSTILE_SITE_KEY: '0x4AAAAAAAexample',
    });
    expect(await (await configured.request('/api/turnstile')).json()).toEqual({ site_key: '0x4AAAAAAAexample' });
  });
});
