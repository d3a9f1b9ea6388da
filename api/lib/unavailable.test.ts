import { createClient } from '@libsql/client/web';
import { describe, expect, it } from 'vitest';
import { canonicalOrigin, MissingSettingError, parseOrigin, readConfig } from './config';
import { isDatabaseUnavailable, isTemporarilyUnavailable } from './unavailable';

describe('what counts as the database being unavailable', () => {
  it('recognises D1 transient errors, libSQL network failures and a closed client, wrapped or not', async () => {
    const d1 = [
      'D1_ERROR: Network connection lost.',
      'D1 DB is overloaded. Too many requests queued.',
      'D1_ERROR: internal error',
      'D1_ERROR: storage operation exceeded timeout which caused object to be reset.',
    ];
    for (const message of d1) {
      expect(isDatabaseUnavailable(new Error(message))).toBe(true);
      expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: new Error(message) }))).toBe(true);
    }
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('CLIENT_CLOSED: The client is closed'), { code: 'CLIENT_CLOSED' })),
    ).toBe(true);
    // What Turso's server answers for a lost stream, a busy write lock or a spent monthly quota.
    for (const code of ['STREAM_EXPIRED', 'TRANSACTION_TIMEOUT', 'TRANSACTION_BUSY', 'BLOCKED', 'SERVER_ERROR']) {
      expect(isDatabaseUnavailable(Object.assign(new Error(`${code}: from the server`), { code })), code).toBe(true);
    }
  });

  it('recognises every other unavailability form of libSQL and D1: session tokens, locks, busy, overloaded objects, 5xx', () => {
    const forms = [
      'Failed to get session commit token: internal error',
      'D1_ERROR: Failed to get session commit token: internal error',
      'D1_ERROR: Internal error in D1 DB storage caused object to be reset.',
      'D1_ERROR: Internal error while starting up D1 DB storage caused object to be reset.',
      'Durable Object is overloaded. Too many requests queued.',
      'SQLITE_BUSY: database is locked',
      'database table is locked',
      'SERVER_ERROR: Server returned HTTP status 503',
      'The stream has expired due to inactivity',
    ];
    for (const message of forms) {
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
      expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: new Error(message) })), message).toBe(
        true,
      );
    }
    expect(isDatabaseUnavailable(Object.assign(new Error('locked'), { code: 'SQLITE_LOCKED' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('busy'), { code: 'SQLITE_ERROR', rawCode: 517 }))).toBe(true);
  });

  it('recognises what a real libSQL client throws for an unreachable server', async () => {
    const client = createClient({ url: 'http://127.0.0.1:1' });
    const error = await client.execute('select 1').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeTruthy();
    expect(isDatabaseUnavailable(error)).toBe(true);
    client.close();
  });

  it('does not treat SQL mistakes or constraint failures as outages', () => {
    for (const message of [
      'no such table: nope',
      'UNIQUE constraint failed: users.email',
      'SQLITE_ERROR: near "selec": syntax error',
      'D1_ERROR: no such column: x',
    ]) {
      expect(isDatabaseUnavailable(new Error(message))).toBe(false);
    }
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isTemporarilyUnavailable(new MissingSettingError('PUBLIC_ORIGIN'))).toBe(true);
  });
});

describe('PUBLIC_ORIGIN (canonical and share links)', () => {
  const url = new URL('https://evil.example/campaigns?x=1');

  it('uses PUBLIC_ORIGIN, never the Host header, when it is set', () => {
    const config = readConfig({ APP_ENV: 'production', PUBLIC_ORIGIN: 'https://give.uknfp.org/some/path' });
    expect(config.publicOrigin).toBe('https://give.uknfp.org');
    expect(canonicalOrigin(config, url)).toBe('https://give.uknfp.org');
  });

  it('fails closed in production without it (or with a value that is not an http(s) URL)', () => {
    for (const value of [undefined, '', 'give.uknfp.org', 'javascript:alert(1)']) {
      const config = readConfig({ APP_ENV: 'production', PUBLIC_ORIGIN: value });
      expect(config.publicOrigin).toBeNull();
      expect(() => canonicalOrigin(config, url)).toThrow(MissingSettingError);
    }
  });

  it('falls back to the request origin only in development', () => {
    expect(canonicalOrigin(readConfig({ APP_ENV: 'development' }), url)).toBe('https://evil.example');
    expect(parseOrigin('http://localhost:4321/')).toBe('http://localhost:4321');
  });
});
