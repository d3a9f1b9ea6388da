import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loginCodes, sessions, users } from '../../../db/schema';
import { createSession, createUser } from '../../../tests/factories';
import type { InferResponseType } from 'hono/client';
import {
  bodyOf,
  engineName,
  errorOf,
  type JsonOf,
  messageOf,
  setupTestApp,
  type TestApp,
  type TestClient,
} from '#test-app';
import { constantTimeEqual, generateCode, hashCode } from '../../services/auth/login-codes';

/** A finished sign-in as the schema types it. */
type SignedIn = Extract<InferResponseType<TestClient['api']['auth']['login']['$post'], 200>, { token: string }>;
/** What sign-in asks for: the schema reads `password` as `code`, so its input type is open. */
type LoginAnswer = InferResponseType<TestClient['api']['auth']['login']['$post'], 200>;
type LoginBody = JsonOf<TestClient['api']['auth']['login']['$post']>;

/** Narrows a sign-in answer to a finished sign-in, failing the test on any other answer. */
function signedIn(body: LoginAnswer): SignedIn {
  if (!('token' in body)) throw new Error(`not signed in: ${JSON.stringify(body)}`);
  return body;
}

let seq = 0;
const uniqueEmail = (tag = 'user') => `${tag}-${Date.now().toString(36)}-${++seq}@example.net`;
const uniqueIp = () => `198.51.${Math.floor(seq / 200)}.${(++seq % 200) + 1}`;

