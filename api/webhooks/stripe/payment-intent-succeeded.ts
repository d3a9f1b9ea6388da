import type Stripe from 'stripe';
import { fillDonorFromDeclaration, notYetApplied, parseAttribution, resolveAttribution, upsertSucceededPayment } from '../../services/donations-record';
import type { EventHandler } from './types';

/** One-off gifts: only PaymentIntents we created (metadata kind=one_off); invoices' own are skipped. */
export const paymentIntentSucceeded: EventHandler = async ({ db }, event) => {
  const intent = event.data.object as Stripe.PaymentIntent;
  const parsed = parseAttribution(intent.metadata, 'one_off');
  if (!parsed || intent.currency !== 'gbp') return 'ignore';
  const attribution = await resolveAttribution(db, parsed, { paymentIntentId: intent.id });
  if (!attribution) {
    console.warn(`[stripe] ${event.id}: metadata of ${intent.id} points at rows we do not have; ignored`);
    return 'ignore';
  }
  return [
    upsertSucceededPayment(db, notYetApplied(event.id), {
      a: attribution,
      paymentIntentId: intent.id,
      amount: intent.amount_received || intent.amount,
      date: event.created * 1000,
    }),
    // The name and address the donor gave for Gift Aid fill their account's blanks.
    ...[fillDonorFromDeclaration(db, attribution)].filter((statement) => statement !== null),
  ];
};
