import type Stripe from 'stripe';

/**
 * The invoice a PaymentIntent paid, if any: a monthly gift is stored by its invoice, and Stripe
 * links the two only through the invoice payment (refund and dispute events name the intent).
 */
export async function invoiceIdOfPaymentIntent(stripe: Stripe, intentId: string): Promise<string | null> {
  const payments = await stripe.invoicePayments.list({
    payment: { type: 'payment_intent', payment_intent: intentId },
    limit: 1,
  });
  const invoice = payments.data[0]?.invoice;
  return (typeof invoice === 'string' ? invoice : invoice?.id) ?? null;
}
