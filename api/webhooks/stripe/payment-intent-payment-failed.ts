import type Stripe from 'stripe';
import {
  notYetApplied,
  parseAttribution,
  resolveAttribution,
  upsertFailedPayment,
} from '../../services/donations/record';
import type { EventHandler } from './types';

export const paymentIntentPaymentFailed: EventHandler = async ({ db }, event) => {
  const intent = event.data.object as Stripe.PaymentIntent;
  const parsed = parseAttribution(intent.metadata, 'one_off');
  const attribution = parsed && (await resolveAttribution(db, parsed, { paymentIntentId: intent.id }));
  if (!attribution) return 'ignore';
  return [
    upsertFailedPayment(db, notYetApplied(event.id), {
      id: attribution.donationId,
      a: attribution,
      of: { paymentIntentId: intent.id },
      amount: intent.amount,
      date: event.created * 1000,
      message: (intent.last_payment_error?.message ?? 'The payment was not completed.').slice(0, 500),
    }),
  ];
};
