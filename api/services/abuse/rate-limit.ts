import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { rateLimits } from '../../../db/schema';
import { HttpError } from '../../lib/errors';

export type RateRule = { limit: number; windowMs: number };

const MINUTE = 60_000;

/**
 * Sign-in throttles (ASVS V6.3) that a stranger cannot turn into a lock-out (docs/decisions/014):
 * hard limits are per address and per (email, address) only, never per email alone. Each code
 * still dies after 5 wrong guesses; past the thresholds below a Turnstile check is asked for.
 */
export const AUTH_LIMITS = {
  sendPerIp: { limit: 20, windowMs: 60 * MINUTE },
  /** Codes one address may request for one email: a stranger only slows themselves. */
  sendPerEmailAndIp: { limit: 5, windowMs: 15 * MINUTE },
  verifyPerIp: { limit: 50, windowMs: 60 * MINUTE },
} satisfies Record<string, RateRule>;

/** Wrong codes from one address for one email: free tries, then waits that double up to an hour. */
export const VERIFY_BACKOFF = { freeFailures: 3, baseMs: MINUTE, maxMs: 60 * MINUTE, resetMs: 24 * 60 * MINUTE };

/**
 * Past these counts a Turnstile check is required (not a refusal: the owner passes it). Per address
 * only behind Cloudflare; per email for every caller, so guesses spread over many addresses meet
 * a human check too.
 */
export const CHALLENGE_THRESHOLDS = {
  /** Code requests and wrong codes from one address. */
  signInPerIp: { limit: 10, windowMs: 60 * MINUTE },
  /** Codes requested for one email, from any address. */
  sendPerEmail: { limit: 5, windowMs: 15 * MINUTE },
  /** Wrong codes from one address at codes it did not ask for (any email): the second needs the check. */
  foreignGuessesPerIp: { limit: 1, windowMs: 60 * MINUTE },
  /** Guesses for one email at codes other addresses asked for: past this every such guess needs the check. */
  foreignGuessesPerEmail: { limit: 10, windowMs: 60 * MINUTE },
  /** Checkouts started from one address. */
  checkoutPerIp: { limit: 5, windowMs: 15 * MINUTE },
  /** Anonymous checkouts on the whole site: beyond this rate every anonymous donor is checked. */
  anonymousCheckouts: { limit: 60, windowMs: 10 * MINUTE },
} satisfies Record<string, RateRule>;

/**
 * Guesses for one email at codes other addresses asked for, per hour: past this, such guesses are
 * no longer compared with those codes at all (the requester's own guesses still are), which bounds
 * what many addresses passing the check could try against one code.
 */
export const FOREIGN_GUESS_CAP: RateRule = { limit: 30, windowMs: 60 * MINUTE };

/** Anonymous checkouts create rows and provider objects: bounded per donor email and per client. */
export const CHECKOUT_LIMITS = {
  perEmail: { limit: 10, windowMs: 15 * MINUTE },
  perIp: { limit: 30, windowMs: 15 * MINUTE },
} satisfies Record<string, RateRule>;

export type RateResult = { allowed: boolean; count: number; retryAfterSeconds: number };

/**
 * Counts one hit against a fixed window in one upsert, so concurrent requests cannot both
 * read a stale count (works the same on D1 and libSQL: SET reads the old row).
 */
export async function hitRateLimit(db: Db, key: string, rule: RateRule, now: Date, amount = 1): Promise<RateResult> {
  const nowMs = now.getTime();
  const expiredBefore = nowMs - rule.windowMs;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: amount })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${expiredBefore} then ${amount} else ${rateLimits.count} + ${amount} end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= ${expiredBefore} then ${nowMs} else ${rateLimits.windowStart} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
  const windowEnds = row.windowStart.getTime() + rule.windowMs;
  return {
    allowed: row.count <= rule.limit,
    count: row.count,
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - nowMs) / 1000)),
  };
}

/** The count in the current window without adding to it (0 when the window is over or never started). */
export async function peekRateLimit(db: Db, key: string, rule: RateRule, now: Date): Promise<number> {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key)).limit(1);
  if (!row || row.windowStart.getTime() <= now.getTime() - rule.windowMs) return 0;
  return row.count;
}

/** Seconds still to wait under a backoff key, or 0 (count = failures in a row, window_start = the last one). */
export async function backoffWait(db: Db, key: string, now: Date): Promise<number> {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key)).limit(1);
  if (!row) return 0;
  const since = now.getTime() - row.windowStart.getTime();
  const excess = row.count - VERIFY_BACKOFF.freeFailures;
  if (since >= VERIFY_BACKOFF.resetMs || excess < 0) return 0;
  const wait = Math.min(VERIFY_BACKOFF.baseMs * 2 ** excess, VERIFY_BACKOFF.maxMs);
  return since >= wait ? 0 : Math.ceil((wait - since) / 1000);
}

/** Records one more failure under a backoff key (a streak older than a day starts again). */
export async function recordBackoffFailure(db: Db, key: string, now: Date): Promise<void> {
  const resetBefore = now.getTime() - VERIFY_BACKOFF.resetMs;
  await db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${resetBefore} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`${now.getTime()}`,
      },
    });
}

export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

export class RateLimitError extends HttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

/** Hits every rule (so each counter advances) and throws a 429 for the longest wait. */
export async function enforceRateLimits(
  db: Db,
  checks: { key: string; rule: RateRule }[],
  now: Date,
  message: (minutes: number) => string,
): Promise<void> {
  const results = await Promise.all(checks.map((check) => hitRateLimit(db, check.key, check.rule, now)));
  const blocked = results.filter((r) => !r.allowed);
  if (blocked.length === 0) return;
  const wait = Math.max(...blocked.map((r) => r.retryAfterSeconds));
  throw new RateLimitError(message(Math.ceil(wait / 60)), wait);
}

/**
 * True when the caller has an address of its own: not the shared 'unknown' bucket, and not the
 * loopback address a local server (wrangler dev) reports for every browser. Behind Cloudflare the
 * address is the real client's, never loopback; local servers skip the per-address security check.
 */
export const knownIp = (ip: string) => ip !== 'unknown' && !/^(127\.|::1$|::ffff:127\.|localhost$)/i.test(ip);

/** The caller's address: Cloudflare's header, else the first X-Forwarded-For hop, else one shared bucket. */
export function clientIp(headers: { get(name: string): string | null | undefined }): string {
  const cf = headers.get('cf-connecting-ip')?.trim();
  if (cf) return cf.slice(0, 64);
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded ? forwarded.slice(0, 64) : 'unknown';
}
