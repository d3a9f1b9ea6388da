import type Stripe from 'stripe';
import { eventApplied, eventMarked, markEventApplied, type Statement } from '../../services/donations/record';
import { notifyAfterEvent } from '../../services/mail/notify';
import { type ReceiptInBatch, receiptWritten, transmitReceipt } from '../../services/mail/receipt-of-payment';
import { createMailer, logMailFailure } from '../../services/mail/mailer';
import { donationIdOfEvent, notifyAfterGift, notifyAppealAfterGifts } from '../../services/notifications/fundraiser';
import { chargeDispute } from './charge-dispute';
import { chargeRefunded } from './charge-refunded';
import { customerSubscriptionChanged } from './customer-subscription';
import { invoicePaid } from './invoice-paid';
import { invoicePaymentFailed } from './invoice-payment-failed';
import { paymentIntentPaymentFailed } from './payment-intent-payment-failed';
import { paymentIntentProcessing } from './payment-intent-processing';
import { paymentIntentSucceeded } from './payment-intent-succeeded';
import { refundChanged } from './refund-changed';
import { mandateUpdated } from './mandate-updated';
import { refundFailed } from './refund-failed';
import { payoutChanged } from './payout-changed';
import { logLine } from '../../middlewares/logger';
import { stopSubscriptionsCancelledAtBank } from '../../services/payments/direct-debit';
import { malformedEventReason } from './shape';
import { fillStripeFee } from '../../services/finance/fees-after-recording';
import type { FeeWanted } from '../../services/payments/settlement';
import type { MailContext } from '../../services/mail/facts';
import type { PaymentProvider } from '../../services/payments/provider';
import type { EventHandler, RecordedGift, WebhookContext } from './types';

/** The events we act on; every other type is acknowledged with 200 so Stripe stops sending it. */
export const STRIPE_EVENT_HANDLERS: Record<string, EventHandler> = {
  'payment_intent.succeeded': paymentIntentSucceeded,
  'payment_intent.payment_failed': paymentIntentPaymentFailed,
  // Bacs Direct Debit: submitted, not yet settled; and the mandate cancelled at the bank.
  'payment_intent.processing': paymentIntentProcessing,
  'mandate.updated': mandateUpdated,
  'invoice.paid': invoicePaid,
  'invoice.payment_failed': invoicePaymentFailed,
  'charge.refunded': chargeRefunded,
  'charge.dispute.created': chargeDispute,
  'charge.dispute.updated': chargeDispute,
  'charge.dispute.closed': chargeDispute,
  'refund.created': refundChanged,
  'refund.updated': refundChanged,
  'refund.failed': refundFailed,
  // Monthly gifts a donor controls: amount, pause and cancellation as Stripe holds them.
  'customer.subscription.updated': customerSubscriptionChanged,
  'customer.subscription.deleted': customerSubscriptionChanged,
  // Transfers to the charity's bank, with the balance transactions each one paid out.
  'payout.paid': payoutChanged,
  'payout.failed': payoutChanged,
};

export type EventOutcome = 'recorded' | 'duplicate' | 'ignored';

/**
 * Events whose handler only reads before its batch, and whose every write is guarded by "event id
 * not stored yet": a repeat is known by the batch's own mark instead of a look-up first. A paid
 * gift is most of a telethon's deliveries, and that look-up was one of its three calls to the
 * database before the answer (docs/decisions/041). A repeat costs the handler's read instead.
 */
const GUARDED_BY_THEIR_BATCH = new Set(['payment_intent.succeeded']);

/**
 * Applies one verified event exactly once: its writes and the event id go in one batch, and each
 * write is guarded by "event id not stored yet", so a replay or a concurrent copy changes nothing.
 * Demo confirmations call this too (api/services/donations/checkout.ts), so both paths record gifts identically.
 */
