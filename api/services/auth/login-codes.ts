import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { loginCodes, organizationAdmins, users } from '../../../db/schema';
import { HttpError } from '../../lib/errors';
import type { AuthUser } from '../../lib/types';
import { loginCodeEmail, type Mailer } from '../mail/mailer';
import {
  AUTH_LIMITS,
  backoffWait,
  CHALLENGE_THRESHOLDS,
  clearRateLimit,
  enforceRateLimits,
  FOREIGN_GUESS_CAP,
  hitRateLimit,
  knownIp,
  peekRateLimit,
  RateLimitError,
  recordBackoffFailure,
} from '../abuse/rate-limit';
import { requireChallenge } from '../abuse/turnstile';
import { startSession } from './sessions';
import { toAccountDto } from '../users/account';
import type { UserDto } from '../../schemas';
import { isAdminAccount } from '../../lib/policy';
import { logLine } from '../../middlewares/logger';
import type { ServiceContext } from '../../lib/service-context';

export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;

type Ctx = Pick<ServiceContext, 'db' | 'config' | 'now'> & {
  mailer: Mailer;
  ip: string;
  turnstileToken?: string | null;
};

/** Uniform 6 digits from the CSPRNG: values past the last whole multiple of 10^6 are redrawn. */
export function generateCode(): string {
  const range = 10 ** CODE_LENGTH;
  const limit = Math.floor(0x1_0000_0000 / range) * range;
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0] < limit) return String(buf[0] % range).padStart(CODE_LENGTH, '0');
  }
}

