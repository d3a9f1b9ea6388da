import { sql, type SQL } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import { donationReversals, donations } from '../../../db/schema';
import { cardFeeOn } from '../../../domain';
import { errorSummary, logLine } from '../../middlewares/logger';
import type { Statement } from '../donations/record';

/** What the provider kept and what reaches the charity for one payment, pence. */
export type Settlement = { fee: number; net: number; balanceTransactionId: string | null };

/** Demo payments: the fee the /fees page states (1.5% + 20p), never more than the gift. */
export function demoSettlement(amount: number): Settlement {
  const fee = Math.min(amount, cardFeeOn(amount));
  return { fee, net: amount - fee, balanceTransactionId: null };
}

/**
 * Stripe's fee and net for a PaymentIntent: its succeeded charge with the balance transaction
 * expanded (one call). null when Stripe has no balance transaction yet or cannot be asked: the
 * gift is recorded anyway and the payout that pays it out fills the fee in later.
 */
export async function stripeSettlement(stripe: Stripe, paymentIntentId: string): Promise<Settlement | null> {
  try {
    const charges = await stripe.charges.list({
      payment_intent: paymentIntentId,
      limit: 10,
      expand: ['data.balance_transaction'],
    });
    const charge = charges.data.find((c) => c.status === 'succeeded' && c.balance_transaction) ?? null;
    const txn = charge?.balance_transaction;
    if (!txn || typeof txn === 'string') return null;
    return { fee: txn.fee, net: txn.net, balanceTransactionId: txn.id };
  } catch (error) {
    logLine('warn', 'stripe fee lookup failed; the payout will fill it in', {
      payment_intent: paymentIntentId,
      error: errorSummary(error),
    });
    return null;
  }
}

/**
 * The fee of a paid gift, from wherever its money went: Stripe's balance transaction when there is
 * a Stripe account to ask, the /fees rate for demo payments (ids `pi_demo…`/`in_demo…`), else none.
 */
export async function settlementOfPayment(
  stripe: Stripe | null,
  p: { paymentIntentId: string | null; invoiceId?: string | null; amount: number },
): Promise<Settlement | null> {
  const demo = (p.paymentIntentId ?? p.invoiceId ?? '').includes('_demo');
  if (demo) return demoSettlement(p.amount);
  if (!stripe || !p.paymentIntentId) return null;
  return stripeSettlement(stripe, p.paymentIntentId);
}

/**
 * Stores a settlement on the gift paid by this PaymentIntent (or invoice), in the event's batch
 * after the row's upsert. A fee already stored is kept (replays and the payout agree on it).
 */
export function storeSettlement(
  db: Db,
  guard: SQL,
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
      .where(sql`${where} and ${guard}`),
  ];
}

/**
 * A refund's balance transaction fee (Stripe returns none on most refunds; some methods charge one),
 * stored on its reversal row when Stripe can be asked. A failed look-up leaves it for the payout.
 */
export async function refundFeeStatements(
  db: Db,
  stripe: Stripe | null,
  guard: SQL,
  refundId: string,
  balanceTransactionId: string | null,
): Promise<Statement[]> {
  if (!stripe || !balanceTransactionId) return [];
  try {
    const txn = await stripe.balanceTransactions.retrieve(balanceTransactionId);
    return [
      db
        .update(donationReversals)
        .set({ feePence: sql`coalesce(${donationReversals.feePence}, ${txn.fee})` })
        .where(sql`${donationReversals.providerId} = ${refundId} and ${guard}`),
    ];
  } catch (error) {
    logLine('warn', 'stripe refund fee lookup failed; the payout will fill it in', {
      refund: refundId,
      error: errorSummary(error),
    });
    return [];
  }
}
