import { and, desc, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { donations, supportMessages, users } from '../../db/schema';

export const TOP_DONORS_LIMIT = 10;

export type TopDonor = {
  /** Public display name, "First L.", or "Anonymous" when the donor gave anonymously; never an email. */
  donor: string;
  count: number;
  /** Pence. */
  total: number;
};

/** "Amira Khan" → "Amira K."; a donor with no name on file shows as "Anonymous". */
export function displayName(firstName: string | null, lastName: string | null): string {
  const first = (firstName ?? '').trim();
  const initial = (lastName ?? '').trim().charAt(0).toUpperCase();
  if (!first) return initial ? `${initial}.` : 'Anonymous';
  return initial ? `${first} ${initial}.` : first;
}

/**
 * The leaderboard for one campaign (its own gifts and its appeals') or one appeal: succeeded
 * donations grouped by donor, largest total first. The caller checks the item is visible.
 */
export async function topDonors(
  db: Db,
  target: { campaignId: string } | { appealId: string },
  limit = TOP_DONORS_LIMIT,
): Promise<TopDonor[]> {
  const scope = 'campaignId' in target ? eq(donations.campaignId, target.campaignId) : eq(donations.appealId, target.appealId);
  const total = sql<number>`sum(${donations.amount} - ${donations.refundedAmount})`;
  const rows = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      count: sql<number>`count(*)`,
      total,
      // "Give anonymously" on any of these gifts hides the name (and a monthly gift's renewals follow its first).
      anonymous: sql<number>`max(coalesce(${supportMessages.anonymous}, 0))`,
    })
    .from(donations)
    .innerJoin(users, eq(users.id, donations.donorId))
    .leftJoin(supportMessages, eq(supportMessages.donationId, donations.id))
    .where(and(scope, eq(donations.status, 'succeeded')))
    .groupBy(donations.donorId)
    .orderBy(desc(total), desc(sql`count(*)`), asc(users.firstName), asc(donations.donorId))
    .limit(Math.min(Math.max(limit, 1), TOP_DONORS_LIMIT));
  return rows.map((row) => ({
    donor: Number(row.anonymous) ? 'Anonymous' : displayName(row.firstName, row.lastName),
    count: Number(row.count),
    total: Number(row.total),
  }));
}
