import { sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { invoiceRetries } from '../../../db/schema';
import {
  attributionFromSubscription,
  notYetApplied,
  parseAttribution,
  resolveAttribution,
  upsertFailedPayment,
} from '../../services/donations/record';
import { insertNeverStartedGift } from '../../services/monthly-gifts/records';
import { idOf } from './invoice-paid';
import type { EventHandler } from './types';

export const FIRST_INVOICE_FAILED_MESSAGE = 'The first monthly payment did not go through. No money was taken.';
export const RENEWAL_FAILED_MESSAGE = "This month's payment did not go through. No money was taken.";

/**
 * Monthly gifts whose invoice payment failed. The invoice carries no decline reason (that sits on
 * its PaymentIntent), so the row gets a plain message rather than an extra Stripe call.
 */
export const invoicePaymentFailed: EventHandler = async ({ db }, event) => {
  const invoice = event.data.object as Stripe.Invoice;
  const details = invoice.parent?.subscription_details;
  const subscriptionId = idOf(details?.subscription);
  if (!invoice.id || !subscriptionId || invoice.amount_due <= 0 || invoice.currency !== 'gbp') return 'ignore';

  const parsed = parseAttribution(details?.metadata, 'monthly');
  const attribution =
    (await resolveAttribution(db, parsed, { invoiceId: invoice.id })) ??
    (await attributionFromSubscription(db, subscriptionId));
  if (!attribution) return 'ignore';

  const first = invoice.billing_reason === 'subscription_create';
  const retryAt = invoice.next_payment_attempt ? invoice.next_payment_attempt * 1000 : null;
  return [
    upsertFailedPayment(db, notYetApplied(event.id), {
      // Same ids as invoice.paid: a later success for this invoice settles this very row.
      id: first ? attribution.donationId : crypto.randomUUID(),
      a: attribution,
      of: { invoiceId: invoice.id, subscriptionId },
      amount: invoice.amount_due,
      date: event.created * 1000,
      message: first ? FIRST_INVOICE_FAILED_MESSAGE : RENEWAL_FAILED_MESSAGE,
    }),
    // A first Direct Debit that failed: the gift never started, but the office's queue lists it.
    ...(first
      ? [
          insertNeverStartedGift(db, notYetApplied(event.id), {
            subscriptionId,
            a: attribution,
            amount: invoice.amount_due,
          }),
        ]
      : []),
    // When Stripe tries again (the office's failed-payments queue); an older failure changes nothing.
    db
      .insert(invoiceRetries)
      .select(
        sql`select ${invoice.id}, ${subscriptionId}, ${retryAt}, ${event.created} where ${notYetApplied(event.id)}`,
      )
      .onConflictDoUpdate({
        target: invoiceRetries.invoiceId,
        set: {
          retryAt: sql`case when excluded.as_of >= ${invoiceRetries.asOf} then excluded.retry_at else ${invoiceRetries.retryAt} end`,
          asOf: sql`max(${invoiceRetries.asOf}, excluded.as_of)`,
        },
      }),
  ];
};
