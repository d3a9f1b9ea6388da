import { eq } from 'drizzle-orm';
import { invoiceIdOfPaymentIntent } from './invoice-of-payment';
import { donationReversals } from '../../../db/schema';
import type Stripe from 'stripe';
import { HttpError } from '../../lib/errors';
import {
  applyRefund,
  attributionExists,
  findDonationByInvoice,
  findDonationByPaymentIntent,
  insertRefundedPayment,
  notYetApplied,
  parseAttribution,
} from '../../services/donations/record';
import { giftAidRefundAdjustment } from '../../services/gift-aid/adjustments';
import { providerRefundStatements } from '../../services/reversals/record';
import { refundObjectOf } from './refund-changed';
import type { EventHandler } from './types';

/**
 * Refunds take the money back out of the totals. The charge's cumulative amount_refunded is
 * stored (never added), so a replay or a later partial refund cannot double count.
 */
export const chargeRefunded: EventHandler = async ({ db, stripe }, event) => {
  const charge = event.data.object as Stripe.Charge;
  const intentId =
    typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null);
  if (!intentId) return 'ignore';
  const guard = notYetApplied(event.id);
  const refund = { chargedAmount: charge.amount, refundedAmount: charge.amount_refunded };
  const asOf = event.created;

  let row = await findDonationByPaymentIntent(db, intentId);
  let metadata = charge.metadata;
  if (!row && stripe) {
    const invoiceId = await invoiceIdOfPaymentIntent(stripe, intentId);
    if (invoiceId) {
      row = await findDonationByInvoice(db, invoiceId);
      if (!row) throw new HttpError(503, 'The monthly gift for this refund is not recorded yet; retry later');
    } else if (!parseAttribution(metadata, 'one_off')) {
      metadata = (await stripe.paymentIntents.retrieve(intentId)).metadata;
    }
  }
  if (row) {
    // Refunds listed on the charge are rows of their own (by re_… id); otherwise, once refund.*
    // events have given the gift its rows, they are the record and this cumulative figure adds nothing.
    const listed = charge.refunds?.data ?? [];
    if (listed.length) return listed.flatMap((r) => providerRefundStatements(db, guard, row.id, refundObjectOf(r)));
    const [held] = await db
      .select({ id: donationReversals.id })
      .from(donationReversals)
      .where(eq(donationReversals.donationId, row.id))
      .limit(1);
    if (held) return 'ignore';
    return [
      applyRefund(db, guard, { donationId: row.id, ...refund, asOf }),
      giftAidRefundAdjustment(db, guard, row.id),
    ];
  }

  const attribution = parseAttribution(metadata, 'one_off');
  if (attribution && (await attributionExists(db, attribution))) {
    return [
      insertRefundedPayment(db, guard, {
        a: attribution,
        paymentIntentId: intentId,
        ...refund,
        date: event.created * 1000,
      }),
    ];
  }
  if (stripe) return 'ignore';
  // Without API access we cannot tell whose charge this is yet: ask Stripe to send it again.
  throw new HttpError(503, 'The donation for this refund is not recorded yet; retry later');
};
