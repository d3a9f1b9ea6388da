import type Stripe from 'stripe';
import { applyCheckoutDetails } from '../../services/donations/checkout-details';
import {
  fillDonorFromDeclaration,
  findDonationById,
  notYetApplied,
  parseAttribution,
  resolveAttribution,
  upsertSucceededPayment,
} from '../../services/donations/record';
import { logLine } from '../../middlewares/logger';
import { storeSettlement } from '../../services/finance/payouts-fees';
import { settlementOfPayment } from '../../services/payments/settlement';
import type { EventHandler } from './types';

/** One-off gifts: only PaymentIntents we created (metadata kind=one_off); invoices' own are skipped. */
export const paymentIntentSucceeded: EventHandler = async ({ db, stripe }, event) => {
  const intent = event.data.object as Stripe.PaymentIntent;
  const parsed = parseAttribution(intent.metadata, 'one_off');
  if (!parsed || intent.currency !== 'gbp') return 'ignore';
  // Metadata copied onto another PaymentIntent names a gift already paid by a different one: never record it twice.
  const named = await findDonationById(db, parsed.donationId);
  if (named && named.paymentIntentId !== intent.id) {
    logLine('warn', 'stripe event ignored: another payment names this donation', {
      event_id: event.id,
      payment_intent: intent.id,
    });
    return 'ignore';
  }
  const attribution = await resolveAttribution(db, parsed, { paymentIntentId: intent.id });
  if (!attribution) {
    console.warn(`[stripe] ${event.id}: metadata of ${intent.id} points at rows we do not have; ignored`);
    return 'ignore';
  }
  const guard = notYetApplied(event.id);
  const amount = intent.amount_received || intent.amount;
  // Stripe's fee from the charge's balance transaction (the /fees rate in demo mode).
  const settlement = await settlementOfPayment(stripe, { paymentIntentId: intent.id, amount });
  return [
    upsertSucceededPayment(db, guard, {
      a: attribution,
      paymentIntentId: intent.id,
      amount,
      date: event.created * 1000,
    }),
    ...storeSettlement(db, guard, { paymentIntentId: intent.id }, settlement),
    ...applyCheckoutDetails(db, guard, attribution.donationId, attribution.donorId),
    // The name and address the donor gave for Gift Aid fill their account's blanks.
    ...[fillDonorFromDeclaration(db, attribution)].filter((statement) => statement !== null),
  ];
};
