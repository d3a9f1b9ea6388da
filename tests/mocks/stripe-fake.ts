import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  balanceTransactionObject,
  chargeObject,
  customerObject,
  fromFixture,
  invoiceObject,
  invoicePaymentObject,
  paymentIntentObject,
  payoutObject,
  priceObject,
  refundObject,
  stripeEvent,
  subscriptionObject,
  ukCardFee,
} from '../../api/services/payments/stripe-objects';
import fixtures from '../fixtures/stripe/fixtures3-bacs.json';

/**
 * A local stand-in for the parts of the Stripe API we call (Stripe's servers are unreachable from
 * here). The real SDK talks to it over HTTP: point it with
 * `new Stripe(key, {host: '127.0.0.1', port, protocol: 'http', httpClient: Stripe.createFetchHttpClient()})`
 * or set STRIPE_API_BASE to `fake.url`. Idempotency keys replay the first response, like Stripe.
 * Every object it answers is built from Stripe's own fixtures (api/services/payments/stripe-objects.ts) and
 * checked against them by tests/unit/stripe-shapes.test.ts.
 */

type Obj = Record<string, any>;
export type FakeRequest = {
  method: string;
  path: string;
  body: Obj;
  idempotencyKey: string | null;
  response?: { status: number; body: Obj };
};

export type StripeFake = {
  url: string;
  port: number;
  requests: FakeRequest[];
  customers: Map<string, Obj>;
  paymentIntents: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  prices: Map<string, Obj>;
  /** invoice payments: PaymentIntent id → invoice id */
  invoicePayments: Map<string, string>;
  portalSessions: Map<string, Obj>;
  charges: Map<string, Obj>;
  refunds: Map<string, Obj>;
  balanceTransactions: Map<string, Obj>;
  payouts: Map<string, Obj>;
  /** payout id → the balance transactions it paid out */
  payoutTransactions: Map<string, string[]>;
  /** subscription id → the proration_behavior of its last price change */
  lastProrationBehavior: Map<string, string>;
  /**
   * The donor paid: the intent succeeds with a charge and its balance transaction (UK card fee),
   * and the `payment_intent.succeeded` event Stripe would send is returned (not delivered).
   */
  succeedPaymentIntent(intentId: string): { intent: Obj; charge: Obj; event: Obj };
  /** Pays out every charge and refund not yet paid out, as Stripe's daily automatic payout does. */
  createPayout(): Obj;
  /** A balance transaction of another kind (an adjustment, a Stripe fee) for the next payout. */
  addBalanceTransaction(p: Parameters<typeof balanceTransactionObject>[0]): Obj;
  /** Caps list pages below Stripe's 100, so a test can see pagination with a few lines. */
  listPageCap: number;
  setupIntents: Map<string, Obj>;
  mandates: Map<string, Obj>;
  paymentMethods: Map<string, Obj>;
  /**
   * What Stripe does when the donor confirms a Direct Debit with its test bank details: a bacs_debit
   * PaymentMethod, an active multi-use mandate, a pending charge, the intent `processing`, and the
   * Subscription's default payment method set. Returns the objects the webhook then names by id.
   */
  submitBacs(intentId: string, accountNumber?: string): { paymentMethod: Obj; mandate: Obj; charge: Obj; intent: Obj };
  /** Runs before a create answers, e.g. to deliver a webhook before the client hears back. */
  onCreate?: (kind: 'payment_intent' | 'subscription', object: Obj) => Promise<void> | void;
  /** Make the next N requests fail with a 500 api_error (before doing anything; nothing is saved for their key). */
  failNext: number;
  /**
   * Answer the next POST with a 500 as Stripe does once it started on a request: the answer is saved
   * for its Idempotency-Key, so a retry with the key gets the same 500 for a day. `made`: it was done first.
   */
  fail500Saved: { made: boolean } | null;
  /** Refuse the next refund as Stripe does a request it will not make (400 invalid_request_error with this code). */
  refuseNextRefund: string | null;
  addPrice(id: string, unitAmount: number, options?: { currency?: string; interval?: string; active?: boolean }): Obj;
  close(): Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** A copy of Stripe's fixture object with our fields over it, so the fake keeps Stripe's shape. */
const cloneFixture = (kind: 'mandate' | 'setup_intent' | 'payment_method' | 'charge', fields: Obj): Obj => ({
  ...structuredClone(fixtures[kind]),
  ...fields,
});

/** "a[b][0]=x&a[c]=y" → {a: {b: ['x'], c: 'y'}} (the SDK's form encoding). */
export function parseForm(text: string): Obj {
  const root: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: Obj = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(parts[i + 1]);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part];
    });
  }
  return root;
}

