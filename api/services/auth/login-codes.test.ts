import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { loginCodes } from '../../../db/schema';
import { createUser } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { HttpError } from '../../lib/errors';
import { generateCode, hashCode, requestLoginCode, verifyLoginCode } from './login-codes';
import { createMailer } from '../mail/mailer';
import { CHALLENGE_THRESHOLDS, FOREIGN_GUESS_CAP, VERIFY_BACKOFF } from '../abuse/rate-limit';

const MINUTE = 60_000;
const passToken = () => `pass-${crypto.randomUUID()}`;

/** Calls the sign-in services directly, at a chosen time and from a chosen address. */
function signInAs(t: TestApp) {
  const config = readConfig(t.env);
  const mailer = createMailer(t.db, config);
  const ctx = (at: number, ip: string, turnstileToken?: string) => ({
    db: t.db,
    config,
    mailer,
    now: new Date(at),
    ip,
    turnstileToken,
  });
  const outcome = async (work: Promise<unknown>): Promise<number | HttpError> => {
    try {
      await work;
      return 200;
    } catch (error) {
      if (error instanceof HttpError) return error;
      throw error;
    }
  };
  return {
    config,
    request: (email: string, at: number, ip: string, token?: string) =>
      outcome(requestLoginCode(ctx(at, ip, token), email)),
    verify: (email: string, code: string, at: number, ip: string, token?: string) =>
      verifyLoginCode(ctx(at, ip, token), { email, code }),
    tryVerify: (email: string, code: string, at: number, ip: string, token?: string) =>
      outcome(verifyLoginCode(ctx(at, ip, token), { email, code })),
    /** The newest code mailed to an address (the local outbox keeps it). */
    latestCode: async (email: string) => {
      const rows = await t.db.query.outbox.findMany({
        where: (o, { eq }) => eq(o.to, email),
        orderBy: (o, { desc }) => desc(o.createdAt),
        limit: 1,
      });
      return /code is: (\d{6})/.exec(rows[0]?.text ?? '')?.[1] ?? '';
    },
  };
}

const status = (result: number | HttpError) => (result instanceof HttpError ? result.status : result);

