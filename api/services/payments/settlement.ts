import type Stripe from 'stripe';
import { cardFeeOn } from '../../../domain';
import { errorSummary, logLine } from '../../middlewares/logger';

/**
 * Where a payment's fee comes from: Stripe's balance transactions when there is a Stripe account to
 * ask, the /fees rate for demo payments. Decided from the payment's own ids, so a demo gift on a
 * Stripe server keeps its demo fee.
 */

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

/** A refund's fee from its balance transaction; null when there is none or Stripe cannot be asked. */
export async function refundFeeOf(
  stripe: Stripe | null,
  refundId: string,
  balanceTransactionId: string | null,
): Promise<number | null> {
  if (!stripe || !balanceTransactionId) return null;
  try {
    const txn = await stripe.balanceTransactions.retrieve(balanceTransactionId);
    return txn.fee;
  } catch (error) {
    logLine('warn', 'stripe refund fee lookup failed; the payout will fill it in', {
      refund: refundId,
      error: errorSummary(error),
    });
    return null;
  }
}
