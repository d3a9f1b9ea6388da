import type Stripe from 'stripe';
import { STRIPE_FIXTURES } from './stripe-fixtures';

/**
 * Stripe objects and events built from Stripe's own example objects (./stripe-fixtures.ts) rather
 * than by hand, so they carry every field Stripe sends with the type Stripe sends. One builder for
 * the demo payments mode, the test events and the local Stripe fake (tests/mocks/stripe-fake.ts);
 * tests/unit/stripe-shapes.test.ts checks their output against the fixtures.
 *
 * Each builder starts from a clone of the fixture, then sets what our objects really hold: GBP, our
 * ids, amounts and metadata, and `null` for the fixture's sample values that a plain card or
 * subscription payment does not have (a cancellation time on a live intent, a trial, Connect).
 */

/** The API version the SDK pins; our webhook endpoint is created with it. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

type Obj = Record<string, unknown>;
type Meta = Record<string, string>;

const clone = <T = Obj>(value: unknown): T => JSON.parse(JSON.stringify(value)) as T;
const now = () => Math.floor(Date.now() / 1000);
const hex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
/** A Stripe-looking id: `pi_…`, `ch_…`. */
export const stripeId = (prefix: string) => `${prefix}_${hex(12)}`;

/** A clone of Stripe's example `resource` with `overrides` set on top (top-level keys). */
export function fromFixture<T = Obj>(resource: string, overrides: Obj = {}): T {
  const fixture = STRIPE_FIXTURES[resource];
  if (!fixture) throw new Error(`No Stripe fixture for ${resource}`);
  return { ...clone<Obj>(fixture), ...overrides } as T;
}

export function paymentIntentObject(p: {
  id: string;
  amount: number;
  metadata: Meta;
  currency?: string;
  status?: Stripe.PaymentIntent.Status;
  amount_received?: number;
  customer?: string | null;
  description?: string | null;
  client_secret?: string | null;
  latest_charge?: string | Obj | null;
  last_payment_error?: Obj | null;
  payment_method_types?: string[];
}): Obj {
  const status = p.status ?? 'succeeded';
  return fromFixture('payment_intent', {
    id: p.id,
    amount: p.amount,
    amount_received: p.amount_received ?? (status === 'succeeded' ? p.amount : 0),
    currency: p.currency ?? 'gbp',
    status,
    metadata: p.metadata,
    customer: p.customer ?? null,
    description: p.description ?? null,
    client_secret: p.client_secret === undefined ? `${p.id}_secret_${hex(12)}` : p.client_secret,
    created: now(),
    canceled_at: null,
    latest_charge: p.latest_charge ?? null,
    last_payment_error: p.last_payment_error ?? null,
    next_action: null,
    processing: null,
    transfer_data: null,
    payment_method_types: p.payment_method_types ?? ['card'],
  });
}

/** What Stripe puts in `last_payment_error` for a declined card. */
export const cardDeclined = (message: string): Obj => ({
  type: 'card_error',
  code: 'card_declined',
  decline_code: 'generic_decline',
  message,
});

export function chargeObject(p: {
  id?: string;
  amount: number;
  payment_intent: string | null;
  amount_refunded?: number;
  metadata?: Meta;
  balance_transaction?: string | Obj | null;
  refunds?: Obj[];
  customer?: string | null;
}): Obj {
  const id = p.id ?? stripeId('ch');
  const refunded = p.amount_refunded ?? 0;
  const charge = fromFixture('charge', {
    id,
    amount: p.amount,
    amount_captured: p.amount,
    amount_refunded: refunded,
    refunded: refunded >= p.amount,
    captured: true,
    currency: 'gbp',
    created: now(),
    customer: p.customer ?? null,
    description: null,
    payment_intent: p.payment_intent,
    metadata: p.metadata ?? {},
    balance_transaction: p.balance_transaction === undefined ? stripeId('txn') : p.balance_transaction,
    source: null,
    transfer_data: null,
    refunds: { object: 'list', data: p.refunds ?? [], has_more: false, url: `/v1/charges/${id}/refunds` },
  });
  return charge;
}

export function refundObject(p: {
  id?: string;
  amount: number;
  payment_intent: string | null;
  charge?: string | null;
  status?: string;
  failure_reason?: string | null;
  balance_transaction?: string | null;
  metadata?: Meta;
}): Obj {
  const refund = fromFixture('refund', {
    id: p.id ?? stripeId('re'),
    amount: p.amount,
    currency: 'gbp',
    created: now(),
    charge: p.charge ?? stripeId('ch'),
    payment_intent: p.payment_intent,
    status: p.status ?? 'succeeded',
    balance_transaction: p.balance_transaction ?? null,
    metadata: p.metadata ?? {},
  });
  // Stripe adds the reason only to a refund that failed.
  if (p.status === 'failed')
    Object.assign(refund, { failure_reason: p.failure_reason ?? 'unknown', failure_balance_transaction: null });
  return refund;
}

