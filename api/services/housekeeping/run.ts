import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, notExists, notInArray, or, sql } from 'drizzle-orm';
import { chunks, rowsPerStatement } from '../../../db/chunks';
import type { Db } from '../../../db/client';
import {
  campaigns,
  donations,
  giftAidDeclarations,
  loginCodes,
  organizationAdmins,
  organizations,
  outbox,
  rateLimits,
  sessions,
  unusedImages,
  users,
} from '../../../db/schema';
import { errorSummary, logLine } from '../../middlewares/logger';
import { isStoredKey } from '../campaigns/images';
import type { MailContext } from '../mail/facts';
import { applyProviderEvent } from '../../webhooks/stripe/apply';
import { SESSION_IDLE_MS } from '../auth/sessions';
import type { ServiceContext } from '../../lib/service-context';
import { DAY_MS, isIsoDay, londonIsoDate } from '../../../domain/dates';
import { listPhaseSql } from '../../../db/list-phase';

/**
 * Scheduled housekeeping (a Cron Trigger on the worker, or `npm run housekeeping` locally). Every
 * step is a conditional statement that finds nothing to do on a second run, so running it twice,
 * or two runs overlapping, ends in the same state (docs/decisions/014).
 */

export const HOUSEKEEPING = {
  /** A checkout still pending this long is abandoned (never in totals). */
  abandonAfterMs: DAY_MS,
  /** A stored image no record has used for this long is deleted from R2. */
  unusedImageMs: 7 * DAY_MS,
  /** Outbox rows, abandoned checkouts and their checkout-only donors are kept this long. */
  retentionMs: 30 * DAY_MS,
  /** The longest rate-limit window (the daily quotas): older windows are over. */
  rateWindowMs: DAY_MS,
  /** Stale checkouts handled per run; the next run continues. */
  batchSize: 200,
} as const;

export type HousekeepingDeps = Pick<ServiceContext, 'db' | 'payments' | 'now'> & {
  /** The R2 bucket of uploaded images (IMAGES); without it the image step is skipped. */
  bucket?: R2Bucket | null;
  /** Where receipts and failure notices of settled Direct Debits go (absent: none are sent). */
  mail?: MailContext;
};

export type HousekeepingCounts = {
  abandoned: number;
  stripe_cancelled: number;
  /** Stale pending checkouts left alone: Stripe says the payment went ahead, or could not be asked. */
  pending_kept: number;
  abandoned_purged: number;
  gift_aid_declarations_purged: number;
  checkout_donors_expired: number;
  stripe_customers_deleted: number;
  images_unused: number;
  images_deleted: number;
  sessions_purged: number;
  login_codes_purged: number;
  rate_limits_purged: number;
  outbox_purged: number;
  /** Demo Direct Debits that Bacs "settled" (succeeded or failed) on this run. */
  direct_debits_settled: number;
  /** Demo mode's daily payouts made on this run (one per organization per day). */
  demo_payouts: number;
  /** Campaigns and appeals that opened or ended since the last run, moved in the lists (decision 071). */
  list_phases_moved: number;
};

const emptyCounts = (): HousekeepingCounts => ({
  direct_debits_settled: 0,
  demo_payouts: 0,
  list_phases_moved: 0,
  abandoned: 0,
  stripe_cancelled: 0,
  pending_kept: 0,
  abandoned_purged: 0,
  gift_aid_declarations_purged: 0,
  checkout_donors_expired: 0,
  stripe_customers_deleted: 0,
  images_unused: 0,
  images_deleted: 0,
  sessions_purged: 0,
  login_codes_purged: 0,
  rate_limits_purged: 0,
  outbox_purged: 0,
});

/** Rows a delete or update touched, on both drivers (libSQL: rowsAffected, D1: meta.changes). */
function changed(result: unknown): number {
  const r = result as { rowsAffected?: number; meta?: { changes?: number } };
  return Number(r?.rowsAffected ?? r?.meta?.changes ?? 0);
}

export async function runHousekeeping(deps: HousekeepingDeps): Promise<HousekeepingCounts> {
  const counts = emptyCounts();
  counts.direct_debits_settled += await settleDelayedPayments(deps);
  // Stripe pays out by itself (payout.paid); demo mode pays out its own settled gifts once a day.
  counts.demo_payouts = await deps.payments.payOutSettled(deps.db, deps.now);
  await abandonStaleCheckouts(deps, counts);
  await expireCheckoutLeftovers(deps, counts);
  if (deps.bucket) await collectUnusedImages(deps, deps.bucket, counts);
  await purgeExpired(deps, counts);
  counts.list_phases_moved = await refreshListPhases(deps);
  return counts;
}

/**
 * Items that opened or ended since midnight move in the lists (their stored `list_phase`, decision
 * 071); the triggers of migration 0024 keep it on every write. Reads each item once an hour.
 */
