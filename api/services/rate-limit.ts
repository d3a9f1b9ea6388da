import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rateLimits } from '../../db/schema';
import { HttpError } from '../lib/errors';

export type RateRule = { limit: number; windowMs: number };

const MINUTE = 60_000;

/** Sign-in throttles (ASVS V6.3): a mailbox or an address cannot be swept or flooded. */
export const AUTH_LIMITS = {
  sendPerEmail: { limit: 5, windowMs: 15 * MINUTE },
  sendPerIp: { limit: 20, windowMs: 60 * MINUTE },
  verifyPerEmail: { limit: 10, windowMs: 15 * MINUTE },
  // Caps guessing over a day too: 10 per 15 minutes alone would allow ~960 guesses a day.
  verifyPerEmailDaily: { limit: 30, windowMs: 24 * 60 * MINUTE },
  verifyPerIp: { limit: 50, windowMs: 60 * MINUTE },
} satisfies Record<string, RateRule>;

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
export async function hitRateLimit(db: Db, key: string, rule: RateRule, now: Date): Promise<RateResult> {
  const nowMs = now.getTime();
  const expiredBefore = nowMs - rule.windowMs;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${expiredBefore} then 1 else ${rateLimits.count} + 1 end`,
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

/** The caller's address: Cloudflare's header, else the first X-Forwarded-For hop, else one shared bucket. */
export function clientIp(headers: { get(name: string): string | null | undefined }): string {
  const cf = headers.get('cf-connecting-ip')?.trim();
  if (cf) return cf.slice(0, 64);
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded ? forwarded.slice(0, 64) : 'unknown';
}
