import type Stripe from 'stripe';
import type { ReversalReason } from '../../../domain/finance';

/**
 * The one call to Stripe for a refund. Stripe's idempotency key is our reversal row's id: a retried
 * request is one refund.
 */
export async function createProviderRefund(
  stripe: Stripe,
  p: { paymentIntentId: string; amount: number; donationId: string; reversalId: string; reason: ReversalReason },
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
    { idempotencyKey: `refund-${p.reversalId}` },
  );
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
