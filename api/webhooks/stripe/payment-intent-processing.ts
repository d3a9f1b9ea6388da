import type Stripe from 'stripe';
import { logLine } from '../../middlewares/logger';
import { bacsDetailsOf, upsertMandate } from '../../services/payments/direct-debit';
import {
  attributionExists,
  attributionOfRow,
  findDonationByPaymentIntent,
  notYetApplied,
  type Statement,
  parseAttribution,
  upsertProcessingPayment,
} from '../../services/donations/record';
import type { EventHandler } from './types';

/**
 * A Direct Debit submitted to Bacs: the gift is `processing` (outside totals, receipts and Gift Aid)
 * until payment_intent.succeeded / invoice.paid or a failure settles it, about 3 Bacs working days later
 * (`firstCollectionDate`, domain/working-days.ts: weekends and England and Wales bank holidays skipped).
 * A first monthly payment is found by its PaymentIntent, stored when the donor started.
 */
export const paymentIntentProcessing: EventHandler = async ({ db, stripe }, event) => {
  const intent = event.data.object as Stripe.PaymentIntent;
  if (intent.currency !== 'gbp') return 'ignore';
  const row = await findDonationByPaymentIntent(db, intent.id);
  const parsed = row ? null : parseAttribution(intent.metadata, 'one_off');
  const attribution = row ? attributionOfRow(row) : parsed && (await attributionExists(db, parsed)) ? parsed : null;
  if (!attribution) {
    logLine('warn', 'stripe event ignored: no gift for this payment', {
      event_id: event.id,
      payment_intent: intent.id,
    });
    return 'ignore';
  }
  const bacs = await bacsDetailsOf(stripe, intent);
  if (!bacs) return 'ignore';
  const guard = notYetApplied(event.id);
  const writes: Statement[] = [
    upsertProcessingPayment(db, guard, {
      a: attribution,
      type: row?.type ?? 'once',
      paymentIntentId: intent.id,
      invoiceId: row?.invoiceId ?? null,
      subscriptionId: row?.subscriptionId ?? null,
      amount: intent.amount,
      date: event.created * 1000,
      bacs,
    }),
  ];
  if (bacs.mandateId) {
    writes.push(
      upsertMandate(db, guard, {
        id: bacs.mandateId,
        reference: bacs.reference,
        status: bacs.status,
        donorId: attribution.donorId,
        last4: bacs.last4,
        asOf: event.created,
      }),
    );
  }
  return writes;
};
