import { sql, type SQL } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import { donationReversals, donations } from '../../../db/schema';
import type { Statement } from '../donations/record';
import { refundFeeOf, type Settlement } from '../payments/settlement';

export type { Settlement } from '../payments/settlement';

/**
 * Stores a settlement on the gift paid by this PaymentIntent (or invoice): in the event's batch
 * after the row's upsert (`guard`: the event's), or alone after it (null). A fee already stored is
 * kept (replays, the fill after recording and the payout agree on it).
 */
export function storeSettlement(
  db: Db,
  guard: SQL | null,
  target: { paymentIntentId: string | null; invoiceId?: string | null },
  s: Settlement | null,
): Statement[] {
  if (!s) return [];
  const where = target.paymentIntentId
    ? sql`${donations.paymentIntentId} = ${target.paymentIntentId}`
    : target.invoiceId
      ? sql`${donations.invoiceId} = ${target.invoiceId}`
      : null;
  if (!where) return [];
  return [
    db
      .update(donations)
      .set({
        feePence: sql`coalesce(${donations.feePence}, ${s.fee})`,
        netPence: sql`coalesce(${donations.netPence}, ${s.net})`,
        balanceTransactionId: sql`coalesce(${donations.balanceTransactionId}, ${s.balanceTransactionId})`,
      })
      .where(guard ? sql`${where} and ${guard}` : where),
  ];
}

/**
 * A refund's balance transaction fee (Stripe returns none on most refunds; some methods charge one),
 * stored on its reversal row when the provider reports one. A failed look-up leaves it for the payout.
 */
export async function refundFeeStatements(
  db: Db,
  stripe: Stripe | null,
  guard: SQL,
  refundId: string,
  balanceTransactionId: string | null,
): Promise<Statement[]> {
  const fee = await refundFeeOf(stripe, refundId, balanceTransactionId);
  if (fee === null) return [];
  return [
    db
      .update(donationReversals)
      .set({ feePence: sql`coalesce(${donationReversals.feePence}, ${fee})` })
      .where(sql`${donationReversals.providerId} = ${refundId} and ${guard}`),
  ];
}
