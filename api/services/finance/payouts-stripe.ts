import type Stripe from 'stripe';
import { PAYOUT_STATUSES, type PayoutStatus } from '../../../domain/finance';
import type { PayoutHeader, PayoutLineInput } from './payouts-record';

/** Pages of 100; a payout of more than this many lines is refused rather than read forever. */
const MAX_PAGES = 200;

const intentOf = (source: unknown): string | null => {
  if (!source || typeof source !== 'object') return null;
  const pi = (source as { payment_intent?: unknown }).payment_intent;
  return typeof pi === 'string'
    ? pi
    : pi && typeof pi === 'object' && typeof (pi as { id?: unknown }).id === 'string'
      ? (pi as { id: string }).id
      : null;
};
const sourceIdOf = (source: unknown): string | null =>
  typeof source === 'string'
    ? source
    : source && typeof source === 'object' && typeof (source as { id?: unknown }).id === 'string'
      ? (source as { id: string }).id
      : null;

/** The payout as the event carries it. */
export function payoutHeaderOf(payout: Stripe.Payout, eventCreated: number): PayoutHeader {
  const status = (PAYOUT_STATUSES as readonly string[]).includes(payout.status)
    ? (payout.status as PayoutStatus)
    : 'pending';
  return {
    id: payout.id,
    amount: payout.amount,
    currency: payout.currency ?? 'gbp',
    status,
    arrivalDate: (payout.arrival_date ?? eventCreated) * 1000,
    failureCode: payout.failure_code ?? null,
    failureMessage: payout.failure_message ?? null,
    eventAt: eventCreated,
  };
}

/**
 * Every balance transaction Stripe paid out in this payout (GET /v1/balance_transactions?payout=,
 * followed page by page), with each source expanded so a charge or refund names its PaymentIntent.
 * The payout's own transaction (its money leaving the balance) is left out: what remains adds up
 * to the payout's amount.
 */
export async function stripePayoutLines(stripe: Stripe, payoutId: string): Promise<PayoutLineInput[]> {
  const lines: PayoutLineInput[] = [];
  let startingAfter: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await stripe.balanceTransactions.list({
      payout: payoutId,
      limit: 100,
      expand: ['data.source'],
      ...(startingAfter ? { starting_after: startingAfter } : {}),
    });
    for (const txn of result.data) {
      const sourceId = sourceIdOf(txn.source);
      if (sourceId === payoutId) continue;
      lines.push({
        balanceTransactionId: txn.id,
        type: txn.type,
        sourceId,
        paymentIntentId: intentOf(txn.source),
        amount: txn.amount,
        fee: txn.fee,
        net: txn.net,
        availableOn: txn.available_on ? txn.available_on * 1000 : null,
      });
    }
    if (!result.has_more || !result.data.length) return lines;
    startingAfter = result.data[result.data.length - 1].id;
  }
  throw new Error(`payout ${payoutId} has more than ${MAX_PAGES * 100} balance transactions`);
}
