import type { Db } from '../client';
import { giftAidClaims } from '../schema';
import { DAY_MS } from '../../domain/dates';

type ClaimInsert = typeof giftAidClaims.$inferInsert;
export type ClaimFields = Partial<ClaimInsert> & { organizationId: string };

const SIX_YEARS_MS = 6 * 365 * DAY_MS;

/**
 * A submitted Gift Aid claim of one £40 gift (£10 Gift Aid) made today, kept six years, unless `fields`
 * say otherwise. Its claimed gifts are rows of their own (giftAidClaimedGifts).
 */
export function giftAidClaimRow(fields: ClaimFields, now = new Date()): ClaimInsert {
  return {
    charityReference: 'AB12345',
    status: 'submitted',
    earliestDate: now,
    latestDate: now,
    rowCount: 1,
    giftCount: 1,
    totalPence: 4000,
    giftAidPence: 1000,
    accountingPeriodEnd: now,
    retainUntil: new Date(now.getTime() + SIX_YEARS_MS),
    ...fields,
  };
}

export async function createGiftAidClaim(db: Db, fields: ClaimFields) {
  const [row] = await db.insert(giftAidClaims).values(giftAidClaimRow(fields)).returning();
  return row;
}