export async function refreshListPhases({ db, now }: Pick<HousekeepingDeps, 'db' | 'now'>): Promise<number> {
  const today = londonIsoDate(now);
  if (!isIsoDay(today)) throw new Error(`not a calendar day: ${today}`);
  const phase = sql.raw(listPhaseSql(`'${today}'`));
  return changed(await db.run(sql`update "campaigns" set "list_phase" = ${phase} where "list_phase" <> ${phase}`));
}

/** Sets one pending row to abandoned; a webhook that settled it meanwhile wins. */
async function markAbandoned(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(donations)
    .set({ status: 'abandoned', updatedAt: now })
    .where(and(eq(donations.id, id), eq(donations.status, 'pending')))
    .returning({ id: donations.id });
  return rows.length > 0;
}

/**
 * Payments still processing that the provider settles itself (demo Direct Debits), through the
 * webhook's recording path; how many it settled. Also run alone by POST /api/dev/direct-debits/settle.
 */
export async function settleDelayedPayments({
  db,
  payments,
  mail,
}: Pick<HousekeepingDeps, 'db' | 'payments' | 'mail'>): Promise<number> {
  let settled = 0;
  for (const event of await payments.delayedSettlements(db, HOUSEKEEPING.batchSize)) {
    if ((await applyProviderEvent({ db, payments, mail }, event)) === 'recorded') settled += 1;
  }
  return settled;
}

/** Pending checkouts older than 24 hours become abandoned; a payment the provider holds is stopped there first. */
async function abandonStaleCheckouts({ db, payments, now }: HousekeepingDeps, counts: HousekeepingCounts) {
  const cutoff = new Date(now.getTime() - HOUSEKEEPING.abandonAfterMs);
  const stale = and(eq(donations.status, 'pending'), lt(donations.createdAt, cutoff));
  const remote = [...payments.remoteSources];
  // Demo and manual rows (every row, in demo mode) have nothing to stop anywhere.
  counts.abandoned += changed(
    await db
      .update(donations)
      .set({ status: 'abandoned', updatedAt: now })
      .where(remote.length ? and(stale, notInArray(donations.source, remote)) : stale),
  );
  if (!remote.length) return;
  const rows = await db
    .select()
    .from(donations)
    .where(and(stale, inArray(donations.source, remote)))
    .orderBy(asc(donations.createdAt))
    .limit(HOUSEKEEPING.batchSize);
  for (const row of rows) {
    const outcome = await payments.stopCheckout(row);
    if (outcome === 'cancelled') {
      counts.stripe_cancelled += 1;
      if (await markAbandoned(db, row.id, now)) counts.abandoned += 1;
    } else {
      counts.pending_kept += 1;
    }
  }
}

/**
 * Anonymous checkouts create a donor row (and, for monthly gifts, a Stripe Customer) before anyone
 * pays. Abandoned checkouts older than 30 days are deleted with their Gift Aid details, and donors
 * that only ever checked out (never signed in, nothing else refers to them) go with them.
 */
async function expireCheckoutLeftovers({ db, payments, now }: HousekeepingDeps, counts: HousekeepingCounts) {
  const cutoff = new Date(now.getTime() - HOUSEKEEPING.retentionMs);
  // updated_at is when the checkout was abandoned: it stays visible to admins for 30 days after that.
  counts.abandoned_purged += changed(
    await db.delete(donations).where(and(eq(donations.status, 'abandoned'), lt(donations.updatedAt, cutoff))),
  );
  counts.gift_aid_declarations_purged += changed(
    await db
      .delete(giftAidDeclarations)
      .where(
        and(
          lt(giftAidDeclarations.createdAt, cutoff),
          notExists(
            db
              .select({ one: sql`1` })
              .from(donations)
              .where(eq(donations.giftAidDeclarationId, giftAidDeclarations.id)),
          ),
        ),
      ),
  );
  const expirable = and(
    eq(users.origin, 'checkout'),
    eq(users.type, 'donor'),
    lt(users.createdAt, cutoff),
    notExists(db.select({ one: sql`1` }).from(donations).where(eq(donations.donorId, users.id))),
    notExists(db.select({ one: sql`1` }).from(giftAidDeclarations).where(eq(giftAidDeclarations.donorId, users.id))),
    notExists(db.select({ one: sql`1` }).from(sessions).where(eq(sessions.userId, users.id))),
    notExists(db.select({ one: sql`1` }).from(organizationAdmins).where(eq(organizationAdmins.userId, users.id))),
    notExists(db.select({ one: sql`1` }).from(campaigns).where(eq(campaigns.createdBy, users.id))),
  );
  // Their provider Customers go first; a donor whose customer could not be deleted waits for the next run.
  const withCustomer = await db
    .select({ id: users.id, customer: users.stripeCustomerId })
    .from(users)
    .where(and(expirable, isNotNull(users.stripeCustomerId)))
    .limit(HOUSEKEEPING.batchSize);
  for (const donor of withCustomer) {
    try {
      if ((await payments.deleteCustomer(donor.customer!)) === 'deleted') counts.stripe_customers_deleted += 1;
    } catch (error) {
      logLine('error', 'housekeeping: stripe customer delete failed', {
        user_id: donor.id,
        error: errorSummary(error),
      });
      continue;
    }
    await db.update(users).set({ stripeCustomerId: null }).where(eq(users.id, donor.id));
  }
  counts.checkout_donors_expired += changed(
    await db.delete(users).where(and(expirable, isNull(users.stripeCustomerId))),
  );
}