/**
 * A dispute (chargeback) on a card gift. Stripe takes the disputed amount and its dispute fee in one
 * balance transaction (type adjustment, reporting category dispute), which the dispute carries expanded.
 */
export function disputeObject(p: {
  id?: string;
  amount: number;
  payment_intent: string;
  charge?: string;
  status: string;
  reason?: string;
  fee?: number;
  evidence_due_by?: number | null;
  created?: number;
}): Obj {
  const id = p.id ?? stripeId('du');
  const fee = p.fee ?? 2000;
  const withdrawal = fromFixture('balance_transaction', {
    id: stripeId('txn'),
    amount: -p.amount,
    fee,
    net: -p.amount - fee,
    fee_details: [{ amount: fee, application: null, currency: 'gbp', description: 'Dispute fee', type: 'stripe_fee' }],
    currency: 'gbp',
    created: p.created ?? now(),
    available_on: (p.created ?? now()) + 7 * 86400,
    description: `Chargeback withdrawal for ${p.charge ?? 'the charge'}`,
    reporting_category: 'dispute',
    source: id,
    status: 'pending',
    type: 'adjustment',
  });
  return fromFixture('dispute', {
    id,
    amount: p.amount,
    currency: 'gbp',
    created: p.created ?? now(),
    charge: p.charge ?? stripeId('ch'),
    payment_intent: p.payment_intent,
    reason: p.reason ?? 'fraudulent',
    status: p.status,
    balance_transactions: [withdrawal],
    evidence_details: {
      due_by: p.evidence_due_by === undefined ? now() + 14 * 86400 : p.evidence_due_by,
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      enhanced_eligibility: {},
    },
    is_charge_refundable: false,
  });
}

export function priceObject(p: {
  id: string;
  unit_amount: number;
  currency?: string;
  interval?: string;
  active?: boolean;
}): Obj {
  return fromFixture('price', {
    id: p.id,
    unit_amount: p.unit_amount,
    unit_amount_decimal: String(p.unit_amount),
    currency: p.currency ?? 'gbp',
    active: p.active ?? true,
    created: now(),
    transform_quantity: null,
    recurring: {
      interval: p.interval ?? 'month',
      interval_count: 1,
      meter: null,
      usage_type: 'licensed',
      trial_period_days: null,
    },
  });
}

/** An invoice of a subscription (`billing_reason` subscription_create for the first). */
export function invoiceObject(p: {
  id: string;
  subscription: string;
  amount: number;
  metadata: Meta;
  customer?: string;
  status?: 'draft' | 'open' | 'paid';
  first?: boolean;
  amount_paid?: number;
  periodEnd?: number;
  attempted?: boolean;
  next_payment_attempt?: number | null;
  paid_payment_intent?: string;
  confirmation_secret?: Obj;
}): Obj {
  const status = p.status ?? 'paid';
  const paid = status === 'paid' ? (p.amount_paid ?? p.amount) : (p.amount_paid ?? 0);
  const created = now();
  const periodEnd = p.periodEnd ?? created + 30 * 86400;
  const fixture = STRIPE_FIXTURES.invoice as { lines: { data: Obj[] } };
  const line = {
    ...clone<Obj>(fixture.lines.data[0]),
    id: stripeId('il'),
    invoice: p.id,
    amount: p.amount,
    currency: 'gbp',
    description: '1 × Monthly gift',
    subtotal: p.amount,
    period: { start: created, end: periodEnd },
    subscription: p.subscription,
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: p.subscription,
        subscription_item: stripeId('si'),
      },
    },
  };
  const invoice = fromFixture('invoice', {
    id: p.id,
    account_country: 'GB',
    currency: 'gbp',
    customer: p.customer ?? stripeId('cus'),
    amount_due: p.amount,
    amount_paid: paid,
    amount_remaining: p.amount - paid,
    amount_overpaid: 0,
    subtotal: p.amount,
    subtotal_excluding_tax: p.amount,
    total: p.amount,
    total_excluding_tax: p.amount,
    attempted: p.attempted ?? status !== 'draft',
    attempt_count: status === 'draft' ? 0 : 1,
    billing_reason: p.first === false ? 'subscription_cycle' : 'subscription_create',
    created,
    due_date: null,
    effective_at: created,
    from_invoice: null,
    last_finalization_error: null,
    next_payment_attempt: p.next_payment_attempt ?? null,
    period_start: created,
    period_end: created,
    shipping_cost: null,
    shipping_details: null,
    customer_shipping: null,
    status,
    status_transitions: {
      finalized_at: created,
      marked_uncollectible_at: null,
      paid_at: status === 'paid' ? created : null,
      voided_at: null,
    },
    webhooks_delivered_at: created,
    lines: { object: 'list', data: [line], has_more: false, url: `/v1/invoices/${p.id}/lines` },
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: p.subscription, metadata: p.metadata },
    },
  });
  // Stripe includes these two only when asked (`expand`); the demo mode has no API to ask.
  if (p.paid_payment_intent) {
    invoice.payments = {
      object: 'list',
      data: [invoicePaymentObject({ invoice: p.id, payment_intent: p.paid_payment_intent, amount: paid })],
      has_more: false,
      url: `/v1/invoices/${p.id}/payments`,
    };
  }
  if (p.confirmation_secret) invoice.confirmation_secret = p.confirmation_secret;
  return invoice;
}