describe(`auth API (${engineName})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await setupTestApp();
    // The local mailer prints every email; keep the test output readable.
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });

  const login = (json: LoginBody, ip = uniqueIp(), extra: Record<string, string> = {}) =>
    t.client().api.auth.login.$post({ json }, { headers: { 'x-forwarded-for': ip, ...extra } });
  /** Raw: bodies the schema refuses (wrong types, oversized), which is what these tests check. */
  const loginRaw = (json: unknown) =>
    t.request('/api/auth/login', { method: 'POST', json, headers: { 'x-forwarded-for': uniqueIp() } });
  const outbox = async (to: string) => bodyOf(await t.client().api.dev.outbox.$get({ query: { to } }), 200);

  async function latestCode(email: string): Promise<string> {
    const [mail] = await outbox(email);
    const match = /code is: (\d{6})/.exec(mail.text);
    if (!match) throw new Error(`no code in ${mail.text}`);
    return match[1];
  }

  async function signIn(email: string, names: { first_name?: string; last_name?: string } = {}) {
    const ip = uniqueIp();
    expect((await login({ email }, ip)).status).toBe(200);
    const res = await login({ email, code: await latestCode(email), ...names }, ip);
    return res;
  }

  it('step two accepts the code as `password` (the spec call table names it so), with names for a new account', async () => {
    const email = uniqueEmail('alias');
    const ip = uniqueIp();
    expect((await login({ email }, ip)).status).toBe(200);
    const wrong = await login({ email, password: '12345', first_name: 'Ada', last_name: 'Lovelace' }, ip);
    expect((await errorOf(wrong, 400)).message).toMatch(/exactly 6 digits/);
    const res = await login({ email, password: await latestCode(email), first_name: 'Ada', last_name: 'Lovelace' }, ip);
    const body = signedIn(await bodyOf(res, 200));
    expect(body.new_user).toBe(true);
    expect(body.user.name.first_name).toBe('Ada');
    expect(body.token).toBeTruthy();
  });

  it('step one answers known and unknown addresses identically: new_user is not told before the code', async () => {
    const known = await createUser(t.db, { email: uniqueEmail('known') });
    const unknown = uniqueEmail('unknown');
    const a = await login({ email: known.email });
    const b = await login({ email: unknown });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const bodyA = await a.json();
    const bodyB = await b.json();
    expect(Object.keys(bodyA)).toEqual(['message']);
    expect(Object.keys(bodyB)).toEqual(['message']);
    expect(String('message' in bodyA && bodyA.message).replace(known.email, 'X')).toBe(
      String('message' in bodyB && bodyB.message).replace(unknown, 'X'),
    );
    // Same work for both: a stored code and an email each.
    for (const email of [known.email, unknown]) {
      const rows = await t.db.select().from(loginCodes).where(eq(loginCodes.email, email));
      expect(rows).toHaveLength(1);
      expect(await latestCode(email)).toMatch(/^\d{6}$/);
    }
    expect(await t.db.select().from(users).where(eq(users.email, unknown))).toHaveLength(0);
  });

  it('stores only a keyed hash of the code and mails the code with its lifetime', async () => {
    const email = uniqueEmail();
    await login({ email: email.toUpperCase() });
    const code = await latestCode(email);
    const [row] = await t.db.select().from(loginCodes).where(eq(loginCodes.email, email));
    expect(row.codeHash).not.toContain(code);
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.codeHash).toBe(await hashCode('local-development-only-secret-change-me', email, code));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(10 * 60 * 1000);
    const [mail] = await outbox(email);
    expect(mail.subject).toContain(code);
    expect(mail.text).toContain('expires in 10 minutes');
    expect(mail.html).toContain(code);
    expect(mail.html).toContain('10 minutes');
  });

  it('step two answers a wrong code the same for known and unknown addresses, names or not', async () => {
    const known = await createUser(t.db, { email: uniqueEmail('known2') });
    const unknown = uniqueEmail('unknown2');
    const answers = [];
    for (const email of [known.email, unknown]) {
      await login({ email });
      for (const names of [{}, { first_name: 'Ada' }, { first_name: 'Ada', last_name: 'Lovelace' }]) {
        const res = await login({ email, code: '000000', ...names });
        answers.push({ status: res.status, body: await res.json() });
      }
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({
      status: 401,
      body: { statusCode: 401, message: expect.stringMatching(/not valid or has expired/) },
    });
    expect(await t.db.select().from(users).where(eq(users.email, unknown))).toHaveLength(0);
  });

  it('creates a new donor once the code is proven: asks for names first, then answers GET /api/auth', async () => {
    const email = uniqueEmail('new');
    const ip = uniqueIp();
    await login({ email }, ip);
    const code = await latestCode(email);
    // The right code without both names: only now may the answer say the address is new.
    const missing = await login({ email, code, first_name: 'Ada' }, ip);
    expect(missing.status).toBe(200);
    expect(await missing.json()).toEqual({
      new_user: true,
      names_required: true,
      message: expect.stringMatching(/first and last name/),
    });
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);

    const res = await login({ email, code, first_name: ' Ada ', last_name: 'Lovelace' }, ip);
    const body = signedIn(await bodyOf(res, 200));
    expect(body.new_user).toBe(true);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toMatchObject({
      email,
      name: { first_name: 'Ada', last_name: 'Lovelace' },
      type: 'donor',
      avatar: null,
      org_ids: [],
    });

    expect(await bodyOf(await t.client(body.token).api.auth.$get(), 200)).toEqual(body.user);
    // The token is stored hashed, never as is.
    const stored = await t.db.select().from(sessions).where(eq(sessions.userId, body.user._id));
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).not.toBe(body.token);
  });

  it('gives an existing user a new token on every sign-in', async () => {
    const user = await createUser(t.db, { email: uniqueEmail('repeat'), firstName: 'Sam' });
    const first = signedIn(await bodyOf(await signIn(user.email), 200));
    const second = signedIn(await bodyOf(await signIn(user.email), 200));
    expect(first.new_user).toBe(false);
    expect(first.user).toMatchObject({ _id: user.id, name: { first_name: 'Sam' } });
    expect(second.token).not.toBe(first.token);
    for (const token of [first.token, second.token]) expect((await t.client(token).api.auth.$get()).status).toBe(200);
  });

  it('rejects an expired code', async () => {
    const user = await createUser(t.db, { email: uniqueEmail('expired') });
    const ip = uniqueIp();
    await login({ email: user.email }, ip);
    const code = await latestCode(user.email);
    await t.db
      .update(loginCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginCodes.email, user.email));
    const res = await login({ email: user.email, code }, ip);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ statusCode: 401, message: expect.stringMatching(/not valid or has expired/) });
  });

  it('accepts a code once only', async () => {
    const user = await createUser(t.db, { email: uniqueEmail('reuse') });
    const ip = uniqueIp();
    await login({ email: user.email }, ip);
    const code = await latestCode(user.email);
    expect((await login({ email: user.email, code }, ip)).status).toBe(200);
    expect((await login({ email: user.email, code }, ip)).status).toBe(401);
  });

  it('keeps an earlier code working when a new one is requested, and spends both on sign-in', async () => {
    const user = await createUser(t.db, { email: uniqueEmail('supersede') });
    const ip = uniqueIp();
    await login({ email: user.email }, ip);
    const first = await latestCode(user.email);
    let second = first;
    // Codes are random: ask again until the new one differs, so the assertion means something.
    while (second === first) {
      await login({ email: user.email }, uniqueIp());
      second = await latestCode(user.email);
    }
    // A second request (perhaps a stranger's) does not spoil the code already in the mailbox.
    expect((await login({ email: user.email, code: first }, ip)).status).toBe(200);
    expect((await login({ email: user.email, code: second }, ip)).status).toBe(401);
  });

  it("five wrong codes from five other client addresses neither spoil the owner's code nor ask the owner for a check", async () => {
    const user = await createUser(t.db, { email: uniqueEmail('owner') });
    const cf = (ip: string) => ({ 'cf-connecting-ip': ip });
    const owner = uniqueIp();
    expect((await login({ email: user.email }, owner, cf(owner))).status).toBe(200);
    const code = await latestCode(user.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      const stranger = uniqueIp();
      expect((await login({ email: user.email, code: wrong }, stranger, cf(stranger))).status).toBe(401);
    }
    const [row] = await t.db.select().from(loginCodes).where(eq(loginCodes.email, user.email));
    expect(row.attempts).toBe(0);
    const res = await login({ email: user.email, code }, owner, cf(owner));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token: expect.any(String), user: { email: user.email } });
  });

  it('asks an address guessing codes it did not request for the check from its second wrong guess', async () => {
    const victim = await createUser(t.db, { email: uniqueEmail('victim') });
    const other = await createUser(t.db, { email: uniqueEmail('other') });
    const cf = (ip: string) => ({ 'cf-connecting-ip': ip });
    for (const user of [victim, other]) {
      const ip = uniqueIp();
      await login({ email: user.email }, ip, cf(ip));
    }
    const guesser = uniqueIp();
    expect((await login({ email: victim.email, code: '000000' }, guesser, cf(guesser))).status).toBe(401);
    // Its second guess, for this or any other address, needs the check.
    const second = await login({ email: other.email, code: '000000' }, guesser, cf(guesser));
    expect(second.status).toBe(428);
    expect(
      (
        await login(
          { email: other.email, code: '000000', turnstile_token: `t-${crypto.randomUUID()}` },
          guesser,
          cf(guesser),
        )
      ).status,
    ).toBe(401);
  });

  it('still accepts the right code after 4 wrong tries', async () => {
    const user = await createUser(t.db, { email: uniqueEmail('four') });
    const ip = uniqueIp();
    await login({ email: user.email }, ip);
    const code = await latestCode(user.email);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 4; i++) expect((await login({ email: user.email, code: wrong }, uniqueIp())).status).toBe(401);
    expect((await login({ email: user.email, code }, ip)).status).toBe(200);
  });

  it('limits sending per (email, address): the 6th code in 15 minutes from one address is a 429 with Retry-After', async () => {
    const email = uniqueEmail('flood');
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) expect((await login({ email }, ip)).status).toBe(200);
    const res = await login({ email }, ip);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    expect((await errorOf(res, 429)).message).toMatch(/Too many sign-in codes requested\. Please wait \d+ minutes?/);
    expect(await t.db.select().from(loginCodes).where(eq(loginCodes.email, email))).toHaveLength(5);
    // Another address is not refused for the same email: it is asked for the security check.
    const elsewhere = await login({ email }, uniqueIp());
    expect(elsewhere.status).toBe(428);
    expect(await elsewhere.json()).toEqual({ statusCode: 428, message: expect.stringMatching(/security check/) });
    expect((await login({ email, turnstile_token: `t-${crypto.randomUUID()}` }, uniqueIp())).status).toBe(200);
  });

  it('limits sending per IP so addresses cannot be swept: a check after 10, and the 21st in an hour is a 429', {
    timeout: 30_000,
  }, async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await login({ email: uniqueEmail('sweep') }, ip)).status).toBe(200);
    expect((await login({ email: uniqueEmail('sweep') }, ip)).status).toBe(428);
    for (let i = 11; i < 20; i++) {
      expect(
        (await login({ email: uniqueEmail('sweep'), turnstile_token: `t-${crypto.randomUUID()}` }, ip)).status,
      ).toBe(200);
    }
    const res = await login({ email: uniqueEmail('sweep'), turnstile_token: `t-${crypto.randomUUID()}` }, ip);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Known and unknown addresses are refused alike.
    const known = await createUser(t.db, { email: uniqueEmail('known-sweep') });
    const again = await login({ email: known.email }, ip);
    expect(again.status).toBe(429);
    // cf-connecting-ip wins over X-Forwarded-For, so a forged header does not reset the count.
    const cf = await login({ email: uniqueEmail('cf') }, uniqueIp(), { 'cf-connecting-ip': ip });
    expect(cf.status).toBe(429);
  });

  it('never refuses guesses per email alone: past 10 wrong codes for an address, every guess needs the check', {
    timeout: 30_000,
  }, async () => {
    const email = uniqueEmail('guess');
    for (let round = 0; round < 3; round++) {
      await login({ email, turnstile_token: `t-${crypto.randomUUID()}` }, uniqueIp());
      for (let i = 0; i < 4; i++)
        await login({ email, code: '000000', turnstile_token: `t-${crypto.randomUUID()}` }, uniqueIp());
    }
    const res = await login({ email, code: '000000' }, uniqueIp());
    expect(res.status).toBe(428);
    expect((await errorOf(res, 428)).message).toMatch(/security check/);
    const checked = await login({ email, code: '000000', turnstile_token: `t-${crypto.randomUUID()}` }, uniqueIp());
    expect(checked.status).toBe(401);
  });

  it('limits verifying per IP: a check after 10 wrong codes, and the 51st try in an hour is a 429', {
    timeout: 30_000,
  }, async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) {
      expect(
        (await login({ email: uniqueEmail('ipguess'), code: '123456', first_name: 'A', last_name: 'B' }, ip)).status,
      ).toBe(401);
    }
    expect((await login({ email: uniqueEmail('ipguess'), code: '123456' }, ip)).status).toBe(428);
    for (let i = 11; i < 50; i++) {
      const token = `t-${crypto.randomUUID()}`;
      expect((await login({ email: uniqueEmail('ipguess'), code: '123456', turnstile_token: token }, ip)).status).toBe(
        401,
      );
    }
    const res = await login(
      { email: uniqueEmail('ipguess'), code: '123456', turnstile_token: `t-${crypto.randomUUID()}` },
      ip,
    );
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('makes ADMIN_EMAILS admins on sign-in, new or existing', async () => {
    const newcomer = uniqueEmail('boss');
    const existingEmail = uniqueEmail('promote');
    const admins = await setupTestApp({ ADMIN_EMAILS: ` ${newcomer.toUpperCase()} , ${existingEmail}` });
    const existing = await createUser(admins.db, { email: existingEmail });
    const t0 = t;
    t = admins;
    try {
      const a = signedIn(await bodyOf(await signIn(newcomer, { first_name: 'Bo', last_name: 'Ss' }), 200));
      expect(a.user.type).toBe('admin');
      const b = signedIn(await bodyOf(await signIn(existing.email), 200));
      expect(b.user.type).toBe('admin');
      const [row] = await admins.db.select().from(users).where(eq(users.id, existing.id));
      expect(row.type).toBe('admin');
    } finally {
      t = t0;
    }
  });

  it('logout revokes the session: the token then answers 401', async () => {
    const user = await createUser(t.db, { email: uniqueEmail('bye') });
    const { token } = signedIn(await bodyOf(await signIn(user.email), 200));
    const auth = t.client(token).api.auth;
    const out = await auth.logout.$post();
    expect(out.status).toBe(200);
    const me = await auth.$get();
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual({ statusCode: 401, message: expect.any(String) });
    expect((await auth.logout.$post()).status).toBe(401);
  });

  it('answers 401 with {statusCode, message} for a missing, unknown, expired, idle or revoked token', async () => {
    const user = await createUser(t.db);
    const expired = await createSession(t.db, user.id);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    const idleUser = await createUser(t.db);
    const idle = await createSession(t.db, idleUser.id, new Date(Date.now() - 8 * 24 * 60 * 60 * 1000));
    const revokedUser = await createUser(t.db);
    const revoked = await createSession(t.db, revokedUser.id);
    await t.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, revokedUser.id));
    const cases: RequestInit[] = [
      {},
      { headers: { authorization: 'Bearer ' + 'x'.repeat(43) } },
      { headers: { authorization: `Bearer ${expired}` } },
      { headers: { authorization: `Bearer ${idle}` } },
      { headers: { authorization: `Bearer ${revoked}` } },
      { headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    ];
    // Raw: the authorization headers themselves (absent, malformed, another scheme) are what is checked.
    for (const init of cases) {
      const res = await t.request('/api/auth', init);
      const body = await errorOf(res, 401);
      expect(body.message).toEqual(expect.any(String));
    }
  });

  it('never takes the token from the URL or a cookie', async () => {
    const user = await createUser(t.db);
    const token = await createSession(t.db, user.id);
    expect((await t.client(token).api.auth.$get()).status).toBe(200);
    // Raw: the token in a URL or a cookie, where no client puts it, is the point.
    expect((await t.request(`/api/auth?token=${token}`)).status).toBe(401);
    expect((await t.request(`/api/auth?access_token=${token}`)).status).toBe(401);
    expect(
      (await t.request('/api/auth', { headers: { cookie: `token=${token}; uk_nfp_token=${token}` } })).status,
    ).toBe(401);
  });

  it.each([
    [{ email: 'not-an-email' }, /email: Enter a valid email address/],
    [{}, /email: Enter your email address/],
    [{ email: 'a@example.org', code: '12a456' }, /code must be exactly 6 digits/],
    [{ email: 'a@example.org', code: '1234567' }, /code must be exactly 6 digits/],
    [{ email: 'a@example.org', code: 123456 }, /code must be the 6-digit code/],
    [{ email: `${'a'.repeat(250)}@example.org` }, /email must be at most 254 characters/],
    [{ email: 'a@example.org', first_name: 'x'.repeat(101) }, /^first_name: Use at most 100 characters$/],
  ])('rejects bad input %j with a 400 that says what to fix', async (json, message) => {
    const res = await loginRaw(json);
    const body = await errorOf(res, 400);
    expect(body.message).toMatch(message);
  });

  it('rejects malformed JSON with 400 and an oversized body with 413', async () => {
    const bad = await t.request('/api/auth/login', {
      method: 'POST',
      body: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(await messageOf(bad)).toMatch(/valid JSON/);
    const big = await loginRaw({ email: 'a@example.org', first_name: 'x'.repeat(200_000) });
    expect(big.status).toBe(413);
    expect(await messageOf(big)).toMatch(/too large/);
  });

  it('sends no email and stores no code for bad input', async () => {
    const email = uniqueEmail('nothing');
    await login({ email, code: 'abcdef' });
    expect(await t.db.select().from(loginCodes).where(eq(loginCodes.email, email))).toHaveLength(0);
  });
});

describe('sign-in code primitives', () => {
  it('generates uniform 6-digit strings', () => {
    const seen = new Set<string>();
    const firstDigits = new Array(10).fill(0);
    for (let i = 0; i < 5000; i++) {
      const code = generateCode();
      expect(code).toMatch(/^\d{6}$/);
      seen.add(code);
      firstDigits[Number(code[0])]++;
    }
    expect(seen.size).toBeGreaterThan(4950);
    // Each leading digit should get about 500 of 5000; modulo bias or a fixed prefix would show.
    for (const count of firstDigits) expect(count).toBeGreaterThan(350);
  });

  it('binds the hash to the secret and the address, and compares in constant time', async () => {
    const a = await hashCode('secret-a', 'a@example.org', '123456');
    expect(await hashCode('secret-b', 'a@example.org', '123456')).not.toBe(a);
    expect(await hashCode('secret-a', 'b@example.org', '123456')).not.toBe(a);
    expect(constantTimeEqual(a, await hashCode('secret-a', 'a@example.org', '123456'))).toBe(true);
    expect(constantTimeEqual(a, a.slice(0, -1))).toBe(false);
    expect(constantTimeEqual(a, `${a.slice(0, -1)}0`)).toBe(a.endsWith('0'));
  });
});
