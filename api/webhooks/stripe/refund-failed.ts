import { eq, or } from 'drizzle-orm';
import { invoiceIdOfPaymentIntent } from './invoice-of-payment';
import { donationReversals } from '../../../db/schema';
import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import { HttpError } from '../../lib/errors';
import {
  attributionExists,
  findDonationByInvoice,
  findDonationByPaymentIntent,
  notYetApplied,
  parseAttribution,
  revertFailedRefund,
} from '../../services/donations/record';
import { logLine } from '../../middlewares/logger';
import { giftAidRefundAdjustment } from '../../services/gift-aid/adjustments';
import { refundChanged } from './refund-changed';
import type { EventHandler } from './types';

async function hasReversalFor(db: Parameters<EventHandler>[0]['db'], refund: Stripe.Refund): Promise<boolean> {
  const [row] = await db
    .select({ id: donationReversals.id })
    .from(donationReversals)
    .where(
      or(
        eq(donationReversals.providerId, refund.id),
        refund.metadata?.reversal_id ? eq(donationReversals.id, refund.metadata.reversal_id) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

/**
 * A refund that failed (the bank returned it): Stripe lowers the charge's amount_refunded again, so
 * the gift's refunded amount and the totals follow. An older charge.refunded delivered
 * later cannot raise it back (refunds_as_of, api/services/donations/record.ts). A claimed gift's Gift Aid
 * adjustment not yet reported to HMRC is taken back in the same batch.
 */
export const refundFailed: EventHandler = async (ctx, event) => {
  const { db, stripe } = ctx;
  const refund = event.data.object as Stripe.Refund;
  // A refund we hold a row for (asked for from the dashboard, or reported by refund.created): that row fails.
  if (refund?.id && (await hasReversalFor(db, refund))) return refundChanged(ctx, event);
  const intentId =
    typeof refund.payment_intent === 'string' ? refund.payment_intent : (refund.payment_intent?.id ?? null);
  if (!intentId || !refund.amount) return 'ignore';
  let row = await findDonationByPaymentIntent(db, intentId);
  let ours = false;
  if (!row && stripe) {
    const invoiceId = await invoiceIdOfPaymentIntent(stripe, intentId);
    if (invoiceId) {
      row = await findDonationByInvoice(db, invoiceId);
      ours = true;
    } else {
      ours = await isOurPayment(stripe, db, intentId);
    }
  }
  if (!row) {
    // The refund it reverses was applied to a gift we record: until that gift is here, ask Stripe to retry.
    if (ours) throw new HttpError(503, 'The donation for this failed refund is not recorded yet; retry later');
    // A payment the app did not create (or, without API access, cannot know): nothing of ours to revert.
    logLine('warn', 'stripe event ignored: failed refund of a payment we did not record', {
      event_id: event.id,
      payment_intent: intentId,
    });
    return 'ignore';
  }
  const guard = notYetApplied(event.id);
  return [
    revertFailedRefund(db, guard, { donationId: row.id, amount: refund.amount, asOf: event.created }),
    giftAidRefundAdjustment(db, guard, row.id),
  ];
};

/** Whether a one-off PaymentIntent carries our metadata for rows we have (a missing intent is not ours). */
async function isOurPayment(stripe: Stripe, db: Db, intentId: string): Promise<boolean> {
  let metadata: Stripe.Metadata;
  try {
    metadata = (await stripe.paymentIntents.retrieve(intentId)).metadata;
  } catch (error) {
    if ((error as { code?: string })?.code === 'resource_missing') return false;
    throw error;
  }
  const attribution = parseAttribution(metadata, 'one_off');
  return attribution !== null && (await attributionExists(db, attribution));
}