describe(`sign-in throttling without lock-out (${engineName})`, () => {
  it('31 wrong codes for the admin from many addresses do not lock the real admin out', {
    timeout: 30_000,
  }, async () => {
    const t = await setupTestApp({ ADMIN_EMAILS: 'admin@example.org' });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const s = signInAs(t);
    const email = 'admin@example.org';
    await createUser(t.db, { email, type: 'admin' });
    const start = Date.UTC(2030, 0, 1, 9);
    // A stranger guesses 31 times with no code live: nothing to find, and nothing counts against the admin.
    for (let i = 0; i < 31; i++)
      expect(status(await s.tryVerify(email, '000000', start + i * 1000, `203.0.113.${i}`))).toBe(401);

    // The admin asks for a code from home and types it: accepted, no check asked for.
    const home = '198.51.100.7';
    expect(await s.request(email, start + 2 * MINUTE, home)).toBe(200);
    const signedIn = await s.verify(email, await s.latestCode(email), start + 3 * MINUTE, home);
    expect('token' in signedIn && signedIn.user.type).toBe('admin');
  });

  it("guesses against a live code kill it after 5, and the owner's fresh code still signs in after 31 failures", {
    timeout: 30_000,
  }, async () => {
    const t = await setupTestApp();
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const s = signInAs(t);
    const user = await createUser(t.db, { email: `owner-${crypto.randomUUID().slice(0, 8)}@example.org` });
    const start = Date.UTC(2030, 0, 2, 9);
    // The stranger requests codes (mailed to the owner) and guesses from 31 addresses.
    let at = start;
    for (let i = 0; i < 31; i++) {
      const ip = `203.0.113.${i}`;
      if (i % 5 === 0) await s.request(user.email, (at += 1000), ip, passToken());
      const guess = String(i).padStart(6, '0');
      const result = await s.tryVerify(user.email, guess, (at += 1000), ip, passToken());
      expect([401, 428]).toContain(status(result));
    }
    // Each code died after 5 guesses at most.
    for (const row of await t.db.select().from(loginCodes).where(eq(loginCodes.email, user.email)))
      expect(row.attempts).toBeLessThanOrEqual(5);

    // The owner, from their own address, gets a fresh code and the right code signs them in.
    const home = '198.51.100.8';
    const asked = await s.request(user.email, start + 10 * MINUTE, home, passToken());
    expect(asked).toBe(200);
    const code = await s.latestCode(user.email);
    // Others' failures never ask the requesting address for the check.
    const result = await s.verify(user.email, code, start + 11 * MINUTE, home);
    expect('token' in result).toBe(true);
  });

  it('a code dies after 5 wrong guesses from the address that asked for it', async () => {
    const t = await setupTestApp();
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const s = signInAs(t);
    const user = await createUser(t.db, { email: `own-${crypto.randomUUID().slice(0, 8)}@example.org` });
    const start = Date.UTC(2030, 0, 5, 9);
    const home = '198.51.100.20';
    expect(await s.request(user.email, start, home)).toBe(200);
    const code = await s.latestCode(user.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    // Spaced past the pair's backoff (1, 2 minutes after the third).
    for (const minute of [0, 0, 0, 2, 5])
      expect(status(await s.tryVerify(user.email, wrong, start + minute * MINUTE + 1000, home))).toBe(401);
    expect(status(await s.tryVerify(user.email, code, start + 9.5 * MINUTE, home))).toBe(401);
    const [row] = await t.db.select().from(loginCodes).where(eq(loginCodes.email, user.email));
    expect(row).toMatchObject({ attempts: 5, requestedIp: home });
  });

  it('past the cap, guesses from other addresses are no longer compared with the code; the owner still signs in', {
    timeout: 30_000,
  }, async () => {
    const t = await setupTestApp();
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const s = signInAs(t);
    const user = await createUser(t.db, { email: `cap-${crypto.randomUUID().slice(0, 8)}@example.org` });
    const start = Date.UTC(2030, 0, 6, 9);
    const home = '198.51.100.21';
    expect(await s.request(user.email, start, home)).toBe(200);
    const code = await s.latestCode(user.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < FOREIGN_GUESS_CAP.limit; i++) {
      const result = await s.tryVerify(user.email, wrong, start + i * 1000, `203.0.114.${i}`, passToken());
      expect(status(result)).toBe(401);
    }
    // Even the right code from yet another address is not accepted now...
    expect(status(await s.tryVerify(user.email, code, start + MINUTE, '203.0.114.200', passToken()))).toBe(401);
    // ...while the address that asked for it signs in without a check.
    const result = await s.verify(user.email, code, start + 2 * MINUTE, home);
    expect('token' in result).toBe(true);
  });

  it('backs off per (email, address): the guesser waits, the owner elsewhere does not', async () => {
    const t = await setupTestApp();
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const s = signInAs(t);
    const user = await createUser(t.db, { email: `pair-${crypto.randomUUID().slice(0, 8)}@example.org` });
    const start = Date.UTC(2030, 0, 3, 9);
    const guesser = '203.0.113.50';
    const home = '198.51.100.9';
    expect(await s.request(user.email, start, home)).toBe(200);
    const code = await s.latestCode(user.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    // (It guesses at a code it did not ask for, so from its second guess it passes the check.)
    for (let i = 0; i < VERIFY_BACKOFF.freeFailures; i++)
      expect(status(await s.tryVerify(user.email, wrong, start + i, guesser, passToken()))).toBe(401);
    const blocked = await s.tryVerify(user.email, wrong, start + 10, guesser, passToken());
    expect(status(blocked)).toBe(429);
    expect((blocked as HttpError).message).toMatch(/Too many wrong codes\. Please wait \d+ minutes?/);
    // None of its guesses counted against the owner's code; the owner's right code from home works.
    const result = await s.verify(user.email, code, start + 20, home);
    expect('token' in result).toBe(true);
    // After the wait the guesser's pair may try again (and the streak ends after a day).
    expect(status(await s.tryVerify(user.email, wrong, start + 3 * MINUTE, guesser, passToken()))).toBe(401);
  });

  it("a stranger requesting codes neither cancels the owner's code nor stops the owner asking", async () => {
    const t = await setupTestApp();
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const s = signInAs(t);
    const user = await createUser(t.db, { email: `cancel-${crypto.randomUUID().slice(0, 8)}@example.org` });
    const start = Date.UTC(2030, 0, 4, 9);
    const home = '198.51.100.10';
    expect(await s.request(user.email, start, home)).toBe(200);
    const ownersCode = await s.latestCode(user.email);
    // Five more codes requested by a stranger (one address: its own limit then refuses it).
    const stranger = '203.0.113.60';
    for (let i = 1; i <= 5; i++)
      expect(status(await s.request(user.email, start + i * 1000, stranger, passToken()))).toBe(200);
    expect(status(await s.request(user.email, start + 6000, stranger, passToken()))).toBe(429);
    // The owner's code is still live and signs them in.
    const result = await s.verify(user.email, ownersCode, start + 2 * MINUTE, home);
    expect('token' in result).toBe(true);
    // Signing in spends every other code mailed to the address.
    const live = (await t.db.select().from(loginCodes).where(eq(loginCodes.email, user.email))).filter(
      (r) => r.consumedAt === null,
    );
    expect(live).toHaveLength(0);
  });

  it('asks for Turnstile past the per-email request threshold, and refuses a failed or replayed check', async () => {
    const t = await setupTestApp();
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const s = signInAs(t);
    const email = `busy-${crypto.randomUUID().slice(0, 8)}@example.org`;
    const start = Date.UTC(2030, 0, 5, 9);
    for (let i = 0; i < CHALLENGE_THRESHOLDS.sendPerEmail.limit; i++)
      expect(await s.request(email, start + i, `203.0.113.${70 + i}`)).toBe(200);
    const next = await s.request(email, start + 100, '198.51.100.11');
    expect(status(next)).toBe(428);
    expect((next as HttpError).message).toMatch(/complete the security check/);
    expect(status(await s.request(email, start + 101, '198.51.100.11', 'bad-token'))).toBe(428);
    const token = passToken();
    expect(await s.request(email, start + 102, '198.51.100.11', token)).toBe(200);
    // Tokens are single use: the same one again fails.
    expect(status(await s.request(email, start + 103, '198.51.100.12', token))).toBe(428);
  });

  it('asks for Turnstile from an address past its threshold, and falls back to 429 without Turnstile keys', async () => {
    const t = await setupTestApp();
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const s = signInAs(t);
    const start = Date.UTC(2030, 0, 6, 9);
    const ip = '203.0.113.90';
    for (let i = 0; i < CHALLENGE_THRESHOLDS.signInPerIp.limit; i++) {
      expect(await s.request(`sweep-${i}-${crypto.randomUUID().slice(0, 6)}@example.org`, start + i, ip)).toBe(200);
    }
    expect(status(await s.request(`sweep-x-${crypto.randomUUID().slice(0, 6)}@example.org`, start + 50, ip))).toBe(428);

    const keyless = await setupTestApp({
      APP_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(32),
      MAIL_API_KEY: '',
      TURNSTILE_SITE_KEY: '',
      TURNSTILE_SECRET_KEY: '',
    });
    const k = signInAs(keyless);
    expect(k.config.turnstileSecretKey).toBeNull();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (let i = 0; i < CHALLENGE_THRESHOLDS.signInPerIp.limit; i++)
      await k.request(`k-${i}-${crypto.randomUUID().slice(0, 6)}@example.org`, start + i, ip);
    const refused = await k.request(`k-x-${crypto.randomUUID().slice(0, 6)}@example.org`, start + 50, ip);
    expect(status(refused)).toBe(429);
  });

  it('stores each code only as a keyed hash bound to its address', async () => {
    const t = await setupTestApp();
    const config = readConfig(t.env);
    const code = generateCode();
    expect(await hashCode(config.authSecret, 'a@example.org', code)).not.toBe(
      await hashCode(config.authSecret, 'b@example.org', code),
    );
  });
});

describe('client addresses', () => {
  it('counts real client addresses, not the loopback every browser has on a local server', async () => {
    const { clientIp, knownIp } = await import('../abuse/rate-limit');
    expect(knownIp('203.0.113.9')).toBe(true);
    expect(knownIp('2001:db8::1')).toBe(true);
    for (const local of ['unknown', '127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(knownIp(local)).toBe(false);
    expect(clientIp({ get: (h) => ({ 'cf-connecting-ip': '203.0.113.9', 'x-forwarded-for': '1.1.1.1' })[h] })).toBe(
      '203.0.113.9',
    );
  });
});