export async function applyStripeEvent(ctx: WebhookContext, event: Stripe.Event): Promise<EventOutcome> {
  // A correctly signed event with a malformed body (data: null, ids as objects) is acknowledged
  // and logged, never a 500 that Stripe would retry forever.
  const malformed = malformedEventReason(event);
  if (malformed) {
    const eventId = typeof (event as { id?: unknown })?.id === 'string' ? event.id : null;
    logLine('warn', 'stripe event ignored: malformed', { event_id: eventId, reason: malformed.slice(0, 200) });
    return 'ignored';
  }
  const handler = STRIPE_EVENT_HANDLERS[event.type];
  if (!handler) return 'ignored';
  const checkedFirst = !GUARDED_BY_THEIR_BATCH.has(event.type);
  if (checkedFirst && (await eventApplied(ctx.db, event.id))) return answerDuplicate(ctx, event);
  const handled = await handler(ctx, event);
  if (handled === 'ignore')
    return !checkedFirst && (await eventApplied(ctx.db, event.id)) ? answerDuplicate(ctx, event) : 'ignored';
  const { writes, gift } = Array.isArray(handled) ? { writes: handled, gift: undefined } : handled;
  const statements: Statement[] = [...writes, markEventApplied(ctx.db, event.id, event.type)];
  const results: unknown[] = await ctx.db.batch(statements as [Statement, ...Statement[]]);
  // A copy delivered at the same moment passed the check above too; its guarded batch changed
  // nothing, and the copy that stored the id does the rest (fee, receipt, notices).
  if (!eventMarked(results.at(-1))) return answerDuplicate(ctx, event);
  await stopSubscriptionsCancelledAtBank(ctx, event);
  await fillFeeAfter(ctx, gift?.fee);
  const receipt = gift?.receipt;
  // A receipt the batch was to write is this delivery's to send only if the batch wrote it (a
  // concurrent copy of the event, or a receipt already written, leaves it to whoever did).
  const receiptToSend = receipt && receiptWritten(results[statements.indexOf(receipt.statement)]) ? receipt : null;
  await notifyAfter(ctx, event, gift, receiptToSend);
  return 'recorded';
}

/** An event already applied. A retry after a crash between the batch and the mail still sends it; outbox keys stop repeats. */
async function answerDuplicate(ctx: WebhookContext, event: Stripe.Event): Promise<EventOutcome> {
  await stopSubscriptionsCancelledAtBank(ctx, event);
  await notifyAfter(ctx, event);
  return 'duplicate';
}

/** Stripe's fee of the gift just recorded, looked up with other gifts' after the answer. */
async function fillFeeAfter(ctx: WebhookContext, fee: FeeWanted | undefined) {
  const { afterAnswer, stripe, db } = ctx;
  if (!fee || !afterAnswer || !stripe) return;
  await afterAnswer(() => fillStripeFee(db, stripe, fee, { gather: afterAnswer.deferred }));
}

/**
 * The email follows the answer where the runtime allows (a webhook in the worker): rendering and
 * storing a receipt then no longer holds the webhook's turn (api/lib/in-turn.ts) or its answer.
 * The gift and its fundraiser's pending notice are already committed with the event id, and a
 * replay sends what is missing (outbox keys stop repeats), so nothing depends on the email's timing.
 */
async function notifyAfter(
  ctx: WebhookContext,
  event: Stripe.Event,
  gift?: RecordedGift['gift'],
  receiptToSend?: ReceiptInBatch | null,
) {
  if (!ctx.mail) return;
  const work = () => notify(ctx, event, gift, receiptToSend);
  if (ctx.afterAnswer) await ctx.afterAnswer(work);
  else await work();
}

/**
 * Receipts and notices never fail the webhook: the gift is recorded; a lost email is logged.
 * `gift`: what the batch just recorded (its fundraiser's pending gift included), when the handler said.
 */
async function notify(
  ctx: WebhookContext,
  event: Stripe.Event,
  gift?: RecordedGift['gift'],
  receiptToSend?: ReceiptInBatch | null,
) {
  const mail = ctx.mail;
  if (!mail) return;
  try {
    // The batch wrote the receipt's row (or another delivery did): send it, or nothing; other events notify as usual.
    if (receiptToSend) await transmitReceipt(mail, receiptToSend, { gather: ctx.afterAnswer?.deferred });
    else if (!gift?.receipt) await notifyAfterEvent(mail, event, gift?.donationId);
  } catch (err) {
    logMailFailure('notification after a Stripe event failed', err, { event_type: event.type, event_id: event.id });
  }
  // A paid gift to an appeal may email its fundraiser (batched, at most one an hour).
  const mailer = () => createMailer(ctx.db, mail.config);
  if (gift) {
    if (gift.appealId) {
      await notifyAppealAfterGifts(ctx.db, mailer(), gift.appealId, {
        origin: mail.origin,
        gather: ctx.afterAnswer?.deferred,
      });
    }
    return;
  }
  const donationId = await donationIdOfEvent(ctx.db, event).catch(() => null);
  if (donationId) await notifyAfterGift(ctx.db, mailer(), donationId, { origin: mail.origin });
}

/**
 * An event our own payment provider produced (a demo payment, or Stripe's answer to our request),
 * recorded as its webhook would be; nothing further is asked of the provider.
 */
export function applyProviderEvent(
  ctx: { db: WebhookContext['db']; payments: PaymentProvider; mail?: MailContext },
  event: Stripe.Event,
): Promise<EventOutcome> {
  return applyStripeEvent({ db: ctx.db, stripe: ctx.payments.api, mail: ctx.mail }, event);
}
