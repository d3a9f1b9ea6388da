import { isStandInAddress } from '../../../domain/email';
import { eq } from 'drizzle-orm';
import { pauseSchedule } from '../../../domain';
import type Stripe from 'stripe';
import { donations } from '../../../db/schema';
import { createMailer, type MailMessage } from './mailer';
import { donorContact, findMonthlyGift, type MonthlyGiftRow, snapshotOf } from '../monthly-gifts/records';
import { cancelLinkUrl, updateCardUrl } from '../monthly-gifts/link-tokens';
import { causeLine, causeOf, giftFacts, type MailContext } from './facts';
import { monthlyChangedEmail } from './monthly-changed';
import { receiptEmail } from './receipt';
import { sendDisputeOpened } from './dispute-opened';
import { refundNoticeEmail } from './refund-notice';
import { directDebitFailedEmail, renewalFailedEmail } from './payment-failed';
import { directDebitConfirmationEmail, type MandateBank } from './direct-debit-confirmation';

export type { MailContext };

/** Sends with the message's outbox key, so a message already written is never sent again. */
async function deliver(ctx: MailContext, message: MailMessage | null): Promise<'sent' | 'duplicate' | 'skipped'> {
  // A stand-in address (a paper donor, the collections donor) has no one to read it.
  if (!message || isStandInAddress(message.to)) return 'skipped';
  const result = await createMailer(ctx.db, ctx.config).send(message);
  return result.duplicate ? 'duplicate' : 'sent';
}

/** The receipt of a succeeded gift, at most once per gift (outbox key receipt:<donation id>). */
export async function sendReceipt(ctx: MailContext, donationId: string) {
  const facts = await giftFacts(ctx, donationId);
  if (facts?.status !== 'succeeded' || facts.donor.erased) return 'skipped';
  return deliver(ctx, receiptEmail(facts));
}

export async function sendRefundNotice(ctx: MailContext, donationId: string) {
  const facts = await giftFacts(ctx, donationId);
  if (!facts || facts.refundedAmount <= 0 || facts.donor.erased) return 'skipped';
  return deliver(ctx, refundNoticeEmail(facts));
}

/** A Direct Debit that failed after Bacs took it (not a card decline the donor saw at once): once per gift. */
export async function sendDirectDebitFailed(ctx: MailContext, donationId: string) {
  const facts = await giftFacts(ctx, donationId);
  if (facts?.status !== 'failed' || !facts.directDebit || facts.donor.erased) return 'skipped';
  return deliver(ctx, directDebitFailedEmail(facts));
}

