import type Stripe from 'stripe';
import type { donations } from '../../../db/schema';
import { addMonths } from '../../../domain/dates';
import type { ReversalReason } from '../../../domain/finance';
import type { MonthlyGiftRow } from '../monthly-gifts/records';
import { intentIdFromClientSecret } from './stripe-client';
import { constantTimeEqual } from '../auth/login-codes';
import {
  cardDeclined,
  invoiceObject,
  paymentIntentObject,
  refundReplyEvent,
  stripeEvent,
  subscriptionObject,
} from './stripe-objects';

/**
 * Demo payments mode (no STRIPE_SECRET_KEY): ids and client secrets shaped like Stripe's, and the
 * events Stripe would send, so a demo gift goes through the same recording path as a real one.
 */

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export function newDemoId(prefix: 'pi' | 'in' | 'sub'): string {
  return `${prefix}_demo${hex(crypto.getRandomValues(new Uint8Array(12)))}`;
}

async function sign(secret: string, value: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return hex(
    new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`demo-payment:${value}`))),
  ).slice(0, 32);
}

/** A client secret only this server can mint: the intent id plus an HMAC of it. */
export async function demoClientSecret(secret: string, intentId: string): Promise<string> {
  return `${intentId}_secret_${await sign(secret, intentId)}`;
}

/** The intent id when the secret is one we issued, else null. */
export async function verifyDemoClientSecret(secret: string, clientSecret: string): Promise<string | null> {
  const intentId = intentIdFromClientSecret(clientSecret);
  if (!intentId?.startsWith('pi_demo')) return null;
  const expected = await demoClientSecret(secret, intentId);
  return constantTimeEqual(expected, clientSecret) ? intentId : null;
}

type DonationRow = typeof donations.$inferSelect;

function metadataOf(row: DonationRow): Record<string, string> {
  return {
    kind: row.type === 'monthly' ? 'monthly' : 'one_off',
    donation_id: row.id,
    campaign_id: row.campaignId,
    appeal_id: row.appealId ?? '',
    donor_id: row.donorId,
    gift_aid_declaration_id: row.giftAidDeclarationId ?? '',
    source: 'demo',
  };
}

/** The one builder of demo events: Stripe's own envelope (api/services/payments/stripe-objects.ts, from its fixtures). */
export function demoEvent(
  id: string,
  type: string,
  object: unknown,
  previousAttributes?: Record<string, unknown>,
): Stripe.Event {
  return stripeEvent(type, object, {
    id,
    previous_attributes: previousAttributes,
    pending_webhooks: 0,
  }) as unknown as Stripe.Event;
}

/** The demo mode has no Stripe customer; its objects name this one. */
export const DEMO_CUSTOMER = 'cus_demo';

/** A demo monthly gift's first invoice, paid or not. */
function firstInvoice(
  row: DonationRow,
  state: Pick<Parameters<typeof invoiceObject>[0], 'status' | 'paid_payment_intent' | 'attempted'>,
) {
  return invoiceObject({
    id: row.invoiceId!,
    subscription: row.subscriptionId!,
    customer: DEMO_CUSTOMER,
    amount: row.amount,
    metadata: metadataOf(row),
    first: true,
    ...state,
  });
}

/** What Stripe sends when the demo card is accepted: a succeeded intent or a paid first invoice. */
export function demoSuccessEvent(row: DonationRow): Stripe.Event {
  const intentId = row.paymentIntentId!;
  if (row.type === 'monthly') {
    return demoEvent(
      `evt_demo_paid_${row.invoiceId}`,
      'invoice.paid',
      firstInvoice(row, { status: 'paid', paid_payment_intent: intentId }),
    );
  }
  return demoEvent(
    `evt_demo_succeeded_${intentId}`,
    'payment_intent.succeeded',
    paymentIntentObject({
      id: intentId,
      amount: row.amount,
      status: 'succeeded',
      metadata: metadataOf(row),
      client_secret: null,
    }),
  );
}

export const DEMO_DECLINE_MESSAGE = 'Your card was declined. No money was taken; try another card.';
export const DEMO_DIRECT_DEBIT_FAILED_MESSAGE = 'The bank did not pay this Direct Debit. No money was taken.';

/**
 * What Stripe sends when the demo card is declined; each attempt is its own event. A monthly gift's
 * first payment fails as its first invoice (invoice.payment_failed), a one-off as its PaymentIntent.
 */
export function demoFailureEvent(row: DonationRow, message = DEMO_DECLINE_MESSAGE): Stripe.Event {
  const intentId = row.paymentIntentId!;
  const id = `evt_demo_failed_${crypto.randomUUID()}`;
  if (row.type === 'monthly') {
    return demoEvent(id, 'invoice.payment_failed', firstInvoice(row, { status: 'open', attempted: true }));
  }
  return demoEvent(
    id,
    'payment_intent.payment_failed',
    paymentIntentObject({
      id: intentId,
      amount: row.amount,
      status: 'requires_payment_method',
      metadata: metadataOf(row),
      client_secret: null,
      last_payment_error: cardDeclined(message),
    }),
  );
}

export type DemoSubscriptionChange = Partial<{
  status: Stripe.Subscription.Status;
  amount: number;
  priceId: string | null;
  resumesAt: number | null;
  cancelledBy: string;
  /** When the next payment is due (seconds), where the change moves it. */
  nextPaymentAt: number;
}>;

