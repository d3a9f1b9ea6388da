import type Stripe from 'stripe';
import { applyCheckoutDetails } from '../../services/donations/checkout-details';
import {
  attributionExists,
  attributionOfRow,
  fillDonorFromDeclaration,
  notYetApplied,
  parseAttribution,
  type Statement,
  upsertSucceededPayment,
} from '../../services/donations/record';
import { pendingAppealGiftStatement } from '../../services/notifications/fundraiser';
import {
  findGiftsWithReceiptFacts,
  receiptBeforeRecording,
  receiptOutboxStatement,
} from '../../services/mail/receipt-of-payment';
import { logLine } from '../../middlewares/logger';
import { storeSettlement } from '../../services/finance/payouts-fees';
import { isDemoPayment, settlementOfPayment } from '../../services/payments/settlement';
import type { EventHandler } from './types';

/** One-off gifts: only PaymentIntents we created (metadata kind=one_off); invoices' own are skipped. */
export const paymentIntentSucceeded: EventHandler = async ({ db, stripe, mail, afterAnswer }, event) => {
  const intent = event.data.object as Stripe.PaymentIntent;
  const parsed = parseAttribution(intent.metadata, 'one_off');
  if (!parsed || intent.currency !== 'gbp') return 'ignore';
  // The row this payment already has and the row its metadata names, in one read (usually the same
  // row), with what the gift's receipt says about its donor and cause.
  const found = await findGiftsWithReceiptFacts(db, parsed.donationId, intent.id);
  const namedGift = found.find((gift) => gift.row.id === parsed.donationId);
  const paidGift = found.find((gift) => gift.row.paymentIntentId === intent.id);
  const named = namedGift?.row;
  // Metadata copied onto another PaymentIntent names a gift already paid by a different one: never record it twice.
  if (named && named.paymentIntentId !== intent.id) {
    logLine('warn', 'stripe event ignored: another payment names this donation', {
      event_id: event.id,
      payment_intent: intent.id,
    });
    return 'ignore';
  }
  // As resolveAttribution: a stored row keeps its attribution; else the metadata, if its rows exist.
  const storedGift = paidGift ?? namedGift;
  const stored = storedGift?.row;
  const attribution = stored ? attributionOfRow(stored) : (await attributionExists(db, parsed)) ? parsed : null;
  if (!attribution) {
    console.warn(`[stripe] ${event.id}: metadata of ${intent.id} points at rows we do not have; ignored`);
    return 'ignore';
  }
  const guard = notYetApplied(event.id);
  const amount = intent.amount_received || intent.amount;
  // Stripe's fee from the charge's balance transaction, after the answer where there is one (a
  // storm's gifts then share one look-up); the /fees rate in demo mode, in this batch.
  const feeLater = stripe && afterAnswer && !isDemoPayment(intent.id);
  const settlement = feeLater ? null : await settlementOfPayment(stripe, { paymentIntentId: intent.id, amount });
  const writes: Statement[] = [
    upsertSucceededPayment(db, guard, {
      a: attribution,
      paymentIntentId: intent.id,
      amount,
      date: event.created * 1000,
    }),
    ...storeSettlement(db, guard, { paymentIntentId: intent.id }, settlement),
    ...applyCheckoutDetails(db, guard, attribution.donationId, attribution.donorId),
    // The name and address the donor gave for Gift Aid fill their account's blanks.
    ...[fillDonorFromDeclaration(db, guard, attribution)].filter((statement) => statement !== null),
  ];
  // A gift to an appeal is news for its fundraiser, recorded in the same commit.
  if (attribution.appealId) writes.push(pendingAppealGiftStatement(db, attribution.donationId, guard));
  // The receipt's outbox row in the same commit, when it can be rendered from what is known now.
  const message = mail
    ? receiptBeforeRecording(mail, storedGift, {
        paymentIntentId: intent.id,
        amount,
        date: new Date(event.created * 1000),
      })
    : null;
  const gift = {
    donationId: attribution.donationId,
    appealId: attribution.appealId,
    ...(feeLater ? { fee: { paymentIntentId: intent.id, succeededAt: event.created } } : {}),
  };
  if (!message) return { writes, gift };
  const outboxId = crypto.randomUUID();
  const statement = receiptOutboxStatement(db, guard, message, outboxId);
  writes.push(statement);
  return { writes, gift: { ...gift, receipt: { outboxId, message, statement } } };
};