/** The confirmation of a new Direct Debit Instruction, while its first payment is processing: once per gift. */
export async function sendDirectDebitConfirmation(ctx: MailContext, donationId: string, bank: MandateBank) {
  const facts = await giftFacts(ctx, donationId);
  if (facts?.status !== 'processing' || !facts.directDebit || facts.donor.erased) return 'skipped';
  return deliver(ctx, directDebitConfirmationEmail(facts, bank));
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

async function donationBy(ctx: MailContext, column: 'paymentIntentId' | 'invoiceId', value: string | null) {
  if (!value) return null;
  const [row] = await ctx.db
    .select({ id: donations.id, subscriptionId: donations.subscriptionId })
    .from(donations)
    .where(eq(donations[column], value))
    .limit(1);
  return row ?? null;
}

async function monthlyNotice(ctx: MailContext, event: Stripe.Event) {
  const sub = event.data.object as Stripe.Subscription;
  const gift = await findMonthlyGift(ctx.db, sub.id);
  if (!gift) return 'skipped';
  const snap = snapshotOf(sub);
  const deleted = event.type === 'customer.subscription.deleted';
  const previous = ((event.data as { previous_attributes?: Record<string, unknown> }).previous_attributes ??
    {}) as Record<string, unknown>;
  let change: Parameters<typeof monthlyChangedEmail>[0]['change'] | null = null;
  let version = '';
  // Only what the stored row now says is announced: a stale event delivered late stays quiet.
  if (deleted || snap.status === 'cancelled') {
    if (gift.status === 'cancelled') {
      change = { kind: 'cancelled', at: gift.cancelledAt ?? new Date() };
      version = 'final';
    }
  } else if (
    'pause_collection' in previous &&
    snap.status === 'paused' &&
    gift.status === 'paused' &&
    gift.pauseResumesAt
  ) {
    const { skipped, next } = pauseSchedule(gift.startedAt ?? gift.createdAt, gift.pauseResumesAt);
    change = { kind: 'paused', skipped, nextPaymentAt: next };
    version = String(gift.pauseResumesAt.getTime());
  } else if (
    previous.pause_collection &&
    sub.pause_collection == null &&
    snap.status === 'active' &&
    gift.status === 'active'
  ) {
    // A pause ended (the donor resumed, or its date came): announced once per event.
    change = { kind: 'resumed', nextPaymentAt: gift.nextPaymentAt };
    version = event.id;
  } else if (
    'items' in previous &&
    snap.amount !== null &&
    snap.amount === gift.amount &&
    gift.status !== 'cancelled'
  ) {
    change = { kind: 'amount' };
    version = `${gift.amount}:${event.id}`;
  }
  if (!change) return 'skipped';
  const about = await monthlyGiftAudience(ctx, gift);
  if (!about) return 'skipped';
  const { donor, cause } = about;
  return deliver(
    ctx,
    monthlyChangedEmail({
      subscriptionId: gift.id,
      donor,
      charity: cause.charity,
      cause: causeLine(cause),
      amount: gift.amount,
      change,
      version,
      manageUrl: `${ctx.origin}/dashboard/donations/me`,
    }),
  );
}

/** Who hears about a monthly gift and what it supports; null once the donor is erased. */
async function monthlyGiftAudience(ctx: MailContext, gift: MonthlyGiftRow) {
  const donor = await donorContact(ctx.db, gift.donorId);
  if (!donor || donor.erasedAt) return null;
  const cause = await causeOf(ctx, gift.campaignId, gift.appealId);
  return { donor: { email: donor.email, firstName: donor.firstName || null }, cause };
}

async function failedRenewal(ctx: MailContext, invoice: Stripe.Invoice) {
  if (invoice.billing_reason === 'subscription_create' || !invoice.id) return 'skipped';
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
  const gift = subscriptionId ? await findMonthlyGift(ctx.db, subscriptionId) : null;
  if (!gift || gift.status === 'cancelled') return 'skipped';
  const about = await monthlyGiftAudience(ctx, gift);
  if (!about) return 'skipped';
  const { donor, cause } = about;
  return deliver(
    ctx,
    renewalFailedEmail({
      invoiceId: invoice.id,
      donor,
      charity: cause.charity,
      amount: invoice.amount_due,
      cause: causeLine(cause),
      updateCardUrl: await updateCardUrl(ctx.config.authSecret, ctx.origin, gift.id),
      cancelUrl: await cancelLinkUrl(ctx.config.authSecret, ctx.origin, gift.id),
    }),
  );
}

/**
 * What a donor hears after an event was recorded (or found already recorded: a crash between the
 * batch and the mail must not lose the receipt). Each message carries an outbox key, so however
 * many copies of the event arrive, at once or later, each message is written once.
 */
export async function notifyAfterEvent(
  ctx: MailContext,
  event: Stripe.Event,
  /** The gift the event just recorded, when the caller knows it: no read to find it again. */
  recordedDonationId?: string,
): Promise<string> {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const row = recordedDonationId
        ? { id: recordedDonationId }
        : await donationBy(ctx, 'paymentIntentId', (event.data.object as Stripe.PaymentIntent).id);
      return row ? sendReceipt(ctx, row.id) : 'skipped';
    }
    case 'invoice.paid': {
      const row = await donationBy(ctx, 'invoiceId', (event.data.object as Stripe.Invoice).id ?? null);
      return row ? sendReceipt(ctx, row.id) : 'skipped';
    }
    case 'charge.refunded': {
      const row = await donationBy(ctx, 'paymentIntentId', idOf((event.data.object as Stripe.Charge).payment_intent));
      return row ? sendRefundNotice(ctx, row.id) : 'skipped';
    }
    case 'refund.created':
    case 'refund.updated': {
      const refund = event.data.object as Stripe.Refund;
      if (refund.status !== 'succeeded') return 'skipped';
      const row =
        (await donationBy(ctx, 'paymentIntentId', idOf(refund.payment_intent))) ??
        (refund.metadata?.donation_id ? { id: refund.metadata.donation_id } : null);
      return row ? sendRefundNotice(ctx, row.id) : 'skipped';
    }
    case 'payment_intent.payment_failed': {
      const row = await donationBy(ctx, 'paymentIntentId', (event.data.object as Stripe.PaymentIntent).id);
      return row ? sendDirectDebitFailed(ctx, row.id) : 'skipped';
    }
    case 'invoice.payment_failed': {
      const row = await donationBy(ctx, 'invoiceId', (event.data.object as Stripe.Invoice).id ?? null);
      if (row && (await sendDirectDebitFailed(ctx, row.id)) !== 'skipped') return 'sent';
      return failedRenewal(ctx, event.data.object as Stripe.Invoice);
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return monthlyNotice(ctx, event);
    // Only the opening tells the admins; later updates and the close show on the donation's page.
    case 'charge.dispute.created':
      return sendDisputeOpened(ctx, (event.data.object as Stripe.Dispute).id);
    default:
      return 'skipped';
  }
}