const keyCache = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string) {
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    keyCache.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256(authSecret, email:code): the code is bound to its address and never stored. */
export async function hashCode(secret: string, email: string, code: string): Promise<string> {
  if (!secret) {
    // Production without AUTH_SECRET: refuse sign-in rather than hash with a guessable key.
    logLine('error', 'AUTH_SECRET is not set; sign-in is disabled');
    throw new HttpError(503, 'Sign-in is temporarily unavailable. Please try again later.');
  }
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), new TextEncoder().encode(`${email}:${code}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Compares two strings without an early exit, so timing says nothing about where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

export function toUserDto(user: Omit<AuthUser, 'sessionId'>): UserDto {
  return {
    ...toAccountDto(user),
    type: user.type,
    avatar: user.avatar,
    org_ids: user.orgIds,
  };
}

const minutes = (n: number) => (n > 90 ? `${Math.ceil(n / 60)} hours` : `${n} minute${n === 1 ? '' : 's'}`);

/** Live codes a guess is checked against (each counts the guess; sending limits keep this small). */
const LIVE_CODES_CHECKED = 50;

const keys = {
  sendIp: (ip: string) => `send:ip:${ip}`,
  sendPair: (email: string, ip: string) => `send:pair:${ip}:${email}`,
  verifyIp: (ip: string) => `verify:ip:${ip}`,
  backoff: (email: string, ip: string) => `verify:backoff:${ip}:${email}`,
  challengeIp: (ip: string) => `challenge:signin-ip:${ip}`,
  challengeSend: (email: string) => `challenge:send-email:${email}`,
  foreignIp: (ip: string) => `challenge:foreign-ip:${ip}`,
  foreignEmail: (email: string) => `verify:foreign-email:${email}`,
};

export type LoginCodeRequested = { message: string };

/**
 * Step one. Known and unknown addresses do the same work (look-up, code write, email) and get
 * the same answer; whether the address has an account is told only after the code is proven.
 * A new code does not cancel one already sent, so a stranger asking for codes cannot spoil the
 * owner's; hard limits are per address and per (email, address), never per email alone.
 */
export async function requestLoginCode(ctx: Ctx, email: string): Promise<LoginCodeRequested> {
  const { db, now, ip } = ctx;
  await enforceRateLimits(
    db,
    [
      { key: keys.sendIp(ip), rule: AUTH_LIMITS.sendPerIp },
      { key: keys.sendPair(email, ip), rule: AUTH_LIMITS.sendPerEmailAndIp },
    ],
    now,
    (wait) => `Too many sign-in codes requested. Please wait ${minutes(wait)} before asking for another.`,
  );
  const [perEmail, perIp] = await Promise.all([
    hitRateLimit(db, keys.challengeSend(email), CHALLENGE_THRESHOLDS.sendPerEmail, now),
    knownIp(ip) ? hitRateLimit(db, keys.challengeIp(ip), CHALLENGE_THRESHOLDS.signInPerIp, now) : null,
  ]);
  if (
    perEmail.count > CHALLENGE_THRESHOLDS.sendPerEmail.limit ||
    (perIp && perIp.count > CHALLENGE_THRESHOLDS.signInPerIp.limit)
  ) {
    await requireChallenge(ctx.config, ctx.turnstileToken, knownIp(ip) ? ip : null);
  }
  const [user] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.email, email)).limit(1);
  const code = generateCode();
  const codeHash = await hashCode(ctx.config.authSecret, email, code);
  await db
    .insert(loginCodes)
    .values({ email, codeHash, expiresAt: new Date(now.getTime() + CODE_TTL_MS), createdAt: now, requestedIp: ip });
  await ctx.mailer.send(
    loginCodeEmail({ to: email, code, firstName: user?.firstName || null, minutes: CODE_TTL_MS / 60_000 }),
  );
  return { message: `We sent a ${CODE_LENGTH}-digit code to ${email}. It expires in ${CODE_TTL_MS / 60_000} minutes.` };
}

const invalidCode = () =>
  new HttpError(401, 'That code is not valid or has expired. Check the latest email or ask for a new code.');

export type LoginResult =
  | { user: UserDto; token: string; new_user: boolean }
  | { new_user: true; names_required: true; message: string };

/**
 * Step two: checks the code (10 minutes, single use, dead after 5 wrong guesses from the address
 * that requested it), then signs in, creating the account for a new address once it has names. A
 * correct code for a new address without names answers `names_required` and stays usable, so the
 * dialog can ask for them. Someone else's wrong guesses never refuse the owner's right code: a
 * code's attempts count only guesses from the address that asked for it; guesses from other
 * addresses are counted per (email, address), per address and per email apart, ask for the
 * Turnstile check early (from an address's second wrong guess, or past 10 for the email), and
 * past a cap stop being checked against other addresses' codes at all.
 */
export async function verifyLoginCode(
  ctx: Ctx,
  input: { email: string; code: string; first_name?: string; last_name?: string },
): Promise<LoginResult> {
  const { db, now, ip, email } = { ...ctx, email: input.email };
  await enforceRateLimits(
    db,
    [{ key: keys.verifyIp(ip), rule: AUTH_LIMITS.verifyPerIp }],
    now,
    (wait) => `Too many sign-in attempts. Please wait ${minutes(wait)} and try again.`,
  );
  const wait = await backoffWait(db, keys.backoff(email, ip), now);
  if (wait > 0) {
    throw new RateLimitError(`Too many wrong codes. Please wait ${minutes(Math.ceil(wait / 60))} and try again.`, wait);
  }

  const live = and(eq(loginCodes.email, email), isNull(loginCodes.consumedAt), gt(loginCodes.expiresAt, now));
  const candidates = await db
    .select({
      id: loginCodes.id,
      codeHash: loginCodes.codeHash,
      requestedIp: loginCodes.requestedIp,
      attempts: loginCodes.attempts,
    })
    .from(loginCodes)
    .where(live)
    .orderBy(desc(loginCodes.createdAt))
    .limit(LIVE_CODES_CHECKED);
  // Codes from before requested_ip was stored count as the guesser's own (the old rule).
  const isOwn = (c: { requestedIp: string | null }) => c.requestedIp === null || c.requestedIp === ip;
  const own = candidates.filter((c) => isOwn(c) && c.attempts < MAX_CODE_ATTEMPTS);
  const others = candidates.filter((c) => !isOwn(c));

  const [ipCount, foreignFromIp, foreignForEmail] = await Promise.all([
    knownIp(ip) ? peekRateLimit(db, keys.challengeIp(ip), CHALLENGE_THRESHOLDS.signInPerIp, now) : 0,
    knownIp(ip) && !own.length
      ? peekRateLimit(db, keys.foreignIp(ip), CHALLENGE_THRESHOLDS.foreignGuessesPerIp, now)
      : 0,
    !own.length && others.length
      ? peekRateLimit(db, keys.foreignEmail(email), CHALLENGE_THRESHOLDS.foreignGuessesPerEmail, now)
      : 0,
  ]);
  // The requesting address is never asked because of others' failures; only its own count.
  if (
    ipCount >= CHALLENGE_THRESHOLDS.signInPerIp.limit ||
    foreignFromIp >= CHALLENGE_THRESHOLDS.foreignGuessesPerIp.limit ||
    foreignForEmail >= CHALLENGE_THRESHOLDS.foreignGuessesPerEmail.limit
  ) {
    await requireChallenge(ctx.config, ctx.turnstileToken, knownIp(ip) ? ip : null);
  }

  // Count the try before comparing, so parallel guesses cannot exceed the limits: on this
  // address's own codes, and on the email's count of guesses at other addresses' codes.
  const counted = own.length
    ? await db
        .update(loginCodes)
        .set({ attempts: sql`${loginCodes.attempts} + 1` })
        .where(
          and(
            inArray(
              loginCodes.id,
              own.map((c) => c.id),
            ),
            isNull(loginCodes.consumedAt),
            lt(loginCodes.attempts, MAX_CODE_ATTEMPTS),
          ),
        )
        .returning({ id: loginCodes.id })
    : [];
  const foreignTry = others.length ? await hitRateLimit(db, keys.foreignEmail(email), FOREIGN_GUESS_CAP, now) : null;
  const checkable = new Set([...counted.map((row) => row.id), ...(foreignTry?.allowed ? others.map((c) => c.id) : [])]);
  const submitted = await hashCode(ctx.config.authSecret, email, input.code);
  let match: string | null = null;
  for (const candidate of candidates) {
    if (constantTimeEqual(submitted, candidate.codeHash) && checkable.has(candidate.id)) match = candidate.id;
  }
  if (!match) {
    await Promise.all([
      recordBackoffFailure(db, keys.backoff(email, ip), now),
      knownIp(ip) ? hitRateLimit(db, keys.challengeIp(ip), CHALLENGE_THRESHOLDS.signInPerIp, now) : null,
      // A wrong guess at a code this address did not ask for.
      knownIp(ip) && !own.length && others.length
        ? hitRateLimit(db, keys.foreignIp(ip), CHALLENGE_THRESHOLDS.foreignGuessesPerIp, now)
        : null,
    ]);
    throw invalidCode();
  }

  const [existing] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  const firstName = input.first_name?.trim() ?? '';
  const lastName = input.last_name?.trim() ?? '';
  if (!existing && (!firstName || !lastName)) {
    // The code is proven, so this may now say the address is new; the code stays usable.
    return {
      new_user: true,
      names_required: true,
      message: 'Welcome! Enter your first and last name to create your account, then press Create account.',
    };
  }
  const [consumed] = await db
    .update(loginCodes)
    .set({ consumedAt: now })
    .where(and(eq(loginCodes.id, match), isNull(loginCodes.consumedAt)))
    .returning({ id: loginCodes.id });
  if (!consumed) throw invalidCode();
  // Signed in: the other codes sent to this address are spent too, and this pair's streak ends.
  await Promise.all([
    db
      .update(loginCodes)
      .set({ consumedAt: now })
      .where(and(eq(loginCodes.email, email), isNull(loginCodes.consumedAt))),
    clearRateLimit(db, keys.backoff(email, ip)),
  ]);

  const makeAdmin = ctx.config.adminEmails.has(email);
  let user = existing;
  if (!user) {
    await db
      .insert(users)
      .values({
        email,
        firstName: firstName.slice(0, 100),
        lastName: lastName.slice(0, 100),
        type: makeAdmin ? 'admin' : 'donor',
      })
      .onConflictDoNothing();
    [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  } else if ((makeAdmin && !isAdminAccount(user)) || user.origin !== 'account') {
    // A donor first made by a checkout owns the account once they sign in (housekeeping keeps it).
    [user] = await db
      .update(users)
      .set({ origin: 'account', ...(makeAdmin ? { type: 'admin' as const } : {}) })
      .where(eq(users.id, user.id))
      .returning();
  }
  const token = await startSession(db, user.id, now);
  const orgs = await db
    .select({ organizationId: organizationAdmins.organizationId })
    .from(organizationAdmins)
    .where(eq(organizationAdmins.userId, user.id));
  return {
    user: toUserDto({ ...user, orgIds: orgs.map((o) => o.organizationId) }),
    token,
    new_user: !existing,
  };
}
