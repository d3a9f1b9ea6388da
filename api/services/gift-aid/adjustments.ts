import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { donations, giftAidAdjustments, giftAidClaimedGifts, giftAidClaims } from '../../../db/schema';

/**
 * The refund's Gift Aid consequence, one statement for the same batch as the refund (it runs after
 * the refund's update, so it reads the new refunded amount). When the gift was in a claim, the
 * Gift Aid claimed on it less the Gift Aid on what is left, less adjustments already recorded, is
 * over-claimed: it becomes an adjustment that the organization's next claim reports to HMRC.
 * Cumulative, so a replayed or later partial refund adds only the difference. Unclaimed gifts: no row.
 */
export function giftAidRefundAdjustment(db: Db, guard: SQL, donationId: string) {
  const now = Date.now();
  const overClaimed = sql`(${giftAidClaimedGifts.amountPence} / 4)
    - (max(0, min(${giftAidClaimedGifts.amountPence}, ${donations.amount} - ${donations.refundedAmount})) / 4)
    - coalesce((select sum(a.gift_aid_pence) from gift_aid_adjustments a where a.donation_id = ${giftAidClaimedGifts.donationId}), 0)`;
  return db.insert(giftAidAdjustments).select(
    sql`select ${crypto.randomUUID()}, ${giftAidClaimedGifts.donationId}, ${giftAidClaimedGifts.claimId}, ${giftAidClaims.organizationId},
      ${overClaimed}, 'refund', null, ${now}
      from ${giftAidClaimedGifts}
      join ${giftAidClaims} on ${giftAidClaims.id} = ${giftAidClaimedGifts.claimId}
      join ${donations} on ${donations.id} = ${giftAidClaimedGifts.donationId}
      where ${giftAidClaimedGifts.donationId} = ${donationId} and ${guard} and ${overClaimed} > 0`,
  );
}