/** Every stored image key a record uses: campaign and appeal images, organization logos, donor photos. */
async function usedImageKeys(db: Db): Promise<Set<string>> {
  const used = new Set<string>();
  let after = '';
  for (;;) {
    const page = await db
      .select({ id: campaigns.id, images: campaigns.images })
      .from(campaigns)
      .where(gt(campaigns.id, after))
      .orderBy(asc(campaigns.id))
      .limit(500);
    for (const row of page) for (const image of row.images ?? []) if (image?.Key) used.add(image.Key);
    if (page.length < 500) break;
    after = page[page.length - 1].id;
  }
  const [logos, avatars] = await Promise.all([
    db.select({ key: organizations.image }).from(organizations).where(isNotNull(organizations.image)),
    db.select({ key: users.avatar }).from(users).where(isNotNull(users.avatar)),
  ]);
  for (const { key } of [...logos, ...avatars]) if (key) used.add(key);
  return used;
}

/** Keys the worker uploaded (`campaigns/<uuid>.png|jpg`), read from R2 page by page. */
async function storedImageKeys(bucket: R2Bucket): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await bucket.list({ prefix: 'campaigns/', cursor, limit: 1000 });
    for (const object of page.objects) if (isStoredKey(object.key)) keys.push(object.key);
    if (!page.truncated) break;
    cursor = page.cursor;
  }
  return keys;
}

/**
 * An image no record uses is noted with the time it was first seen unused; once that is 7 days
 * ago (and it is still unused) it is deleted. A key used again, or gone, leaves the list.
 */
async function collectUnusedImages({ db, now }: HousekeepingDeps, bucket: R2Bucket, counts: HousekeepingCounts) {
  const [stored, used, noted] = await Promise.all([
    storedImageKeys(bucket),
    usedImageKeys(db),
    db.select().from(unusedImages),
  ]);
  const storedSet = new Set(stored);
  const notedAt = new Map(noted.map((row) => [row.key, row.firstSeenAt]));
  const unused = stored.filter((key) => !used.has(key));
  const cutoff = now.getTime() - HOUSEKEEPING.unusedImageMs;

  const expired = unused.filter((key) => (notedAt.get(key)?.getTime() ?? Number.POSITIVE_INFINITY) <= cutoff);
  const fresh = unused.filter((key) => !notedAt.has(key));
  const forget = noted.map((row) => row.key).filter((key) => used.has(key) || !storedSet.has(key));

  for (const keys of chunks(expired, 1000)) {
    await bucket.delete(keys);
    counts.images_deleted += keys.length;
  }
  for (const keys of chunks([...expired, ...forget]))
    await db.delete(unusedImages).where(inArray(unusedImages.key, keys));
  for (const keys of chunks(fresh, rowsPerStatement(2))) {
    await db
      .insert(unusedImages)
      .values(keys.map((key) => ({ key, firstSeenAt: now })))
      .onConflictDoNothing();
  }
  counts.images_unused = unused.length - expired.length;
}

/** Expired sessions and login codes, finished rate-limit windows and outbox rows older than 30 days. */
async function purgeExpired({ db, now }: HousekeepingDeps, counts: HousekeepingCounts) {
  const idleBefore = new Date(now.getTime() - SESSION_IDLE_MS);
  counts.sessions_purged += changed(
    await db
      .delete(sessions)
      .where(or(lte(sessions.expiresAt, now), isNotNull(sessions.revokedAt), lt(sessions.lastSeenAt, idleBefore))),
  );
  counts.login_codes_purged += changed(await db.delete(loginCodes).where(lte(loginCodes.expiresAt, now)));
  counts.rate_limits_purged += changed(
    await db.delete(rateLimits).where(lte(rateLimits.windowStart, new Date(now.getTime() - HOUSEKEEPING.rateWindowMs))),
  );
  counts.outbox_purged += changed(
    await db.delete(outbox).where(lt(outbox.createdAt, new Date(now.getTime() - HOUSEKEEPING.retentionMs))),
  );
}
