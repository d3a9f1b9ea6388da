import { describe, expect, it, vi } from 'vitest';
import { engineName, setupTestApp } from '#test-app';
import { checkConfig, readConfig } from './config';

describe('configuration check (api/lib/config.ts)', () => {
  it('points Stripe at another host (the local fake) only in development', () => {
    const env = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_BASE: 'http://127.0.0.1:12111' };
    expect(readConfig({ ...env, APP_ENV: 'development' } as never).stripeApiBase).toBe('http://127.0.0.1:12111');
    expect(readConfig({ ...env, APP_ENV: 'production' } as never).stripeApiBase).toBeNull();
    expect(readConfig(env as never).stripeApiBase).toBeNull();
  });

  it('reads an environment object once, and another object anew', () => {
    const reads: string[] = [];
    const env = new Proxy({ APP_ENV: 'development', CHARITY_NAME: 'Hope Trust' } as Record<string, string>, {
      get(target, name: string) {
        reads.push(name);
        return target[name];
      },
    });
    const first = readConfig(env as never);
    const readsOnce = reads.length;
    expect(readsOnce).toBeGreaterThan(0);
    expect(readConfig(env as never)).toBe(first);
    expect(reads).toHaveLength(readsOnce);
    const other = readConfig({ APP_ENV: 'development', CHARITY_NAME: 'Other Trust' } as never);
    expect(other.charity.name).toBe('Other Trust');
    expect(first.charity.name).toBe('Hope Trust');
  });

  it('lists every wrong or half-set setting at once', () => {
    const { problems } = checkConfig({
      APP_ENV: 'staging',
      STRIPE_SECRET_KEY: 'sk_live_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
      PUBLIC_ORIGIN: 'not a url',
      CHARITY_REGULATOR: 'fca',
      ADMIN_EMAILS: 'ok@example.org, nope',
      AUTH_SECRET: 'short',
      CHARITY_NUMBER: '1234567',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('PUBLIC_ORIGIN must be an absolute URL'),
        expect.stringContaining('CHARITY_REGULATOR must be one of: ccew, oscr, ccni'),
        'ADMIN_EMAILS must be email addresses separated by commas',
        expect.stringContaining('AUTH_SECRET must be at least 16 characters'),
        expect.stringContaining('STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET'),
        expect.stringContaining('different modes'),
        expect.stringContaining('CHARITY_NUMBER is set without CHARITY_NAME'),
      ]),
    );
    expect(problems).toHaveLength(7);
    expect(checkConfig({ STRIPE_PUBLISHABLE_KEY: 'pk_test_x' }).problems).toEqual([
      'STRIPE_PUBLISHABLE_KEY is set without STRIPE_SECRET_KEY: no payment can be started',
    ]);
  });

  it('accepts a complete production setup, and counts empty values as unset', () => {
    const complete = checkConfig({
      APP_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(40),
      ADMIN_EMAILS: 'admin@example.org',
      STRIPE_SECRET_KEY: 'sk_live_1',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      MAIL_API_KEY: 're_1',
      PUBLIC_ORIGIN: 'https://give.example.org',
      CHARITY_REGULATOR: '',
    });
    expect(complete).toEqual({ problems: [], missing: [] });
    // Production with features left off: not an error, but each is listed.
    expect(checkConfig({}).missing).toEqual([
      'AUTH_SECRET (sign-in is off)',
      'MAIL_API_KEY (no sign-in email can be sent)',
      'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY (card payments are off)',
      'ADMIN_EMAILS (nobody signs in as an admin)',
      // Pages fail closed without it.
      'PUBLIC_ORIGIN (pages answer 503: the Host header is not trusted for canonical links)',
    ]);
    expect(checkConfig({ APP_ENV: 'development' }).missing).toEqual([]);
  });

  it('takes a Turso URL over libsql:// or https://, and plain http:// only for a local development server', () => {
    const problems = (url: string, appEnv?: string) =>
      checkConfig({ TURSO_DATABASE_URL: url, APP_ENV: appEnv }).problems;
    expect(problems('libsql://db-org.turso.io')).toEqual([]);
    expect(problems('https://db-org.turso.io')).toEqual([]);
    expect(problems('http://127.0.0.1:8080', 'development')).toEqual([]);
    expect(problems('http://localhost:8080', 'development')).toEqual([]);
    expect(problems('http://127.0.0.1:8080')).toEqual([
      'TURSO_DATABASE_URL must use libsql:// or https:// in production: http:// would send the auth token in clear',
    ]);
    expect(problems('http://db.example.org', 'development')[0]).toMatch(/must point at this machine/);
    expect(problems('file:local.db', 'development')[0]).toMatch(/file: databases cannot be opened by the worker/);
    expect(problems('not a url')[0]).toBe('TURSO_DATABASE_URL must be a URL, like libsql://your-db.turso.io');
  });
});

describe(`a misconfigured production API fails closed (${engineName})`, () => {
  it('answers 503 on every route and logs every problem once; development only lists them in checkConfig', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const prod = await setupTestApp({
        APP_ENV: 'production',
        AUTH_SECRET: 'x'.repeat(32),
        STRIPE_SECRET_KEY: 'sk_test_1',
        CHARITY_REGULATOR: 'fca',
      });
      for (const path of ['/api/campaigns', '/api/health']) {
        const res = await prod.request(path);
        expect(res.status, path).toBe(503);
        expect(await res.json()).toEqual({
          statusCode: 503,
          message: 'This service is not configured correctly yet. Please try again later.',
        });
      }
      // One JSON log line names every problem.
      const configLogs = log.mock.calls
        .map(([line]) => String(line))
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: string; msg: string; count?: number; problems?: string })
        .filter((line) => line.msg === 'configuration problems');
      expect(configLogs).toHaveLength(1);
      expect(configLogs[0]).toMatchObject({ level: 'error', count: 3 });
      expect(configLogs[0].problems).toMatch(
        /CHARITY_REGULATOR.*STRIPE_SECRET_KEY is set without STRIPE_PUBLISHABLE_KEY.*STRIPE_WEBHOOK_SECRET/,
      );

      const dev = await setupTestApp({ STRIPE_SECRET_KEY: 'sk_test_1', CHARITY_REGULATOR: 'fca' });
      expect((await dev.request('/api/campaigns')).status).toBe(200);
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
  });
});
