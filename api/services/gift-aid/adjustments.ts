import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { donations, giftAidAdjustments, giftAidClaimedGifts, giftAidClaims } from '../../../db/schema';

/**
 * The Gift Aid consequence of a claimed gift's refunds, one statement for the same batch as the refund
 * or the failed refund (it runs after that update, so it reads the new refunded amount). What should be
 * reported as over-claimed is the Gift Aid claimed on the gift less the Gift Aid on what is left; the
 * difference from the adjustments recorded so far becomes one new row:
 * - positive after a refund (reason `refund`): the organization's next claim reports it to HMRC;
 *   cumulative, so a replayed or later partial refund adds only the difference;
 * - negative after a refund failed (reason `refund_failed`, the bank returned it and the charity kept
 *   the money): it takes back adjustments not yet reported, never more, so a claim's report stands.
 * Gifts never claimed: no row.
 */
export function giftAidRefundAdjustment(db: Db, guard: SQL, donationId: string) {
  const now = Date.now();
  const shouldReport = sql`(${giftAidClaimedGifts.amountPence} / 4)
    - (max(0, min(${giftAidClaimedGifts.amountPence}, ${donations.amount} - ${donations.refundedAmount})) / 4)`;
  const recorded = sql`coalesce((select sum(a.gift_aid_pence) from gift_aid_adjustments a where a.donation_id = ${giftAidClaimedGifts.donationId}), 0)`;
  const unreported = sql`coalesce((select sum(a.gift_aid_pence) from gift_aid_adjustments a
    where a.donation_id = ${giftAidClaimedGifts.donationId} and a.settled_claim_id is null), 0)`;
  const difference = sql`(${shouldReport} - ${recorded})`;
  const change = sql`(case when ${difference} > 0 then ${difference} else max(${difference}, -max(0, ${unreported})) end)`;
  return db.insert(giftAidAdjustments).select(
    sql`select ${crypto.randomUUID()}, ${giftAidClaimedGifts.donationId}, ${giftAidClaimedGifts.claimId}, ${giftAidClaims.organizationId},
      ${change}, case when ${difference} > 0 then 'refund' else 'refund_failed' end, null, ${now}
      from ${giftAidClaimedGifts}
      join ${giftAidClaims} on ${giftAidClaims.id} = ${giftAidClaimedGifts.claimId}
      join ${donations} on ${donations.id} = ${giftAidClaimedGifts.donationId}
      where ${giftAidClaimedGifts.donationId} = ${donationId} and ${guard} and ${change} <> 0`,
  );
}