export function invoicePaymentObject(p: {
  invoice: string;
  payment_intent: string;
  amount: number;
  status?: string;
}): Obj {
  const paid = (p.status ?? 'paid') === 'paid';
  return fromFixture('invoice_payment', {
    id: stripeId('inpay'),
    invoice: p.invoice,
    amount_paid: paid ? p.amount : null,
    amount_requested: p.amount,
    currency: 'gbp',
    created: now(),
    livemode: false,
    status: p.status ?? 'paid',
    payment: { type: 'payment_intent', payment_intent: p.payment_intent },
    status_transitions: { canceled_at: null, paid_at: paid ? now() : null },
  });
}

/** A Subscription as Stripe holds it (API 2026-10-28: the period is on its item). */
export function subscriptionObject(p: {
  id: string;
  amount: number;
  metadata: Meta;
  customer?: string;
  status?: Stripe.Subscription.Status;
  priceId?: string;
  itemId?: string;
  startDate?: number;
  periodEnd?: number;
  pauseResumesAt?: number | null;
  cancelComment?: string | null;
  description?: string | null;
  latest_invoice?: string | Obj | null;
}): Obj {
  const created = p.startDate ?? now() - 86400;
  const cancelled = p.status === 'canceled';
  const at = now();
  const price = priceObject({ id: p.priceId ?? stripeId('price'), unit_amount: p.amount });
  const itemFixture = (STRIPE_FIXTURES.subscription as { items: { data: Obj[] } }).items.data[0];
  const item = {
    ...clone<Obj>(itemFixture),
    id: p.itemId ?? stripeId('si'),
    created,
    subscription: p.id,
    price,
    plan: {
      ...clone<Obj>(itemFixture.plan),
      id: price.id,
      object: 'plan',
      amount: p.amount,
      amount_decimal: String(p.amount),
      billing_scheme: 'per_unit',
      created,
      currency: 'gbp',
      interval_count: 1,
      livemode: false,
      metadata: {},
      product: price.product,
      transform_usage: null,
    },
    current_period_start: created,
    current_period_end: p.periodEnd ?? at + 30 * 86400,
    billing_thresholds: null,
  };
  return fromFixture('subscription', {
    id: p.id,
    customer: p.customer ?? stripeId('cus'),
    status: p.status ?? 'active',
    currency: 'gbp',
    description: p.description ?? null,
    metadata: p.metadata,
    created,
    start_date: created,
    billing_cycle_anchor: created,
    billing_cycle_anchor_config: null,
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: cancelled ? at : null,
    ended_at: cancelled ? at : null,
    cancellation_details: cancelled
      ? { comment: p.cancelComment ?? null, feedback: null, reason: 'cancellation_requested' }
      : { comment: null, feedback: null, reason: null },
    pause_collection: !cancelled && p.pauseResumesAt ? { behavior: 'void', resumes_at: p.pauseResumesAt } : null,
    next_pending_invoice_item_invoice: null,
    pending_invoice_item_interval: null,
    pending_update: null,
    transfer_data: null,
    trial_end: null,
    trial_start: null,
    latest_invoice: p.latest_invoice ?? null,
    items: { object: 'list', data: [item], has_more: false, url: `/v1/subscription_items?subscription=${p.id}` },
  });
}

export function customerObject(p: { id?: string; email?: string | null; metadata?: Meta; name?: string | null }): Obj {
  return fromFixture('customer', {
    id: p.id ?? stripeId('cus'),
    email: p.email ?? null,
    name: p.name ?? null,
    metadata: p.metadata ?? {},
    created: now(),
    currency: 'gbp',
    discount: null,
  });
}

