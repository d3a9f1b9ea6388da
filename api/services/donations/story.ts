import { desc, eq, sql } from 'drizzle-orm';
import {
  donationDisputes,
  donationReversals,
  donations,
  giftAidAdjustments,
  giftAidClaimedGifts,
  giftAidClaims,
  giftAidDeclarations,
  outbox,
} from '../../../db/schema';
import { editsContent } from '../../../domain/roles';
import type { DonationStoryDto } from '../../schemas/donation-story';
import { historyOf } from '../audit/list';
import { getDonation, paidBy } from './list';
import { loadGiftInScope, toReversalDto } from '../reversals/refund';
import { remainingSql } from '../reversals/record';
import type { ViewerContext } from '../../lib/service-context';
import { isoOrNull } from '../../../domain/dates';

/**
 * Everything a finance person asks about one gift, read in one place: how it was paid, its Gift Aid
 * (declaration and claim), the money that went back (reversals, disputes), the receipt, its audit
 * history, and the actions that are honest for it.
 */
export async function donationStory(ctx: ViewerContext, idParam: string): Promise<DonationStoryDto> {
  const { db, viewer } = ctx;
  const { gift } = await loadGiftInScope(ctx, idParam);
  const [donation, reversals, disputes, [claimed], [declaration], [adjusted], [receipt], [left]] = await Promise.all([
    getDonation(ctx, gift.id),
    db
      .select()
      .from(donationReversals)
      .where(eq(donationReversals.donationId, gift.id))
      .orderBy(donationReversals.createdAt),
    db
      .select()
      .from(donationDisputes)
      .where(eq(donationDisputes.donationId, gift.id))
      .orderBy(donationDisputes.createdAt),
    db
      .select({
        id: giftAidClaims.id,
        status: giftAidClaims.status,
        hmrcReference: giftAidClaims.hmrcReference,
        amount: giftAidClaimedGifts.amountPence,
      })
      .from(giftAidClaimedGifts)
      .innerJoin(giftAidClaims, eq(giftAidClaims.id, giftAidClaimedGifts.claimId))
      .where(eq(giftAidClaimedGifts.donationId, gift.id))
      .limit(1),
    gift.giftAidDeclarationId
      ? db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, gift.giftAidDeclarationId)).limit(1)
      : Promise.resolve([] as (typeof giftAidDeclarations.$inferSelect)[]),
    db
      .select({ n: sql<number>`coalesce(sum(${giftAidAdjustments.giftAidPence}), 0)` })
      .from(giftAidAdjustments)
      .where(eq(giftAidAdjustments.donationId, gift.id)),
    db
      .select({ at: outbox.createdAt })
      .from(outbox)
      .where(eq(outbox.key, `receipt:${gift.id}`))
      .orderBy(desc(outbox.createdAt))
      .limit(1),
    db
      .select({ n: sql<number>`${remainingSql(gift.id)}` })
      .from(donations)
      .where(eq(donations.id, gift.id)),
  ]);
  const history = await historyOf(db, [gift.id, ...reversals.map((r) => r.id), ...disputes.map((d) => d.id)]);
  const remaining = Math.max(0, Number(left?.n ?? 0));
  const paid = gift.status === 'succeeded' || gift.status === 'refunded';
  const offline = gift.source === 'manual' || gift.source === 'batch';
  const actions: DonationStoryDto['actions'] = [];
  // A gift in a posted batch is corrected with new rows (a reversal, a new batch line), never in place.
  if (gift.source === 'manual' && !claimed && !reversals.length && editsContent(viewer)) actions.push('edit');
  if (paid && remaining > 0) actions.push('refund');
  return {
    donation,
    payment_method: paidBy(gift),
    batch_id: gift.batchId,
    reference: gift.paymentIntentId ?? gift.invoiceId ?? gift.reference ?? null,
    fee_pence: gift.feePence,
    net_pence: gift.netPence,
    remaining_pence: remaining,
    receipt_sent_at: isoOrNull(gift.receiptSentAt ?? receipt?.at ?? null),
    gift_aid: {
      requested: gift.giftAid,
      declaration: declaration
        ? {
            _id: declaration.id,
            method: declaration.method,
            declared_at: declaration.declaredAt.toISOString(),
            cancelled_at: isoOrNull(declaration.cancelledAt),
          }
        : null,
      claim: claimed
        ? {
            _id: claimed.id,
            status: claimed.status,
            hmrc_reference: claimed.hmrcReference,
            amount_pence: claimed.amount,
          }
        : null,
      adjustments_pence: Number(adjusted?.n ?? 0),
    },
    reversals: reversals.map(toReversalDto),
    disputes: disputes.map((d) => ({
      _id: d.id,
      provider_id: d.providerId,
      amount: d.amount,
      reason: d.reason,
      status: d.status,
      fee_pence: d.feePence,
      evidence_due_by: isoOrNull(d.evidenceDueBy),
      outcome: d.outcome,
      created_at: d.createdAt.toISOString(),
      closed_at: isoOrNull(d.closedAt),
    })),
    history,
    actions,
  };
}
