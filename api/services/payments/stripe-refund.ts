import type Stripe from 'stripe';
import type { ReversalReason } from '../../../domain/finance';

/**
 * The one call to Stripe for a refund. Stripe's idempotency key is our reversal row's id: a retried
 * request is one refund.
 */
export async function createProviderRefund(
  stripe: Stripe,
  p: {
    paymentIntentId: string;
    amount: number;
    donationId: string;
    reversalId: string;
    reason: ReversalReason;
    again?: boolean;
  },
): Promise<Stripe.Refund> {
  const reason =
    p.reason === 'duplicate' || p.reason === 'fraudulent' || p.reason === 'requested_by_customer'
      ? p.reason
      : undefined;
  return stripe.refunds.create(
    {
      payment_intent: p.paymentIntentId,
      amount: p.amount,
      ...(reason ? { reason } : {}),
      metadata: { donation_id: p.donationId, reversal_id: p.reversalId },
    },
    // Asked again once no refund of ours was found: a key of its own, as Stripe replays the first's answer.
    { idempotencyKey: p.again ? `refund-${p.reversalId}-again` : `refund-${p.reversalId}` },
  );
}

/**
 * The refund Stripe made for our reversal row, if it made one: found among the PaymentIntent's
 * refunds by the `reversal_id` we put in its metadata (a gift has a handful of refunds at most).
 */
export async function findProviderRefund(
  stripe: Stripe,
  p: { paymentIntentId: string; reversalId: string },
): Promise<Stripe.Refund | null> {
  const refunds = await stripe.refunds.list({ payment_intent: p.paymentIntentId, limit: 100 });
  return refunds.data.find((refund) => refund.metadata?.reversal_id === p.reversalId) ?? null;
}

/**
 * Stripe answered and made no refund: an invalid request, a card's refusal, a refused key, a rate
 * limit. Anything else (no answer, a timeout, Stripe's own 500) may have made it; the SDK's retries
 * and our idempotency key make asking again safe.
 */
const REFUSALS = new Set([
  'StripeCardError',
  'StripeInvalidRequestError',
  'StripeAuthenticationError',
  'StripePermissionError',
  'StripeRateLimitError',
  'StripeIdempotencyError',
]);
export const stripeRefused = (error: unknown): boolean => REFUSALS.has(String((error as { type?: unknown })?.type));
