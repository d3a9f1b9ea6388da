import type Stripe from 'stripe';
import {
  attributionFromSubscription,
  notYetApplied,
  parseAttribution,
  resolveAttribution,
  upsertPaidInvoice,
  fillDonorFromDeclaration,
} from '../../services/donations/record';
import { applyCheckoutDetails } from '../../services/donations/checkout-details';
import { cancelGiftsOfInactiveMandates, upsertFromPaidInvoice } from '../../services/monthly-gifts/records';
import { storeSettlement } from '../../services/finance/payouts-fees';
import { settlementOfPayment } from '../../services/payments/settlement';
import type { EventHandler } from './types';

export const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** Monthly gifts: one donation per paid invoice of a subscription we created. */
export const invoicePaid: EventHandler = async ({ db, stripe }, event) => {
  const invoice = event.data.object as Stripe.Invoice;
  const details = invoice.parent?.subscription_details;
  const subscriptionId = idOf(details?.subscription);
  if (!invoice.id || !subscriptionId || invoice.amount_paid <= 0 || invoice.currency !== 'gbp') return 'ignore';

  const parsed = parseAttribution(details?.metadata, 'monthly');
  const attribution =
    (await resolveAttribution(db, parsed, { invoiceId: invoice.id })) ??
    (await attributionFromSubscription(db, subscriptionId));
  if (!attribution) return 'ignore';

  const paid = invoice.payments?.data.find((payment) => payment.status === 'paid');
  const first = invoice.billing_reason === 'subscription_create';
  const paidAt = (invoice.status_transitions?.paid_at ?? event.created) * 1000;
  const periodEnd = invoice.lines?.data?.[0]?.period?.end;
  const paymentIntentId = idOf(paid?.payment.payment_intent);
  const settlement = await settlementOfPayment(stripe, {
    paymentIntentId,
    invoiceId: invoice.id,
    amount: invoice.amount_paid,
  });
  return [
    // The monthly gift is running: start its row or move its next payment date (docs/decisions/019).
    upsertFromPaidInvoice(db, notYetApplied(event.id), {
      subscriptionId,
      a: attribution,
      amount: invoice.amount_paid,
      paidAt,
      periodEnd: periodEnd ? periodEnd * 1000 : null,
    }),
    upsertPaidInvoice(db, notYetApplied(event.id), {
      // The first invoice settles the row made when the donor started; later ones are new gifts.
      id: first ? attribution.donationId : crypto.randomUUID(),
      a: attribution,
      invoiceId: invoice.id,
      subscriptionId,
      paymentIntentId,
      amount: invoice.amount_paid,
      date: paidAt,
    }),
    // Stripe's fee from the payment's balance transaction (the /fees rate in demo mode).
    ...storeSettlement(db, notYetApplied(event.id), { paymentIntentId: null, invoiceId: invoice.id }, settlement),
    // The first payment makes the donation box's choices the donor's (once: applied_at).
    ...applyCheckoutDetails(db, notYetApplied(event.id), attribution.donationId, attribution.donorId),
    // The name and address the donor gave for Gift Aid fill their account's blanks.
    ...[fillDonorFromDeclaration(db, notYetApplied(event.id), attribution)].filter((statement) => statement !== null),
    // A Direct Debit cancelled at the bank before this invoice was recorded still stops the gift.
    cancelGiftsOfInactiveMandates(db, notYetApplied(event.id), { subscriptionId }),
  ];
};