/**
 * The next monthly payment after `now` on a gift's own cycle (its start date each month), as
 * Stripe keeps billing periods running through a pause and bills the next one after it ends.
 */
export function nextCycleDate(startedAt: Date, now = new Date()): Date {
  let months = 1;
  while (addMonths(startedAt, months) <= now) months++;
  return addMonths(startedAt, months);
}

/** The Subscription Stripe would hold for a demo monthly gift after a change. */
export function demoSubscription(gift: MonthlyGiftRow, change: DemoSubscriptionChange): Stripe.Subscription {
  const now = Math.floor(Date.now() / 1000);
  const cancelled = change.status === 'canceled';
  const resumesAt =
    change.resumesAt !== undefined
      ? change.resumesAt
      : gift.status === 'paused' && gift.pauseResumesAt
        ? Math.floor(gift.pauseResumesAt.getTime() / 1000)
        : null;
  const next =
    change.nextPaymentAt ?? (gift.nextPaymentAt ? Math.floor(gift.nextPaymentAt.getTime() / 1000) : now + 30 * 86400);
  return subscriptionObject({
    id: gift.id,
    customer: DEMO_CUSTOMER,
    status: change.status ?? 'active',
    amount: change.amount ?? gift.amount,
    priceId: change.priceId ?? gift.priceId ?? 'price_demo',
    itemId: `si_demo_${gift.id.slice(8, 20)}`,
    metadata: {
      kind: 'monthly',
      donation_id: gift.firstDonationId ?? '',
      campaign_id: gift.campaignId,
      appeal_id: gift.appealId ?? '',
      donor_id: gift.donorId,
      gift_aid_declaration_id: gift.giftAidDeclarationId ?? '',
      source: 'demo',
    },
    startDate: gift.startedAt ? Math.floor(gift.startedAt.getTime() / 1000) : now,
    periodEnd: Math.max(next, resumesAt ?? 0),
    pauseResumesAt: cancelled ? null : resumesAt,
    cancelComment: cancelled ? (change.cancelledBy ?? null) : null,
  }) as unknown as Stripe.Subscription;
}

/** A demo mandate's id says which of Stripe's test accounts made it: housekeeping settles it that way. */
export const demoMandateFails = (mandateId: string | null) => !!mandateId?.startsWith('mandate_demofail');

/**
 * What Stripe sends when a Direct Debit reaches Bacs: the intent is processing, its charge names the
 * bank account's last digits and the mandate (expanded here; Stripe sends ids the handler looks up).
 */
export function demoProcessingEvent(
  row: DonationRow,
  bank: {
    sortCode: string;
    accountNumber: string;
    fails: boolean;
    /** Stripe's billing_details of the Bacs PaymentMethod: the account holder the mandate names. */
    holder: { name: string; address: { line1: string; line2: string | null; city: string; postal_code: string } };
  },
): Stripe.Event {
  const intentId = row.paymentIntentId!;
  const mandateId = `mandate_demo${bank.fails ? 'fail' : 'ok'}${hex(crypto.getRandomValues(new Uint8Array(8)))}`;
  const now = Math.floor(Date.now() / 1000);
  const mandate = {
    id: mandateId,
    object: 'mandate',
    customer_acceptance: { accepted_at: now, online: { ip_address: null, user_agent: null }, type: 'online' },
    livemode: false,
    multi_use: {},
    payment_method: `pm_demo${intentId.slice(7, 19)}`,
    payment_method_details: {
      type: 'bacs_debit',
      bacs_debit: {
        network_status: 'accepted',
        reference: `DEMO${hex(crypto.getRandomValues(new Uint8Array(5))).toUpperCase()}`,
        revocation_reason: null,
        url: '',
      },
    },
    status: 'active',
    type: 'multi_use',
  };
  return demoEvent(`evt_demo_processing_${intentId}`, 'payment_intent.processing', {
    id: intentId,
    object: 'payment_intent',
    amount: row.amount,
    amount_received: 0,
    currency: 'gbp',
    status: 'processing',
    payment_method_types: ['bacs_debit'],
    metadata: row.type === 'monthly' ? {} : metadataOf(row),
    latest_charge: {
      id: `py_demo${intentId.slice(7, 31)}`,
      object: 'charge',
      status: 'pending',
      billing_details: {
        name: bank.holder.name,
        email: null,
        phone: null,
        address: { ...bank.holder.address, state: null, country: 'GB' },
      },
      payment_method_details: {
        type: 'bacs_debit',
        bacs_debit: { last4: bank.accountNumber.slice(-4), sort_code: bank.sortCode, fingerprint: null, mandate },
      },
    },
  });
}

/** The event a demo refund sends: a succeeded Stripe-shaped refund, recorded through the webhook's path. */
export function demoRefundEvent(
  gift: DonationRow,
  reversalId: string,
  amount: number,
  reason: ReversalReason,
): Stripe.Event {
  const created = Math.floor(Date.now() / 1000);
  const refund = {
    id: `re_demo_${reversalId.replace(/-/g, '')}`,
    object: 'refund',
    amount,
    status: 'succeeded',
    currency: 'gbp',
    created,
    payment_intent: gift.paymentIntentId,
    reason: reason === 'other' ? null : reason,
    balance_transaction: null,
    metadata: { donation_id: gift.id, reversal_id: reversalId },
  };
  return refundReplyEvent(`evt_demo_refund_${reversalId}`, refund, created);
}
