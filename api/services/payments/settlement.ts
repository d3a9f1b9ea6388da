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

/** Demo payments' ids (`pi_demo…`, `in_demo…`): their fee is the /fees rate, never Stripe's. */
export const isDemoPayment = (id: string) => id.includes('_demo');

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
    const charge = charges.data.find((c) => settlementOfCharge(c) !== null);
    return charge ? settlementOfCharge(charge) : null;
  } catch (error) {
    logLine('warn', 'stripe fee lookup failed; the payout will fill it in', {
      payment_intent: paymentIntentId,
      error: errorSummary(error),
    });
    return null;
  }
}

/** A succeeded charge's fee and net, from its expanded balance transaction; null for any other charge. */
function settlementOfCharge(charge: Stripe.Charge): Settlement | null {
  const txn = charge.balance_transaction;
  if (charge.status !== 'succeeded' || !txn || typeof txn === 'string') return null;
  return { fee: txn.fee, net: txn.net, balanceTransactionId: txn.id };
}

/** A PaymentIntent whose fee is wanted, and when Stripe said it succeeded (the event's `created`, Unix seconds). */
export type FeeWanted = { paymentIntentId: string; succeededAt: number };

/** How long before its success a charge may have been made and still be found in the shared list. */
export const FEE_LIST_LOOKBACK_SECONDS = 60;
/** Successes further apart than this from the newest are looked up alone (a retry from long ago). */
export const FEE_LIST_SPAN_SECONDS = 120;
/** Pages of 100 charges one shared look-up reads at most before asking for the rest one at a time. */
export const FEE_LIST_PAGES = 3;

/**
 * Stripe's fees for many PaymentIntents in as few calls as possible: one list of the charges made
 * between the earliest success (less FEE_LIST_LOOKBACK_SECONDS) and the newest, newest first, in
 * pages of 100; a PaymentIntent not found there (a Bacs payment succeeds days after its charge) by
 * the single look-up. One wanted: the single look-up. When Stripe cannot be asked, none: the payouts
 * fill them in later.
 */
export async function stripeSettlements(stripe: Stripe, wanted: FeeWanted[]): Promise<Map<string, Settlement>> {
  const found = new Map<string, Settlement>();
  const newest = Math.max(...wanted.map((w) => w.succeededAt));
  const near = wanted.filter((w) => newest - w.succeededAt <= FEE_LIST_SPAN_SECONDS);
  const ids = new Set(near.map((w) => w.paymentIntentId));
  if (ids.size > 1) {
    const since = Math.min(...near.map((w) => w.succeededAt)) - FEE_LIST_LOOKBACK_SECONDS;
    try {
      let startingAfter: string | undefined;
      for (let page = 0; page < FEE_LIST_PAGES && found.size < ids.size; page++) {
        const charges = await stripe.charges.list({
          created: { gte: since, lte: newest },
          limit: 100,
          expand: ['data.balance_transaction'],
          ...(startingAfter ? { starting_after: startingAfter } : {}),
        });
        for (const charge of charges.data) {
          const intentId =
            typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
          const settlement = settlementOfCharge(charge);
          if (intentId && ids.has(intentId) && settlement && !found.has(intentId)) found.set(intentId, settlement);
        }
        if (!charges.has_more || charges.data.length === 0) break;
        startingAfter = charges.data[charges.data.length - 1].id;
      }
    } catch (error) {
      logLine('warn', 'stripe fee lookup failed; the payouts will fill them in', {
        payment_intents: wanted.length,
        error: errorSummary(error),
      });
      return found;
    }
  }
  for (const paymentIntentId of new Set(wanted.map((w) => w.paymentIntentId))) {
    if (found.has(paymentIntentId)) continue;
    const settlement = await stripeSettlement(stripe, paymentIntentId);
    if (settlement) found.set(paymentIntentId, settlement);
  }
  return found;
}

/**
 * The fee of a paid gift, from wherever its money went: Stripe's balance transaction when there is
 * a Stripe account to ask, the /fees rate for demo payments (ids `pi_demo…`/`in_demo…`), else none.
 */
export async function settlementOfPayment(
  stripe: Stripe | null,
  p: { paymentIntentId: string | null; invoiceId?: string | null; amount: number },
): Promise<Settlement | null> {
  if (isDemoPayment(p.paymentIntentId ?? p.invoiceId ?? '')) return demoSettlement(p.amount);
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
