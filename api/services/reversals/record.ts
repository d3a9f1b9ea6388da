import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { donationReversals, donations } from '../../../db/schema';
import type { ReversalKind, ReversalReason, ReversalStatus } from '../../../domain/finance';
import { giftAidRefundAdjustment } from '../gift-aid/adjustments';
import type { Statement } from '../donations/record';

/**
 * The one recording path for money going back off a gift (docs/decisions/031 and 033): a reversal
 * row, then the gift's refunded_amount recomputed as the sum of its succeeded rows, then the Gift
 * Aid adjustment if the gift was claimed; all in the caller's batch.
 */

/**
 * What can still be taken back: the gift less what is refunded (its succeeded rows, or a refund
 * figure Stripe reported before any row existed) and less refunds still in flight (pending rows).
 */
export const remainingSql = (donationId: string): SQL =>
  sql`(select d.amount - max(d.refunded_amount, coalesce((select sum(r.amount) from donation_reversals r
    where r.donation_id = d.id and r.status = 'succeeded'), 0)) - coalesce((select sum(r.amount) from donation_reversals r
    where r.donation_id = d.id and r.status = 'pending'), 0) from donations d where d.id = ${donationId})`;

export type NewReversal = {
  id: string;
  donationId: string;
  kind: ReversalKind;
  amount: number;
  reason: ReversalReason;
  note: string | null;
  status: ReversalStatus;
  idempotencyKey: string | null;
  createdBy: string | null;
};

/**
 * The reversal row, inserted only if it fits in what remains: two concurrent refunds of one gift
 * cannot both pass, because each insert re-reads the sum inside its own statement.
 * Columns in db/schema/finance.ts order.
 */
export function guardedReversalInsert(db: Db, r: NewReversal, now = Date.now()) {
  return db
    .insert(donationReversals)
    .select(sql`select ${r.id}, ${r.donationId}, ${r.kind}, ${r.amount}, ${r.reason}, ${r.note},
    ${r.status}, null, ${r.idempotencyKey}, null, null, null, ${r.createdBy}, ${now},
    ${r.status === 'succeeded' ? now : null}, ${now}, null
    where ${r.amount} > 0 and ${r.amount} <= ${remainingSql(r.donationId)}`);
}

/**
 * refunded_amount = the sum of the gift's succeeded reversal rows (the totals' triggers read it);
 * fully refunded gifts become `refunded`, and back to `succeeded` if a refund later fails.
 */
export function syncRefundedAmount(db: Db, donationId: string, guard: SQL = sql`1`) {
  const sum = sql`(select coalesce(sum(r.amount), 0) from donation_reversals r where r.donation_id = ${donationId} and r.status = 'succeeded')`;
  return db
    .update(donations)
    .set({
      refundedAmount: sql`min(${donations.amount}, ${sum})`,
      status: sql`case when ${sum} >= ${donations.amount} and ${donations.status} in ('succeeded', 'refunded') then 'refunded'
        when ${donations.status} = 'refunded' and ${sum} < ${donations.amount} then 'succeeded' else ${donations.status} end`,
      updatedAt: new Date(),
    })
    .where(and(eq(donations.id, donationId), guard));
}

/** The statements that settle a gift after its reversal rows changed. */
export function afterReversal(db: Db, donationId: string, guard: SQL = sql`1`): Statement[] {
  return [syncRefundedAmount(db, donationId, guard), giftAidRefundAdjustment(db, guard, donationId)];
}

/** Stripe's refund statuses as ours; `requires_action` waits like `pending`. */
export function reversalStatusOf(stripeStatus: string | null | undefined): ReversalStatus {
  if (stripeStatus === 'succeeded') return 'succeeded';
  if (stripeStatus === 'failed') return 'failed';
  if (stripeStatus === 'canceled') return 'cancelled';
  return 'pending';
}

/** Statuses only move forward (pending, then succeeded, then failed or cancelled), whatever order events arrive in. */
const rank = (status: SQL | string) => sql`(case ${status} when 'pending' then 0 when 'succeeded' then 1 else 2 end)`;

export type ProviderRefund = {
  id: string;
  amount: number;
  status: string | null | undefined;
  reason: string | null | undefined;
  balanceTransactionId: string | null;
  /** Our reversal row, when the refund was asked for from the dashboard (its metadata). */
  reversalId: string | null;
};

const CARD_REASONS = new Set(['requested_by_customer', 'duplicate', 'fraudulent']);

/**
 * A Stripe refund applied to its gift exactly once per state: the dashboard's pending row (found by
 * the metadata's reversal id) takes the re_… id, then one upsert by provider id moves its status
 * forward only, so duplicates and reordered refund.created / refund.updated / charge.refunded /
 * refund.failed end in the same row.
 */
export function providerRefundStatements(
  db: Db,
  guard: SQL,
  donationId: string,
  refund: ProviderRefund,
  now = Date.now(),
): Statement[] {
  const status = reversalStatusOf(refund.status);
  const reason = CARD_REASONS.has(refund.reason ?? '') ? refund.reason! : 'other';
  const claim = refund.reversalId
    ? [
        db
          .update(donationReversals)
          .set({ providerId: refund.id, updatedAt: new Date(now) })
          .where(
            and(
              eq(donationReversals.id, refund.reversalId),
              eq(donationReversals.donationId, donationId),
              sql`${donationReversals.providerId} is null`,
              sql`not exists (select 1 from donation_reversals x where x.provider_id = ${refund.id})`,
              guard,
            ),
          ),
      ]
    : [];
  const upsert = db
    .insert(donationReversals)
    .select(
      sql`select ${crypto.randomUUID()}, ${donationId}, 'refund', ${refund.amount}, ${reason}, null, ${status}, ${refund.id}, null,
        ${refund.balanceTransactionId}, null, null, null, ${now}, ${status === 'succeeded' ? now : null}, ${now},
        ${status === 'failed' || status === 'cancelled' ? now : null} where ${guard}`,
    )
    .onConflictDoUpdate({
      target: donationReversals.providerId,
      set: {
        status: sql`case when ${rank(sql`excluded.status`)} >= ${rank(sql`${donationReversals.status}`)} then excluded.status else ${donationReversals.status} end`,
        amount: sql`excluded.amount`,
        balanceTransactionId: sql`coalesce(excluded.balance_transaction_id, ${donationReversals.balanceTransactionId})`,
        succeededAt: sql`coalesce(${donationReversals.succeededAt}, excluded.succeeded_at)`,
        // The first time it is known failed (an older event cannot undo it: statuses only move forward).
        failedAt: sql`coalesce(${donationReversals.failedAt}, case when ${rank(sql`excluded.status`)} = 2 then excluded.updated_at end)`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
  return [...claim, upsert, ...afterReversal(db, donationId, guard)];
}
