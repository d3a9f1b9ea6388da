import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loginCodes, organizationAdmins, users } from '../../db/schema';
import type { AppConfig } from '../lib/config';
import { HttpError, badRequest } from '../lib/errors';
import type { AuthUser } from '../lib/types';
import { loginCodeEmail, type Mailer } from './mailer';
import { AUTH_LIMITS, enforceRateLimits } from './rate-limit';
import { startSession } from './sessions';

export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;

export type UserDto = {
  _id: string;
  email: string;
  name: { first_name: string; last_name: string };
  type: 'donor' | 'org_admin' | 'admin';
  avatar: string | null;
  org_ids: string[];
};

type Ctx = { db: Db; config: AppConfig; mailer: Mailer; now: Date; ip: string };

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
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keyCache.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256(authSecret, email:code): the code is bound to its address and never stored. */
export async function hashCode(secret: string, email: string, code: string): Promise<string> {
  if (!secret) {
    // Production without AUTH_SECRET: refuse sign-in rather than hash with a guessable key.
    console.error('[auth] AUTH_SECRET is not set; sign-in is disabled');
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
    _id: user.id,
    email: user.email,
    name: { first_name: user.firstName, last_name: user.lastName },
    type: user.type,
    avatar: user.avatar,
    org_ids: user.orgIds,
  };
}

const minutes = (n: number) => (n > 90 ? `${Math.ceil(n / 60)} hours` : `${n} minute${n === 1 ? '' : 's'}`);

/**
 * Step one. Known and unknown addresses do the same work (look-up, code write, email) and get
 * the same answer apart from new_user, which the dialog needs to ask for a name.
 */
export async function requestLoginCode(ctx: Ctx, email: string): Promise<{ new_user: boolean; message: string }> {
  const { db, now } = ctx;
  await enforceRateLimits(
    db,
    [
      { key: `send:email:${email}`, rule: AUTH_LIMITS.sendPerEmail },
      { key: `send:ip:${ctx.ip}`, rule: AUTH_LIMITS.sendPerIp },
    ],
    now,
    (wait) => `Too many sign-in codes requested. Please wait ${minutes(wait)} before asking for another.`,
  );
  const [user] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.email, email)).limit(1);
  const code = generateCode();
  const codeHash = await hashCode(ctx.config.authSecret, email, code);
  // A new code cancels every earlier one for the address.
  await db.batch([
    db.update(loginCodes).set({ consumedAt: now }).where(and(eq(loginCodes.email, email), isNull(loginCodes.consumedAt))),
    db.insert(loginCodes).values({ email, codeHash, expiresAt: new Date(now.getTime() + CODE_TTL_MS), createdAt: now }),
  ]);
  await ctx.mailer.send(loginCodeEmail({ to: email, code, firstName: user?.firstName || null, minutes: CODE_TTL_MS / 60_000 }));
  return {
    new_user: !user,
    message: `We sent a ${CODE_LENGTH}-digit code to ${email}. It expires in ${CODE_TTL_MS / 60_000} minutes.`,
  };
}

const invalidCode = () =>
  new HttpError(401, 'That code is not valid or has expired. Check the latest email or ask for a new code.');

/** Step two: checks the code (single use, 10 minutes, 5 tries), creates or promotes the user, starts a session. */
export async function verifyLoginCode(
  ctx: Ctx,
  input: { email: string; code: string; first_name?: string; last_name?: string },
): Promise<{ user: UserDto; token: string; new_user: boolean }> {
  const { db, now, email } = { ...ctx, email: input.email };
  await enforceRateLimits(
    db,
    [
      { key: `verify:email:${email}`, rule: AUTH_LIMITS.verifyPerEmail },
      { key: `verify:email-day:${email}`, rule: AUTH_LIMITS.verifyPerEmailDaily },
      { key: `verify:ip:${ctx.ip}`, rule: AUTH_LIMITS.verifyPerIp },
    ],
    now,
    (wait) => `Too many sign-in attempts. Please wait ${minutes(wait)} and try again.`,
  );
  const [existing] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  const firstName = input.first_name?.trim() ?? '';
  const lastName = input.last_name?.trim() ?? '';
  if (!existing && (!firstName || !lastName)) {
    throw badRequest('first_name and last_name are required to create your account: enter your first and last name');
  }

  const [candidate] = await db
    .select({ id: loginCodes.id, codeHash: loginCodes.codeHash })
    .from(loginCodes)
    .where(and(eq(loginCodes.email, email), isNull(loginCodes.consumedAt), gt(loginCodes.expiresAt, now)))
    .orderBy(desc(loginCodes.createdAt))
    .limit(1);
  if (!candidate) throw invalidCode();
  // Count the try before comparing, so parallel guesses cannot exceed the limit.
  const [counted] = await db
    .update(loginCodes)
    .set({ attempts: sql`${loginCodes.attempts} + 1` })
    .where(and(eq(loginCodes.id, candidate.id), isNull(loginCodes.consumedAt), lt(loginCodes.attempts, MAX_CODE_ATTEMPTS)))
    .returning({ attempts: loginCodes.attempts });
  if (!counted) throw invalidCode();
  const submitted = await hashCode(ctx.config.authSecret, email, input.code);
  if (!constantTimeEqual(submitted, candidate.codeHash)) throw invalidCode();
  const [consumed] = await db
    .update(loginCodes)
    .set({ consumedAt: now })
    .where(and(eq(loginCodes.id, candidate.id), isNull(loginCodes.consumedAt)))
    .returning({ id: loginCodes.id });
  if (!consumed) throw invalidCode();

  const makeAdmin = ctx.config.adminEmails.has(email);
  let user = existing;
  if (!user) {
    await db
      .insert(users)
      .values({ email, firstName: firstName.slice(0, 100), lastName: lastName.slice(0, 100), type: makeAdmin ? 'admin' : 'donor' })
      .onConflictDoNothing();
    [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  } else if (makeAdmin && user.type !== 'admin') {
    [user] = await db.update(users).set({ type: 'admin' }).where(eq(users.id, user.id)).returning();
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
