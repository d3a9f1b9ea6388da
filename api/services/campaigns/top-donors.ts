import { COLLECTIONS_ADDRESS_PREFIX, NO_EMAIL_DOMAIN } from '../../../domain/email';
import { and, asc, desc, eq, gt, gte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { type IdValue, preparedRead } from '../../../db/prepared';
import { donorTotals, users } from '../../../db/schema';

export const TOP_DONORS_LIMIT = 10;

export type TopDonor = {
  /** Public display name, "First L.", or "Anonymous" when the donor gave anonymously or never here in their own checkout; never an email. */
  donor: string;
  count: number;
  /** Pence; null when the donor chose "Hide the amount" on a gift here. */
  total: number | null;
};

/** "Amira Khan" → "Amira K."; a donor with no name on file shows as "Anonymous". */
export function displayName(firstName: string | null, lastName: string | null): string {
  const first = (firstName ?? '').trim();
  const initial = (lastName ?? '').trim().charAt(0).toUpperCase();
  if (!first) return initial ? `${initial}.` : 'Anonymous';
  return initial ? `${first} ${initial}.` : first;
}

/**
 * The leaderboard for one campaign (its own gifts and its appeals') or one appeal: donors with
 * succeeded gifts, by total net of refunds, largest first. Read from the running per-donor totals
 * (donor_totals, kept by the donation triggers; docs/decisions/016): the rank index gives the n-th
 * best total, and only donors at or above it are joined and sorted, so the cost stays flat however
 * many gifts the campaign has. The caller checks the item is visible.
 */
export async function topDonors(
  db: Db,
  target: { campaignId: string } | { appealId: string },
  limit = TOP_DONORS_LIMIT,
): Promise<TopDonor[]> {
  return (await preparedTopDonors(db, target, limit)).map(toTopDonor);
}

const TARGET = sql.placeholder('target');

/** topDonorsQuery prepared once per database and size (db/prepared.ts), for a db.batch or awaited alone. */
export function preparedTopDonors(
  db: Db,
  target: { campaignId: string } | { appealId: string },
  limit = TOP_DONORS_LIMIT,
) {
  const n = leaderboardSize(limit);
  if ('campaignId' in target)
    return preparedRead(db, `top-donors:campaign:${n}`, () => topDonorsQuery(db, { campaignId: TARGET }, n), {
      target: target.campaignId,
    });
  return preparedRead(db, `top-donors:appeal:${n}`, () => topDonorsQuery(db, { appealId: TARGET }, n), {
    target: target.appealId,
  });
}

const leaderboardSize = (limit: number) => Math.min(Math.max(Math.trunc(limit) || 1, 1), TOP_DONORS_LIMIT);

/** The query behind topDonors, for callers that send it in one db.batch with others. */
export function topDonorsQuery(
  db: Db,
  target: { campaignId: IdValue } | { appealId: IdValue },
  limit = TOP_DONORS_LIMIT,
) {
  const targetId = 'campaignId' in target ? target.campaignId : target.appealId;
  // An organization's tin and bucket collections donor is no one person: toTopDonors drops it, found
  // by its address on the users row read anyway (decision 081). A subquery leaving it out cost every
  // read 22 rows, and reading one leader more 6 (the appeal page then read 101): when the tins are
  // among a page's leaders, it shows one leader fewer.
  const n = leaderboardSize(limit);
  const nth = sql`coalesce((select raised_pence from donor_totals where target_id = ${targetId} and gift_count > 0
    order by raised_pence desc, gift_count desc limit 1 offset ${n - 1}), 0)`;
  return db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      collections: sql<number>`${users.email} like ${`${COLLECTIONS_ADDRESS_PREFIX}%@${NO_EMAIL_DOMAIN}`}`,
      count: donorTotals.giftCount,
      total: donorTotals.raisedPence,
      // "Give anonymously" on a paid gift to this campaign or appeal hides the name (renewals follow their first gift).
      // The donors who did are found once, from the target's messages (an index each way; CROSS JOIN
      // keeps SQLite from starting at every paid gift): asked per donor, the check read each leader's
      // whole giving history, about 110 rows of a page at 100x the data. A donor with no gift here
      // from their own checkout (only office entries, or a guest who typed their email) was never
      // asked, so is not named either (decision 077).
      anonymous: sql<number>`${donorTotals.ownGiftCount} = 0 or ${donorTotals.donorId} in (select d.donor_id from support_messages sm cross join donations d on d.id = sm.donation_id
        where (sm.campaign_id = ${targetId} or sm.appeal_id = ${targetId}) and sm.anonymous = 1 and d.status in ('succeeded', 'refunded'))`,
      // "Hide the amount" on any paid gift here hides the donor's total too (found once, the same way).
      hideAmount: sql<number>`${donorTotals.donorId} in (select d.donor_id from support_messages sm cross join donations d on d.id = sm.donation_id
        where (sm.campaign_id = ${targetId} or sm.appeal_id = ${targetId}) and sm.hide_amount = 1 and d.status in ('succeeded', 'refunded'))`,
    })
    .from(donorTotals)
    .innerJoin(users, eq(users.id, donorTotals.donorId))
    .where(and(eq(donorTotals.targetId, targetId), gt(donorTotals.giftCount, 0), gte(donorTotals.raisedPence, nth)))
    .orderBy(desc(donorTotals.raisedPence), desc(donorTotals.giftCount), asc(users.firstName), asc(donorTotals.donorId))
    .limit(n);
}

/** The leaderboard as shown: the collections donor left out, at most `limit` donors. */
export function toTopDonors(
  rows: (Parameters<typeof toTopDonor>[0] & { collections?: number | boolean })[],
  limit = TOP_DONORS_LIMIT,
): TopDonor[] {
  return rows
    .filter((row) => !Number(row.collections ?? 0))
    .slice(0, leaderboardSize(limit))
    .map(toTopDonor);
}

export function toTopDonor(row: {
  firstName: string | null;
  lastName: string | null;
  count: number;
  total: number;
  anonymous?: number | boolean;
  hideAmount?: number | boolean;
}): TopDonor {
  return {
    donor: Number(row.anonymous ?? 0) ? 'Anonymous' : displayName(row.firstName, row.lastName),
    count: Number(row.count),
    total: Number(row.hideAmount ?? 0) ? null : Number(row.total),
  };
}
