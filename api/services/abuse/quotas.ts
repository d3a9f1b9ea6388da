import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { rateLimits } from '../../../db/schema';
import type { AuthUser } from '../../lib/types';
import { hitRateLimit, peekRateLimit, RateLimitError, type RateRule } from './rate-limit';
import { isAdmin, isDonor, isOrgAdmin } from '../../lib/policy';
import { DAY_MS } from '../../../domain/dates';

const MB = 1024 * 1024;

/**
 * Per-account daily quotas, so a new account cannot fill storage or the appeal lists in one go.
 * Admins have none; organization admins a larger upload allowance; everyone else the base one.
 */
export const DAILY_QUOTAS = {
  appeals: { limit: 5, windowMs: DAY_MS },
  uploadBytes: { limit: 25 * MB, windowMs: DAY_MS },
  uploadBytesOrgAdmin: { limit: 250 * MB, windowMs: DAY_MS },
} satisfies Record<string, RateRule>;

const hoursLeft = (seconds: number) => Math.max(1, Math.ceil(seconds / 3600));

/** Counts `amount` against the quota, or refuses (429, nothing counted) when it would go over. */
async function consume(
  db: Db,
  key: string,
  rule: RateRule,
  amount: number,
  now: Date,
  message: (hours: number) => string,
) {
  const used = await peekRateLimit(db, key, rule, now);
  if (used + amount > rule.limit) {
    const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key)).limit(1);
    const seconds = row
      ? Math.max(1, Math.ceil((row.windowStart.getTime() + rule.windowMs - now.getTime()) / 1000))
      : Math.ceil(rule.windowMs / 1000);
    throw new RateLimitError(message(hoursLeft(seconds)), seconds);
  }
  await hitRateLimit(db, key, rule, now, amount);
}

/** One more appeal today for this account. */
export async function consumeAppealQuota(db: Db, user: AuthUser, now: Date): Promise<void> {
  if (!isDonor(user)) return;
  const rule = DAILY_QUOTAS.appeals;
  await consume(
    db,
    `quota:appeals:${user.id}`,
    rule,
    1,
    now,
    (hours) =>
      `You can start up to ${rule.limit} appeals a day. Please try again in ${hours} hour${hours === 1 ? '' : 's'}.`,
  );
}

/** The account's daily upload allowance; null for admins, who have none. */
export function uploadQuotaOf(user: AuthUser): RateRule | null {
  if (isAdmin(user)) return null;
  return isOrgAdmin(user) ? DAILY_QUOTAS.uploadBytesOrgAdmin : DAILY_QUOTAS.uploadBytes;
}

/** Image bytes this account may still upload today; null when it has no quota (admins). */
export async function remainingUploadBytes(db: Db, user: AuthUser, now: Date): Promise<number | null> {
  const rule = uploadQuotaOf(user);
  if (!rule) return null;
  return Math.max(0, rule.limit - (await peekRateLimit(db, `quota:upload-bytes:${user.id}`, rule, now)));
}

/** Image bytes uploaded today by this account (originals and their resized copies: all are stored). */
export async function consumeUploadQuota(db: Db, user: AuthUser, bytes: number, now: Date): Promise<void> {
  const rule = uploadQuotaOf(user);
  if (!rule || bytes <= 0) return;
  await consume(
    db,
    `quota:upload-bytes:${user.id}`,
    rule,
    bytes,
    now,
    (hours) =>
      `You can upload up to ${rule.limit / MB} MB of images a day. Use fewer or smaller images, or try again in ${hours} hour${hours === 1 ? '' : 's'}.`,
  );
}