/** A Stripe event wrapping `object` (`previous_attributes` for *.updated events). */
export function stripeEvent(
  type: string,
  object: unknown,
  options: { id?: string; created?: number; previous_attributes?: Obj; pending_webhooks?: number } = {},
): Stripe.Event {
  const event = fromFixture('event', {
    id: options.id ?? stripeId('evt'),
    type,
    api_version: STRIPE_API_VERSION,
    created: options.created ?? now(),
    pending_webhooks: options.pending_webhooks ?? 1,
    request: { id: null, idempotency_key: null },
    data: options.previous_attributes ? { object, previous_attributes: options.previous_attributes } : { object },
  });
  return event as unknown as Stripe.Event;
}

/**
 * The refund.updated event a refund's own reply is recorded as, through the webhook's path: the
 * envelope alone, since it never travels as a webhook.
 */
export function refundReplyEvent(id: string, refund: unknown, created: number): Stripe.Event {
  const event = { id, object: 'event', type: 'refund.updated', created, livemode: false, data: { object: refund } };
  return event as unknown as Stripe.Event;
}

/** Stripe's standard fee for UK cards (1.5% + 20p), for the balance transactions of the local fake. */
export const ukCardFee = (amount: number) => Math.round(amount * 0.015) + 20;

export function balanceTransactionObject(p: {
  id?: string;
  amount: number;
  fee?: number;
  type: 'charge' | 'refund' | 'payout' | 'adjustment' | 'stripe_fee';
  source: string | null;
  status?: 'available' | 'pending';
  description?: string | null;
  available_on?: number;
}): Obj {
  const fee = p.fee ?? 0;
  return fromFixture('balance_transaction', {
    id: p.id ?? stripeId('txn'),
    amount: p.amount,
    fee,
    net: p.amount - fee,
    fee_details: fee
      ? [{ amount: fee, application: null, currency: 'gbp', description: 'Stripe processing fees', type: 'stripe_fee' }]
      : [],
    currency: 'gbp',
    created: now(),
    available_on: p.available_on ?? now() + 7 * 86400,
    description: p.description ?? null,
    reporting_category: p.type === 'stripe_fee' ? 'fee' : p.type === 'adjustment' ? 'other_adjustment' : p.type,
    source: p.source,
    status: p.status ?? 'pending',
    type: p.type,
  });
}

export function payoutObject(p: {
  id?: string;
  amount: number;
  balance_transaction: string;
  arrival_date?: number;
  status?: string;
  metadata?: Meta;
}): Obj {
  return fromFixture('payout', {
    id: p.id ?? stripeId('po'),
    amount: p.amount,
    currency: 'gbp',
    created: now(),
    arrival_date: p.arrival_date ?? now() + 2 * 86400,
    balance_transaction: p.balance_transaction,
    destination: stripeId('ba'),
    metadata: p.metadata ?? {},
    status: p.status ?? 'paid',
    trace_id: { status: 'supported', value: null },
  });
}

/** A Bacs Direct Debit mandate (`reference` is what the donor's bank shows). */
export function mandateObject(p: {
  id?: string;
  payment_method: string;
  status?: 'active' | 'inactive' | 'pending';
  reference: string;
  network_status?: string;
}): Obj {
  return fromFixture('mandate', {
    id: p.id ?? stripeId('mandate'),
    payment_method: p.payment_method,
    status: p.status ?? 'active',
    customer_acceptance: {
      accepted_at: now(),
      online: { ip_address: '127.0.0.1', user_agent: 'Mozilla/5.0' },
      type: 'online',
    },
    payment_method_details: {
      type: 'bacs_debit',
      bacs_debit: {
        network_status: p.network_status ?? 'accepted',
        reference: p.reference,
        revocation_reason: null,
        url: `https://payments.stripe.com/bacs_mandate/${p.reference}`,
        display_name: null,
        service_user_number: null,
      },
    },
  });
}

export function setupIntentObject(p: {
  id?: string;
  customer?: string | null;
  status?: Stripe.SetupIntent.Status;
  payment_method_types?: string[];
  payment_method?: string | null;
  mandate?: string | null;
  metadata?: Meta;
}): Obj {
  const id = p.id ?? stripeId('seti');
  return fromFixture('setup_intent', {
    id,
    client_secret: `${id}_secret_${hex(12)}`,
    created: now(),
    customer: p.customer ?? null,
    status: p.status ?? 'requires_payment_method',
    payment_method_types: p.payment_method_types ?? ['bacs_debit'],
    payment_method: p.payment_method ?? null,
    mandate: p.mandate ?? null,
    metadata: p.metadata ?? {},
    last_setup_error: null,
    next_action: null,
    automatic_payment_methods: null,
  });
}