function error(res: ServerResponse, status: number, type: string, message: string, code?: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { type, message, code } }));
}

/** The bindings that run the app in Stripe mode against this fake (webhook tests add STRIPE_WEBHOOK_SECRET). */
export function stripeModeBindings(fake: StripeFake) {
  return { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_PUBLISHABLE_KEY: 'pk_test_fake', STRIPE_API_BASE: fake.url };
}

export async function startStripeFake(): Promise<StripeFake> {
  const replay = new Map<string, { status: number; body: string }>();
  const fake: StripeFake = {
    url: '',
    port: 0,
    requests: [],
    customers: new Map(),
    paymentIntents: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    prices: new Map(),
    invoicePayments: new Map(),
    portalSessions: new Map(),
    charges: new Map(),
    refunds: new Map(),
    balanceTransactions: new Map(),
    payouts: new Map(),
    payoutTransactions: new Map(),
    lastProrationBehavior: new Map(),
    setupIntents: new Map(),
    mandates: new Map(),
    paymentMethods: new Map(),
    failNext: 0,
    fail500Saved: null,
    refuseNextRefund: null,
    listPageCap: 100,
    addBalanceTransaction(p) {
      const txn = balanceTransactionObject(p);
      fake.balanceTransactions.set(txn.id as string, txn);
      return txn;
    },
    submitBacs(intentId, accountNumber = '00012345') {
      const intent = fake.paymentIntents.get(intentId) ?? {
        id: intentId,
        object: 'payment_intent',
        amount: 0,
        currency: 'gbp',
        metadata: {},
      };
      const now = Math.floor(Date.now() / 1000);
      const paymentMethod = cloneFixture('payment_method', {
        id: id('pm'),
        type: 'bacs_debit',
        card: undefined,
        bacs_debit: {
          fingerprint: randomBytes(8).toString('hex'),
          last4: accountNumber.slice(-4),
          sort_code: '108800',
        },
        created: now,
        customer: intent.customer ?? null,
        metadata: {},
      });
      delete paymentMethod.card;
      const mandate = cloneFixture('mandate', {
        id: id('mandate'),
        payment_method: paymentMethod.id,
        payment_method_details: {
          type: 'bacs_debit',
          bacs_debit: {
            network_status: 'accepted',
            reference: `REF${randomBytes(5).toString('hex').toUpperCase()}`,
            revocation_reason: null,
            url: 'https://payments.stripe.com/bacs_debit/mandate',
          },
        },
        status: 'active',
      });
      const charge = cloneFixture('charge', {
        id: id('py'),
        amount: intent.amount,
        amount_captured: 0,
        amount_refunded: 0,
        created: now,
        currency: 'gbp',
        customer: intent.customer ?? null,
        metadata: intent.metadata ?? {},
        paid: false,
        payment_intent: intentId,
        payment_method: paymentMethod.id,
        payment_method_details: {
          type: 'bacs_debit',
          bacs_debit: {
            fingerprint: paymentMethod.bacs_debit.fingerprint,
            last4: paymentMethod.bacs_debit.last4,
            mandate: mandate.id,
            sort_code: '108800',
          },
        },
        status: 'pending',
      });
      Object.assign(intent, { status: 'processing', payment_method: paymentMethod.id, latest_charge: charge.id });
      fake.paymentMethods.set(paymentMethod.id, paymentMethod);
      fake.mandates.set(mandate.id, mandate);
      fake.charges.set(charge.id, charge);
      const invoiceId = fake.invoicePayments.get(intentId);
      const subscriptionId = invoiceId
        ? fake.invoices.get(invoiceId)?.parent?.subscription_details?.subscription
        : null;
      const subscription = subscriptionId ? fake.subscriptions.get(subscriptionId) : null;
      if (subscription) subscription.default_payment_method = paymentMethod.id;
      return { paymentMethod, mandate, charge, intent };
    },
    addPrice(priceId, unitAmount, options = {}) {
      const price = priceObject({
        id: priceId,
        unit_amount: unitAmount,
        currency: options.currency,
        interval: options.interval,
        active: options.active,
      });
      fake.prices.set(priceId, price);
      return price;
    },
    succeedPaymentIntent(intentId) {
      const intent = fake.paymentIntents.get(intentId);
      if (!intent) throw new Error(`stripe fake: no payment intent ${intentId}`);
      const chargeId = id('ch');
      const txn = fake.addBalanceTransaction({
        amount: intent.amount,
        fee: ukCardFee(intent.amount),
        type: 'charge',
        source: chargeId,
      });
      const charge = chargeObject({
        id: chargeId,
        amount: intent.amount,
        payment_intent: intentId,
        metadata: intent.metadata,
        balance_transaction: txn.id as string,
        customer: intent.customer,
      });
      fake.charges.set(chargeId, charge);
      Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: chargeId });
      return { intent, charge, event: stripeEvent('payment_intent.succeeded', structuredClone(intent)) };
    },
    createPayout() {
      const paid = new Set([...fake.payoutTransactions.values()].flat());
      const included = [...fake.balanceTransactions.values()].filter((t) => t.type !== 'payout' && !paid.has(t.id));
      const amount = included.reduce((sum, t) => sum + (t.net as number), 0);
      const { sourceId: payoutId, txnId } = debit('payout', amount, 'STRIPE PAYOUT', 'available');
      for (const t of included) t.status = 'available';
      const payout = payoutObject({ id: payoutId, amount, balance_transaction: txnId });
      fake.payouts.set(payoutId, payout);
      fake.payoutTransactions.set(payoutId, [...included.map((t) => t.id as string), txnId]);
      return payout;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  /** Money leaving the balance: a new refund or payout id and the balance transaction that takes the amount out. */
  function debit(type: 'refund' | 'payout', amount: number, description: string, status?: 'available') {
    const sourceId = id(type === 'refund' ? 're' : 'po');
    const txn = fake.addBalanceTransaction({ amount: -amount, type, source: sourceId, status, description });
    return { sourceId, txnId: txn.id as string };
  }

  async function route(req: FakeRequest): Promise<{ status: number; body: Obj }> {
    const { method, path, body } = req;
    const [pathname, query = ''] = path.split('?');
    const params = method === 'GET' ? parseForm(query) : method === 'DELETE' ? { ...parseForm(query), ...body } : body;
    let m: RegExpExecArray | null;

    if (method === 'POST' && pathname === '/v1/customers') {
      const customer = customerObject({
        id: id('cus'),
        email: params.email ?? null,
        name: params.name ?? null,
        metadata: params.metadata ?? {},
      });
      fake.customers.set(customer.id as string, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && pathname === '/v1/payment_intents') {
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 30)
        return { status: 400, body: { error: { type: 'invalid_request_error', message: 'Invalid amount' } } };
      const intentId = id('pi');
      const intent = paymentIntentObject({
        id: intentId,
        amount,
        currency: params.currency,
        customer: params.customer ?? null,
        description: params.description ?? null,
        metadata: params.metadata ?? {},
        status: 'requires_payment_method',
        client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
        payment_method_types: params.payment_method_types ?? ['card'],
      });
      if (params.automatic_payment_methods)
        intent.automatic_payment_methods = { enabled: true, allow_redirects: 'always' };
      fake.paymentIntents.set(intent.id as string, intent);
      await fake.onCreate?.('payment_intent', intent);
      return { status: 200, body: intent };
    }
    if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(pathname))) {
      const intent = fake.paymentIntents.get(m[1]);
      return intent ? { status: 200, body: intent } : missing('payment_intent', m[1]);
    }
    if (method === 'POST' && (m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(pathname))) {
      const intent = fake.paymentIntents.get(m[1]);
      if (!intent) return missing('payment_intent', m[1]);
      if (intent.status === 'succeeded' || intent.status === 'canceled' || intent.status === 'processing') {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
            },
          },
        };
      }
      intent.status = 'canceled';
      intent.canceled_at = Math.floor(Date.now() / 1000);
      intent.cancellation_reason = params.cancellation_reason ?? null;
      return { status: 200, body: intent };
    }
    if (method === 'DELETE' && (m = /^\/v1\/customers\/([^/]+)$/.exec(pathname))) {
      if (!fake.customers.delete(m[1])) return missing('customer', m[1]);
      return { status: 200, body: { id: m[1], object: 'customer', deleted: true } };
    }
    if (method === 'GET' && (m = /^\/v1\/customers\/([^/]+)$/.exec(pathname))) {
      const customer = fake.customers.get(m[1]);
      return customer ? { status: 200, body: customer } : missing('customer', m[1]);
    }
    if (method === 'GET' && (m = /^\/v1\/prices\/([^/]+)$/.exec(pathname))) {
      const price = fake.prices.get(decodeURIComponent(m[1]));
      return price ? { status: 200, body: price } : missing('price', m[1]);
    }
    if (method === 'GET' && pathname === '/v1/prices') {
      const data = [...fake.prices.values()].filter(
        (p) =>
          (params.active === undefined || String(p.active) === params.active) &&
          (!params.currency || p.currency === params.currency),
      );
      return { status: 200, body: { object: 'list', url: '/v1/prices', has_more: false, data } };
    }
    if (method === 'POST' && pathname === '/v1/subscriptions') {
      const price = fake.prices.get(params.items?.[0]?.price);
      if (!price) return missing('price', params.items?.[0]?.price);
      if (!fake.customers.has(params.customer)) return missing('customer', params.customer);
      const subscriptionId = id('sub');
      const intentId = id('pi');
      const invoiceId = id('in');
      const confirmationSecret = {
        type: 'payment_intent',
        client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
      };
      const invoice = invoiceObject({
        id: invoiceId,
        subscription: subscriptionId,
        customer: params.customer,
        amount: price.unit_amount,
        metadata: params.metadata ?? {},
        status: 'open',
        first: true,
        attempted: false,
      });
      fake.invoices.set(invoiceId, invoice);
      const expand: string[] = params.expand ?? [];
      fake.invoicePayments.set(intentId, invoiceId);
      const subscription = subscriptionObject({
        id: subscriptionId,
        customer: params.customer,
        status: 'incomplete',
        amount: price.unit_amount,
        priceId: price.id,
        startDate: Math.floor(Date.now() / 1000),
        description: params.description ?? null,
        metadata: params.metadata ?? {},
        // confirmation_secret is an includable field: only there when expanded.
        latest_invoice: expand.includes('latest_invoice.confirmation_secret')
          ? { ...invoice, confirmation_secret: confirmationSecret }
          : expand.includes('latest_invoice')
            ? invoice
            : invoiceId,
      });
      // The item's price is the very price object the fake holds (amount changes swap it).
      (subscription.items as Obj).data[0].price = price;
      subscription.payment_settings = {
        ...(subscription.payment_settings as Obj),
        payment_method_types: params.payment_settings?.payment_method_types ?? null,
        save_default_payment_method: params.payment_settings?.save_default_payment_method ?? 'off',
      };
      subscription.default_payment_method = null;
      fake.subscriptions.set(subscriptionId, subscription);
      await fake.onCreate?.('subscription', subscription);
      return { status: 200, body: subscription };
    }
    if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(pathname))) {
      const subscription = fake.subscriptions.get(m[1]);
      if (!subscription) return missing('subscription', m[1]);
      if (method === 'GET') return { status: 200, body: subscription };
      if (subscription.status === 'canceled') {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message: 'A canceled subscription can only update its cancellation_details and metadata.',
            },
          },
        };
      }
      if (method === 'DELETE') {
        // Cancel now (Stripe's DELETE /v1/subscriptions/:id).
        const now = Math.floor(Date.now() / 1000);
        Object.assign(subscription, {
          status: 'canceled',
          canceled_at: now,
          ended_at: now,
          cancellation_details: {
            comment: params.cancellation_details?.comment ?? null,
            feedback: null,
            reason: 'cancellation_requested',
          },
        });
        return { status: 200, body: subscription };
      }
      if (method === 'POST') {
        const item = params.items?.[0];
        if (item) {
          const price = fake.prices.get(item.price);
          if (!price) return missing('price', item.price);
          const current = subscription.items.data.find((i: Obj) => i.id === item.id);
          if (!current) return missing('subscription_item', item.id);
          current.price = price;
          current.plan = {
            ...current.plan,
            id: price.id,
            amount: price.unit_amount,
            amount_decimal: String(price.unit_amount),
          };
          fake.lastProrationBehavior.set(subscription.id, params.proration_behavior ?? 'create_prorations');
        }
        if (params.pause_collection !== undefined) {
          subscription.pause_collection =
            params.pause_collection === ''
              ? null
              : {
                  behavior: params.pause_collection.behavior,
                  resumes_at: params.pause_collection.resumes_at ? Number(params.pause_collection.resumes_at) : null,
                };
        }
        return { status: 200, body: subscription };
      }
    }
    if (method === 'POST' && pathname === '/v1/setup_intents') {
      const intentId = id('seti');
      const setupIntent = cloneFixture('setup_intent', {
        id: intentId,
        client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
        created: Math.floor(Date.now() / 1000),
        customer: params.customer ?? null,
        last_setup_error: null,
        metadata: params.metadata ?? {},
        next_action: null,
        payment_method_types: params.payment_method_types ?? ['card'],
        usage: params.usage ?? 'off_session',
      });
      fake.setupIntents.set(intentId, setupIntent);
      return { status: 200, body: setupIntent };
    }
    for (const [kind, store] of [
      ['mandates', fake.mandates],
      ['payment_methods', fake.paymentMethods],
      ['setup_intents', fake.setupIntents],
    ] as const) {
      if (method === 'GET' && (m = new RegExp(`^/v1/${kind}/([^/]+)$`).exec(pathname))) {
        const found = store.get(m[1]);
        return found ? { status: 200, body: found } : missing(kind.replace(/s$/, ''), m[1]);
      }
    }
    if (method === 'POST' && pathname === '/v1/billing_portal/sessions') {
      if (!fake.customers.has(params.customer)) return missing('customer', params.customer);
      const session = fromFixture('billing_portal.session', {
        id: id('bps'),
        created: Math.floor(Date.now() / 1000),
        customer: params.customer,
        return_url: params.return_url ?? null,
        flow: params.flow_data
          ? {
              ...params.flow_data,
              after_completion: { type: 'portal_homepage', hosted_confirmation: null, redirect: null },
            }
          : null,
        url: `https://billing.stripe.com/p/session/test_${randomBytes(12).toString('hex')}`,
      });
      fake.portalSessions.set(session.id as string, session);
      return { status: 200, body: session };
    }
    if (method === 'GET' && pathname === '/v1/invoice_payments') {
      const intentId = params.payment?.payment_intent;
      const invoiceId = intentId ? fake.invoicePayments.get(intentId) : undefined;
      const data = invoiceId
        ? [
            invoicePaymentObject({
              invoice: invoiceId,
              payment_intent: intentId,
              amount: (fake.invoices.get(invoiceId)?.amount_due as number) ?? 0,
            }),
          ]
        : [];
      return { status: 200, body: { object: 'list', url: '/v1/invoice_payments', has_more: false, data } };
    }
    if (method === 'GET' && (m = /^\/v1\/charges\/([^/]+)$/.exec(pathname))) {
      const charge = fake.charges.get(m[1]);
      if (!charge) return missing('charge', m[1]);
      return { status: 200, body: expanded(charge, params.expand) };
    }
    if (method === 'GET' && pathname === '/v1/charges') {
      // Newest first, as Stripe lists; `created[gte|gt|lte|lt]`, `limit` and `starting_after` as it pages.
      const intentId = params.payment_intent;
      const data = [...fake.charges.values()]
        .reverse()
        .filter((c) => (!intentId || c.payment_intent === intentId) && withinCreated(c.created, params.created));
      const limit = Math.min(Math.max(Number(params.limit ?? 10) || 10, 1), 100, fake.listPageCap);
      const after = params.starting_after ? data.findIndex((c) => c.id === params.starting_after) + 1 : 0;
      const page = data.slice(after, after + limit).map((c) => expanded(c, stripListPrefix(params.expand)));
      return {
        status: 200,
        body: { object: 'list', url: '/v1/charges', has_more: after + limit < data.length, data: page },
      };
    }
    if (method === 'POST' && pathname === '/v1/refunds') {
      if (fake.refuseNextRefund) {
        const code = fake.refuseNextRefund;
        fake.refuseNextRefund = null;
        return { status: 400, body: { error: { type: 'invalid_request_error', code, message: `Refused: ${code}` } } };
      }
      const intent = params.payment_intent ? fake.paymentIntents.get(params.payment_intent) : undefined;
      const chargeId = params.charge ?? intent?.latest_charge;
      const charge = chargeId ? fake.charges.get(chargeId) : undefined;
      if (!charge)
        return params.charge
          ? missing('charge', params.charge)
          : missing('payment_intent', params.payment_intent ?? '');
      const remaining = charge.amount - charge.amount_refunded;
      const amount = params.amount === undefined ? remaining : Number(params.amount);
      if (remaining <= 0) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: `Charge ${charge.id} has already been refunded.`,
            },
          },
        };
      }
      if (!Number.isInteger(amount) || amount <= 0 || amount > remaining) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'amount_too_large',
              param: 'amount',
              message: `Refund amount (£${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (£${(remaining / 100).toFixed(2)})`,
            },
          },
        };
      }
      const { sourceId: refundId, txnId } = debit('refund', amount, 'REFUND FOR CHARGE');
      const refund = refundObject({
        id: refundId,
        amount,
        charge: charge.id,
        payment_intent: charge.payment_intent,
        balance_transaction: txnId,
        metadata: params.metadata ?? {},
      });
      if (params.reason) refund.reason = params.reason;
      fake.refunds.set(refundId, refund);
      charge.amount_refunded += amount;
      charge.refunded = charge.amount_refunded >= charge.amount;
      charge.refunds.data.unshift(refund);
      return { status: 200, body: refund };
    }
    if (method === 'GET' && pathname === '/v1/refunds') {
      // Newest first, as Stripe lists them; filtered by PaymentIntent (through its charge) or charge.
      const intent = params.payment_intent ? fake.paymentIntents.get(params.payment_intent) : undefined;
      const chargeId = params.charge ?? (intent?.latest_charge as string | undefined);
      const data = [...fake.refunds.values()]
        .filter((r) => !chargeId || r.charge === chargeId)
        .reverse()
        .slice(0, Number(params.limit ?? 10));
      return { status: 200, body: { object: 'list', url: '/v1/refunds', has_more: false, data } };
    }
    if (method === 'GET' && (m = /^\/v1\/refunds\/([^/]+)$/.exec(pathname))) {
      const refund = fake.refunds.get(m[1]);
      return refund ? { status: 200, body: refund } : missing('refund', m[1]);
    }
    if (method === 'GET' && (m = /^\/v1\/payouts\/([^/]+)$/.exec(pathname))) {
      const payout = fake.payouts.get(m[1]);
      return payout ? { status: 200, body: payout } : missing('payout', m[1]);
    }
    if (method === 'GET' && (m = /^\/v1\/balance_transactions\/([^/]+)$/.exec(pathname))) {
      const txn = fake.balanceTransactions.get(m[1]);
      return txn ? { status: 200, body: txn } : missing('balance_transaction', m[1]);
    }
    if (method === 'GET' && pathname === '/v1/balance_transactions') {
      let data = [...fake.balanceTransactions.values()];
      if (params.payout) {
        const ids = fake.payoutTransactions.get(params.payout);
        if (!ids) return missing('payout', params.payout);
        data = ids.map((txnId) => fake.balanceTransactions.get(txnId)!);
      }
      if (params.type) data = data.filter((t) => t.type === params.type);
      const limit = Math.min(Math.max(Number(params.limit ?? 10) || 10, 1), 100, fake.listPageCap);
      const after = params.starting_after ? data.findIndex((t) => t.id === params.starting_after) + 1 : 0;
      const page = data
        .slice(after, after + limit)
        .map((t) => (stripListPrefix(params.expand).includes('source') ? { ...t, source: sourceObject(t.source) } : t));
      return {
        status: 200,
        body: { object: 'list', url: '/v1/balance_transactions', has_more: after + limit < data.length, data: page },
      };
    }
    if (method === 'GET' && (m = /^\/v1\/invoices\/([^/]+)$/.exec(pathname))) {
      const invoice = fake.invoices.get(m[1]);
      return invoice ? { status: 200, body: invoice } : missing('invoice', m[1]);
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${pathname})` } },
    };
  }

  /** `expand[]=balance_transaction` (the only expansion the fake's charges answer). */
  const expanded = (charge: Obj, expand: unknown): Obj => {
    const wanted = Array.isArray(expand) ? expand : [];
    if (!wanted.includes('balance_transaction') || typeof charge.balance_transaction !== 'string') return charge;
    return {
      ...charge,
      balance_transaction: fake.balanceTransactions.get(charge.balance_transaction) ?? charge.balance_transaction,
    };
  };
  /** `expand[]=data.source` on balance transactions: the charge, refund or payout it came from. */
  const sourceObject = (sourceId: unknown): unknown =>
    typeof sourceId === 'string'
      ? (fake.charges.get(sourceId) ?? fake.refunds.get(sourceId) ?? fake.payouts.get(sourceId) ?? sourceId)
      : sourceId;
  /** A list's `created` filter (`created=N`, or `created[gte]` and the like), on Unix seconds. */
  const withinCreated = (created: number, filter: unknown): boolean => {
    if (filter === undefined) return true;
    if (typeof filter === 'string') return created === Number(filter);
    const f = filter as Record<string, string>;
    return (
      (f.gte === undefined || created >= Number(f.gte)) &&
      (f.gt === undefined || created > Number(f.gt)) &&
      (f.lte === undefined || created <= Number(f.lte)) &&
      (f.lt === undefined || created < Number(f.lt))
    );
  };
  /** List endpoints name expansions of their items as `data.x`. */
  const stripListPrefix = (expand: unknown) =>
    Array.isArray(expand) ? expand.map((e) => String(e).replace(/^data\./, '')) : [];

  const missing = (kind: string, value: string) => ({
    status: 404,
    body: {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${value}'` },
    },
  });

  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    const request: FakeRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      body: parseForm(raw),
      idempotencyKey,
    };
    fake.requests.push(request);
    if (fake.failNext > 0) {
      fake.failNext--;
      return error(res, 500, 'api_error', 'Fake outage');
    }
    const replayKey = idempotencyKey && request.method === 'POST' ? `${request.path} ${idempotencyKey}` : null;
    const cached = replayKey ? replay.get(replayKey) : undefined;
    if (cached) {
      res.writeHead(cached.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      return res.end(cached.body);
    }
    if (fake.fail500Saved && request.method === 'POST') {
      const { made } = fake.fail500Saved;
      fake.fail500Saved = null;
      if (made) await route(request);
      const saved = JSON.stringify({ error: { type: 'api_error', message: 'Fake failure after the request started' } });
      if (replayKey) replay.set(replayKey, { status: 500, body: saved });
      res.writeHead(500, { 'content-type': 'application/json', 'request-id': id('req') });
      return res.end(saved);
    }
    const { status, body } = await route(request);
    const text = JSON.stringify(body);
    request.response = { status, body: JSON.parse(text) };
    if (replayKey && status < 500) replay.set(replayKey, { status, body: text });
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(text);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${fake.port}`;
  return fake;
}
