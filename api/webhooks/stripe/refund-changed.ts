import type Stripe from 'stripe';
import { HttpError } from '../../lib/errors';
import { findDonationById, findDonationByPaymentIntent, notYetApplied } from '../../services/donations/record';
import { refundFeeStatements } from '../../services/finance/payouts-fees';
import { providerRefundStatements } from '../../services/reversals/record';
import type { EventHandler } from './types';

/** The gift a refund belongs to: by PaymentIntent, or our metadata's donation id. */
export async function giftOfRefund(db: Parameters<typeof findDonationById>[0], refund: Stripe.Refund) {
  const intentId =
    typeof refund.payment_intent === 'string' ? refund.payment_intent : (refund.payment_intent?.id ?? null);
  return (
    (intentId ? await findDonationByPaymentIntent(db, intentId) : null) ??
    (refund.metadata?.donation_id ? await findDonationById(db, refund.metadata.donation_id) : null)
  );
}

export const refundObjectOf = (refund: Stripe.Refund) => ({
  id: refund.id,
  amount: refund.amount,
  status: refund.status,
  reason: refund.reason,
  balanceTransactionId:
    typeof refund.balance_transaction === 'string'
      ? refund.balance_transaction
      : (refund.balance_transaction?.id ?? null),
  reversalId: refund.metadata?.reversal_id ?? null,
});

/**
 * refund.created / refund.updated (and refund.failed for refunds we hold a row for): one reversal
 * row per re_… id, its status moving forward only, and the gift's refunded amount recomputed.
 */
export const refundChanged: EventHandler = async ({ db, stripe }, event) => {
  const refund = event.data.object as Stripe.Refund;
  if (!refund?.id || !Number.isInteger(refund.amount) || refund.amount <= 0) return 'ignore';
  const gift = await giftOfRefund(db, refund);
  if (!gift) throw new HttpError(503, 'The donation for this refund is not recorded yet; retry later');
  const object = refundObjectOf(refund);
  const guard = notYetApplied(event.id);
  // Its fee, if Stripe kept one, from the refund's balance transaction (after the row's upsert).
  return [
    ...providerRefundStatements(db, guard, gift.id, object),
    ...(await refundFeeStatements(db, stripe, guard, object.id, object.balanceTransactionId)),
  ];
};
