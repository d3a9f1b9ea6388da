import { describe, expect, it } from 'vitest';
import { readConfig } from '../lib/config';
import { engineName, setupTestApp } from '../../tests/setup/test-app';
import { HttpError } from '../lib/errors';
import { verifyLoginCode } from './auth';
import { createMailer } from './mailer';
import { AUTH_LIMITS } from './rate-limit';

const MINUTE = 60_000;

describe(`code verification limits (${engineName})`, () => {
  it('caps guesses per email per day, beyond the 15-minute window', async () => {
    const t = await setupTestApp();
    const config = readConfig({ ...t.env, APP_ENV: 'development' });
    const email = `guess-${crypto.randomUUID().slice(0, 8)}@example.net`;
    const start = Date.UTC(2030, 0, 1, 9);
    const attempt = async (at: number, ip: string) => {
      const ctx = { db: t.db, config, mailer: createMailer(t.db, config), now: new Date(at), ip };
      try {
        await verifyLoginCode(ctx, { email, code: '000000', first_name: 'A', last_name: 'B' });
        return 200;
      } catch (error) {
        return error instanceof HttpError ? error : Promise.reject(error);
      }
    };
    // Three 15-minute windows of 10 tries, each from a new address: all are checked (401, no code).
    const daily = AUTH_LIMITS.verifyPerEmailDaily.limit;
    const perWindow = AUTH_LIMITS.verifyPerEmail.limit;
    for (let i = 0; i < daily; i++) {
      const at = start + Math.floor(i / perWindow) * 16 * MINUTE;
      const result = await attempt(at, `203.0.113.${i}`);
      expect(result instanceof HttpError && result.status).toBe(401);
    }
    const blocked = await attempt(start + 4 * 16 * MINUTE, '203.0.113.250');
    expect(blocked instanceof HttpError && blocked.status).toBe(429);
    expect((blocked as HttpError).message).toMatch(/Too many sign-in attempts\. Please wait \d+ hours/);
    // The next day the address may try again.
    const nextDay = await attempt(start + 25 * 60 * MINUTE, '203.0.113.251');
    expect(nextDay instanceof HttpError && nextDay.status).toBe(401);
  });
});
