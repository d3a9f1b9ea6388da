import type Stripe from 'stripe';
import type { donations } from '../../../db/schema';
import type { MonthlyGiftRow } from '../monthly-gifts';
import { intentIdFromClientSecret } from '../stripe';
import { constantTimeEqual } from '../auth';

/**
 * Demo payments mode (no STRIPE_SECRET_KEY): ids and client secrets shaped like Stripe's, and the
 * events Stripe would send, so a demo gift goes through the same recording path as a real one.
 */

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export function newDemoId(prefix: 'pi' | 'in' | 'sub'): string {
  return `${prefix}_demo${hex(crypto.getRandomValues(new Uint8Array(12)))}`;
}

async function sign(secret: string, value: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`demo-payment:${value}`)))).slice(0, 32);
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

/** The one builder of demo events: the envelope Stripe puts around an object it reports. */
export function demoEvent(id: string, type: string, object: unknown, previousAttributes?: Record<string, unknown>): Stripe.Event {
  return {
    id,
    object: 'event',
    type,
    api_version: null,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
  } as unknown as Stripe.Event;
}

const event = demoEvent;

/** What Stripe sends when the demo card is accepted: a succeeded intent or a paid first invoice. */
export function demoSuccessEvent(row: DonationRow): Stripe.Event {
  const intentId = row.paymentIntentId!;
  if (row.type === 'monthly') {
    return event(`evt_demo_paid_${row.invoiceId}`, 'invoice.paid', {
      id: row.invoiceId,
      object: 'invoice',
      amount_paid: row.amount,
      amount_due: row.amount,
      currency: 'gbp',
      billing_reason: 'subscription_create',
      status: 'paid',
      status_transitions: { paid_at: Math.floor(Date.now() / 1000) },
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: row.subscriptionId, metadata: metadataOf(row) } },
      payments: { object: 'list', data: [{ status: 'paid', payment: { type: 'payment_intent', payment_intent: intentId } }] },
    });
  }
  return event(`evt_demo_succeeded_${intentId}`, 'payment_intent.succeeded', {
    id: intentId,
    object: 'payment_intent',
    amount: row.amount,
    amount_received: row.amount,
    currency: 'gbp',
    status: 'succeeded',
    metadata: metadataOf(row),
  });
}

export const DEMO_DECLINE_MESSAGE = 'Your card was declined. No money was taken; try another card.';
export const DEMO_DIRECT_DEBIT_FAILED_MESSAGE = 'The bank did not pay this Direct Debit. No money was taken.';

/**
 * What Stripe sends when the demo card is declined; each attempt is its own event. A monthly gift's
 * first payment fails as its first invoice (invoice.payment_failed), a one-off as its PaymentIntent.
 */
export function demoFailureEvent(row: DonationRow, message = DEMO_DECLINE_MESSAGE): Stripe.Event {
  const intentId = row.paymentIntentId!;
  if (row.type === 'monthly') {
    return event(`evt_demo_failed_${crypto.randomUUID()}`, 'invoice.payment_failed', {
      id: row.invoiceId,
      object: 'invoice',
      amount_due: row.amount,
      amount_paid: 0,
      currency: 'gbp',
      billing_reason: 'subscription_create',
      status: 'open',
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: row.subscriptionId, metadata: metadataOf(row) } },
    });
  }
  return event(`evt_demo_failed_${crypto.randomUUID()}`, 'payment_intent.payment_failed', {
    id: intentId,
    object: 'payment_intent',
    amount: row.amount,
    amount_received: 0,
    currency: 'gbp',
    status: 'requires_payment_method',
    metadata: metadataOf(row),
    last_payment_error: { type: 'card_error', code: 'card_declined', message },
  });
}

export type DemoSubscriptionChange = Partial<{ status: Stripe.Subscription.Status; amount: number; priceId: string | null; resumesAt: number | null; cancelledBy: string }>;

/** The Subscription Stripe would hold for a demo monthly gift after a change. */
export function demoSubscription(gift: MonthlyGiftRow, change: DemoSubscriptionChange): Stripe.Subscription {
  const now = Math.floor(Date.now() / 1000);
  const cancelled = change.status === 'canceled';
  const resumesAt = change.resumesAt !== undefined ? change.resumesAt : gift.status === 'paused' && gift.pauseResumesAt ? Math.floor(gift.pauseResumesAt.getTime() / 1000) : null;
  const next = gift.nextPaymentAt ? Math.floor(gift.nextPaymentAt.getTime() / 1000) : now + 30 * 86400;
  return {
    id: gift.id,
    object: 'subscription',
    status: change.status ?? 'active',
    customer: 'cus_demo',
    metadata: {
      kind: 'monthly',
      donation_id: gift.firstDonationId ?? '',
      campaign_id: gift.campaignId,
      appeal_id: gift.appealId ?? '',
      donor_id: gift.donorId,
      gift_aid_declaration_id: gift.giftAidDeclarationId ?? '',
      source: 'demo',
    },
    items: {
      object: 'list',
      data: [{ id: `si_demo_${gift.id.slice(8, 20)}`, price: { id: change.priceId ?? gift.priceId ?? 'price_demo', unit_amount: change.amount ?? gift.amount, currency: 'gbp' }, current_period_end: Math.max(next, resumesAt ?? 0) }],
    },
    pause_collection: !cancelled && resumesAt ? { behavior: 'void', resumes_at: resumesAt } : null,
    start_date: gift.startedAt ? Math.floor(gift.startedAt.getTime() / 1000) : now,
    canceled_at: cancelled ? now : null,
    ended_at: cancelled ? now : null,
    cancellation_details: cancelled ? { comment: change.cancelledBy ?? null, feedback: null, reason: 'cancellation_requested' } : null,
  } as unknown as Stripe.Subscription;
}

/** A demo mandate's id says which of Stripe's test accounts made it: housekeeping settles it that way. */
export const demoMandateFails = (mandateId: string | null) => !!mandateId?.startsWith('mandate_demofail');

/**
 * What Stripe sends when a Direct Debit reaches Bacs: the intent is processing, its charge names the
 * bank account's last digits and the mandate (expanded here; Stripe sends ids the handler looks up).
 */
export function demoProcessingEvent(row: DonationRow, bank: { sortCode: string; accountNumber: string; fails: boolean }): Stripe.Event {
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
      bacs_debit: { network_status: 'accepted', reference: `DEMO${hex(crypto.getRandomValues(new Uint8Array(5))).toUpperCase()}`, revocation_reason: null, url: '' },
    },
    status: 'active',
    type: 'multi_use',
  };
  return event(`evt_demo_processing_${intentId}`, 'payment_intent.processing', {
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
      payment_method_details: { type: 'bacs_debit', bacs_debit: { last4: bank.accountNumber.slice(-4), sort_code: bank.sortCode, fingerprint: null, mandate } },
    },
  });
}
