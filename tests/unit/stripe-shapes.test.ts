import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { donations } from '../../db/schema';
import type { MonthlyGiftRow } from '../../api/services/monthly-gifts/records';
import { createStripe } from '../../api/services/payments/stripe-client';
import { demoFailureEvent, demoSubscription, demoSuccessEvent } from '../../api/services/payments/demo-events';
import { STRIPE_FIXTURES } from '../../api/services/payments/stripe-fixtures';
import {
  balanceTransactionObject,
  mandateObject,
  payoutObject,
  setupIntentObject,
  stripeEvent,
  subscriptionObject as buildSubscription,
} from '../../api/services/payments/stripe-objects';
import { malformedEventReason } from '../../api/webhooks/stripe/shape';
import * as events from '../fixtures/stripe/events';
import { type StripeFake, startStripeFake } from '../mocks/stripe-fake';
import { expectStripeShape, stripeShapeProblems } from '../mocks/stripe-shapes';

/**
 * Every object the local Stripe fake answers, every test event and every demo-mode event has the
 * shape of Stripe's own example object (tests/mocks/stripe-shapes.ts), and the webhook's own
 * payload check (api/webhooks/stripe/shape.ts) accepts them.
 */

const meta = {
  kind: 'one_off',
  donation_id: 'd1',
  campaign_id: 'c1',
  appeal_id: '',
  donor_id: 'u1',
  gift_aid_declaration_id: '',
  source: 'stripe',
};

describe('the shape checker', () => {
  it('accepts each of Stripe fixtures as itself', () => {
    for (const resource of Object.keys(STRIPE_FIXTURES).filter((r) => r !== 'event')) {
      expect(stripeShapeProblems(resource, STRIPE_FIXTURES[resource]), resource).toEqual([]);
    }
  });

  it('fails a missing key, an extra key, a wrong type, a null Stripe never sends and a wrong object name', () => {
    const { amount: _amount, ...noAmount } = STRIPE_FIXTURES.payment_intent;
    expect(stripeShapeProblems('payment_intent', noAmount)).toEqual(['payment_intent.amount: missing']);
    expect(stripeShapeProblems('payment_intent', { ...STRIPE_FIXTURES.payment_intent, gift_aid: true })).toEqual([
      "payment_intent.gift_aid: not a field of Stripe's object",
    ]);
    expect(stripeShapeProblems('payment_intent', { ...STRIPE_FIXTURES.payment_intent, amount: '1099' })).toEqual([
      'payment_intent.amount: expected number, got string',
    ]);
    expect(stripeShapeProblems('payment_intent', { ...STRIPE_FIXTURES.payment_intent, status: null })).toEqual([
      'payment_intent.status: null, but Stripe never sends null here',
    ]);
    expect(stripeShapeProblems('refund', { ...STRIPE_FIXTURES.refund, object: 'charge' })).toEqual([
      'refund.object: expected "refund", got "charge"',
    ]);
    expect(stripeShapeProblems('charge', { ...STRIPE_FIXTURES.charge, metadata: { n: 1 } })).toEqual([
      'charge.metadata.n: metadata values are strings, got number',
    ]);
  });

  it('accepts nulls Stripe declares, and checks expanded ids and nested lists against their resource', () => {
    expect(
      stripeShapeProblems('payment_intent', {
        ...STRIPE_FIXTURES.payment_intent,
        last_payment_error: null,
        canceled_at: null,
      }),
    ).toEqual([]);
    const { fee: _fee, ...txnWithoutFee } = STRIPE_FIXTURES.balance_transaction;
    expect(
      stripeShapeProblems('charge', {
        ...STRIPE_FIXTURES.charge,
        balance_transaction: STRIPE_FIXTURES.balance_transaction,
      }),
    ).toEqual([]);
    expect(stripeShapeProblems('charge', { ...STRIPE_FIXTURES.charge, balance_transaction: txnWithoutFee })).toEqual([
      'charge.balance_transaction.fee: missing',
    ]);
    const refunds = {
      object: 'list',
      data: [{ ...STRIPE_FIXTURES.refund, amount: 'all' }],
      has_more: false,
      url: '/v1/refunds',
    };
    expect(stripeShapeProblems('charge', { ...STRIPE_FIXTURES.charge, refunds })).toEqual([
      'charge.refunds.data[0].amount: expected number, got string',
    ]);
  });

  it('checks an event envelope and the object it carries', () => {
    const good = stripeEvent('refund.created', STRIPE_FIXTURES.refund);
    expect(stripeShapeProblems('event', good)).toEqual([]);
    expect(stripeShapeProblems('event', { ...good, livemode: 'no' })).toEqual([
      'event.livemode: expected boolean, got string',
    ]);
    expect(
      stripeShapeProblems('event', stripeEvent('refund.created', { ...STRIPE_FIXTURES.refund, charge: 42 })),
    ).toEqual(['event.data.object.charge: expected string, got number']);
  });
});

describe('the local Stripe fake answers Stripe-shaped objects', () => {
  let fake: StripeFake;
  const exercised = new Set<string>();
  const stripe = () => createStripe({ stripeSecretKey: 'sk_test_fake', stripeApiBase: fake.url })!;

  beforeAll(async () => {
    fake = await startStripeFake();
  });
  afterAll(async () => {
    // Every object the fake answered, as it went over the wire (the SDK turns some fields into
    // classes), has Stripe's shape.
    let checked = 0;
    for (const request of fake.requests) {
      const answer = request.response;
      if (answer?.status !== 200 || answer.body.deleted === true) continue;
      const items = answer.body.object === 'list' ? (answer.body.data as Record<string, unknown>[]) : [answer.body];
      for (const item of items) {
        expect(stripeShapeProblems(String(item.object), item), `${request.method} ${request.path}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(25);
    // Each route the fake answers was called by this suite (a new endpoint must be added here).
    const routes = routesOfFake();
    const called = new Set(fake.requests.map((r) => `${r.method} ${template(r.path.split('?')[0])}`));
    for (const route of routes)
      expect([...called], `${route} is answered by the fake but not checked here`).toContain(route);
    await fake.close();
  });

  it('customers, payment intents, charges, refunds, balance transactions and payouts', async () => {
    const s = stripe();
    const customer = await s.customers.create({ email: 'donor@example.org', metadata: { donor_id: 'u1' } });
    await s.customers.retrieve(customer.id);

    const intent = await s.paymentIntents.create({
      amount: 2500,
      currency: 'gbp',
      customer: customer.id,
      metadata: meta,
    });
    const { charge, event } = fake.succeedPaymentIntent(intent.id);
    expectStripeShape('charge', charge);
    expectStripeShape('event', event);
    const paid = await s.paymentIntents.retrieve(intent.id);
    expect(paid.latest_charge).toBe(charge.id);

    const withFee = await s.charges.retrieve(charge.id, { expand: ['balance_transaction'] });
    // (The objects are checked as they went over the wire, in afterAll.)
    const txn = withFee.balance_transaction as { fee: number; net: number; amount: number };
    expect([txn.amount, txn.fee, txn.net]).toEqual([2500, 58, 2442]); // 1.5% + 20p
    const listed = await s.charges.list({ payment_intent: intent.id, expand: ['data.balance_transaction'] });
    expect(listed.data).toHaveLength(1);

    const refund = await s.refunds.create({ payment_intent: intent.id, amount: 1000 });
    await s.refunds.retrieve(refund.id);
    // A refund that got no answer is looked for by the reversal id we put in its metadata.
    const ofIntent = await s.refunds.list({ payment_intent: intent.id, limit: 100 });
    expect(ofIntent.data.map((r) => r.id)).toEqual([refund.id]);
    const refunded = await s.charges.retrieve(charge.id);
    expect(refunded.amount_refunded).toBe(1000);
    await expect(s.refunds.create({ payment_intent: intent.id, amount: 2000 })).rejects.toThrow(
      /greater than unrefunded amount/,
    );

    const payout = fake.createPayout();
    await s.payouts.retrieve(payout.id as string);
    const inPayout = await s.balanceTransactions.list({ payout: payout.id as string, limit: 100 });
    // The payout is the charge's net less the refund, and its own transaction takes it out.
    expect(payout.amount).toBe(2442 - 1000);
    expect(inPayout.data.map((t) => t.type).sort()).toEqual(['charge', 'payout', 'refund']);
    expect(inPayout.data.reduce((sum, t) => sum + t.net, 0)).toBe(0);
    await s.balanceTransactions.retrieve(inPayout.data[0].id);
    // payout.paid reads its lines with each source expanded, page by page (Stripe's cap is 100).
    fake.addBalanceTransaction({ amount: -150, type: 'adjustment', source: null });
    const second = await s.paymentIntents.create({ amount: 1200, currency: 'gbp', metadata: meta });
    fake.succeedPaymentIntent(second.id);
    const nextPayout = fake.createPayout();
    fake.listPageCap = 2;
    const pages = [];
    let after: string | undefined;
    do {
      const page = await s.balanceTransactions.list({
        payout: nextPayout.id as string,
        limit: 100,
        expand: ['data.source'],
        ...(after ? { starting_after: after } : {}),
      });
      pages.push(page);
      after = page.has_more ? page.data[page.data.length - 1].id : undefined;
    } while (after);
    fake.listPageCap = 100;
    const lines = pages.flatMap((p) => p.data);
    expect(pages.length).toBe(2);
    expect(lines.map((t) => t.type).sort()).toEqual(['adjustment', 'charge', 'payout']);
    expect((lines.find((t) => t.type === 'charge')!.source as { payment_intent: string }).payment_intent).toBe(
      second.id,
    );
    expect(lines.filter((t) => t.type !== 'payout').reduce((sum, t) => sum + t.net, 0)).toBe(nextPayout.amount);
    for (const type of ['payout.paid', 'payout.failed']) {
      const payout =
        type === 'payout.paid'
          ? nextPayout
          : {
              ...nextPayout,
              status: 'failed',
              failure_code: 'account_closed',
              failure_message: 'The bank account has been closed.',
            };
      const event = stripeEvent(type, payout);
      expectStripeShape('event', event);
      expectStripeShape('payout', payout);
      expect(malformedEventReason(event), type).toBeNull();
    }

    const other = await s.paymentIntents.create({ amount: 500, currency: 'gbp', metadata: meta });
    await s.paymentIntents.cancel(other.id);
    await s.customers.del(customer.id);
  });

  it('prices, subscriptions, invoices, invoice payments and portal sessions', async () => {
    const s = stripe();
    fake.addPrice('price_monthly_10', 1000);
    fake.addPrice('price_monthly_20', 2000);
    await s.prices.retrieve('price_monthly_10');
    expect((await s.prices.list({ active: true, currency: 'gbp' })).data).toHaveLength(2);

    const customer = await s.customers.create({ email: 'monthly@example.org' });
    for (const expand of [[], ['latest_invoice'], ['latest_invoice.confirmation_secret']]) {
      await s.subscriptions.create({
        customer: customer.id,
        items: [{ price: 'price_monthly_10' }],
        metadata: { ...meta, kind: 'monthly' },
        payment_behavior: 'default_incomplete',
        expand,
      });
    }
    const sub = [...fake.subscriptions.values()].at(-1)!;
    await s.invoices.retrieve(sub.latest_invoice.id);
    await s.subscriptions.retrieve(sub.id);
    const itemId = sub.items.data[0].id;
    await s.subscriptions.update(sub.id, {
      items: [{ id: itemId, price: 'price_monthly_20' }],
      proration_behavior: 'none',
    });
    await s.subscriptions.update(sub.id, {
      pause_collection: { behavior: 'void', resumes_at: Math.floor(Date.now() / 1000) + 86400 },
    });
    await s.subscriptions.cancel(sub.id);

    const intentId = [...fake.invoicePayments.keys()].at(-1)!;
    const payments = await s.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: intentId } });
    expect(payments.data).toHaveLength(1);

    // Bacs Direct Debit: a setup intent, then the donor's bank details make a payment method and a mandate.
    const setup = await s.setupIntents.create({ customer: customer.id });
    expect((await s.setupIntents.retrieve(setup.id)).id).toBe(setup.id);
    const bacsIntent = await s.paymentIntents.create({ amount: 1500, currency: 'gbp', customer: customer.id });
    const submitted = fake.submitBacs(bacsIntent.id);
    expect((await s.mandates.retrieve(submitted.mandate.id as string)).status).toBe('active');
    expect((await s.paymentMethods.retrieve(submitted.paymentMethod.id as string)).type).toBe('bacs_debit');

    const session = await s.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://127.0.0.1/back',
    });
    expect(session.url).toMatch(/^https:\/\/billing\.stripe\.com\//);
  });
});

describe('test events and demo-mode events', () => {
  const sub = { subscriptionId: 'sub_1', amount: 1000, metadata: { ...meta, kind: 'monthly' } };
  const built = {
    paymentIntentSucceeded: events.paymentIntentSucceeded({ intentId: 'pi_1', amount: 1000, metadata: meta }),
    paymentIntentFailed: events.paymentIntentFailed({ intentId: 'pi_1', amount: 1000, metadata: meta }),
    invoicePaid: events.invoicePaid({
      invoiceId: 'in_1',
      subscriptionId: 'sub_1',
      amount: 1000,
      metadata: meta,
      intentId: 'pi_2',
    }),
    invoicePaidRenewal: events.invoicePaid({
      invoiceId: 'in_2',
      subscriptionId: 'sub_1',
      amount: 1000,
      metadata: meta,
      first: false,
    }),
    invoicePaymentFailed: events.invoicePaymentFailed({
      invoiceId: 'in_1',
      subscriptionId: 'sub_1',
      amount: 1000,
      metadata: meta,
      first: false,
    }),
    chargeRefunded: events.chargeRefunded({ intentId: 'pi_1', amount: 1000, refunded: 400 }),
    refundFailed: events.refundFailed({ intentId: 'pi_1', amount: 400 }),
    subscriptionUpdated: events.subscriptionUpdated({
      ...sub,
      pauseResumesAt: Math.floor(Date.now() / 1000) + 86400,
      previous: { pause_collection: null },
    }),
    subscriptionDeleted: events.subscriptionDeleted({ ...sub, cancelComment: 'donor' }),
    mandateUpdated: events.mandateUpdated({ mandateId: 'mandate_1', status: 'inactive' }),
    paymentIntentProcessing: events.paymentIntentProcessing({
      intentId: 'pi_3',
      amount: 1000,
      metadata: meta,
      mandateId: 'mandate_1',
    }),
    chargeDispute: events.chargeDispute({
      type: 'charge.dispute.created',
      disputeId: 'du_1',
      intentId: 'pi_1',
      amount: 1000,
      status: 'needs_response',
    }),
  };

  it('every builder in tests/fixtures/stripe/events.ts makes a Stripe-shaped event the webhook accepts', () => {
    const exported = Object.entries(events)
      .filter(([, v]) => typeof v === 'function')
      .map(([k]) => k);
    const eventBuilders = exported.filter(
      (k) => !['fakeId', 'signature', 'sendEvent', 'subscriptionObject', 'mandateObject', 'giftMetadata'].includes(k),
    );
    expect(
      Object.keys(built)
        .map((k) => k.replace(/Renewal$/, ''))
        .sort(),
    ).toEqual(expect.arrayContaining(eventBuilders.sort()));
    for (const [name, event] of Object.entries(built)) {
      expect(stripeShapeProblems('event', event), name).toEqual([]);
      expect(malformedEventReason(event), name).toBeNull();
    }
    expectStripeShape('subscription', events.subscriptionObject(sub));
  });

  const row = (type: 'once' | 'monthly') =>
    ({
      id: 'd1',
      type,
      amount: 2500,
      campaignId: 'c1',
      appealId: null,
      donorId: 'u1',
      giftAidDeclarationId: null,
      paymentIntentId: 'pi_demo1',
      invoiceId: type === 'monthly' ? 'in_demo1' : null,
      subscriptionId: type === 'monthly' ? 'sub_demo1' : null,
    }) as unknown as typeof donations.$inferSelect;

  it('the demo mode sends what Stripe sends: success and failure, once and monthly, and subscription changes', () => {
    for (const type of ['once', 'monthly'] as const) {
      for (const event of [demoSuccessEvent(row(type)), demoFailureEvent(row(type))]) {
        expect(stripeShapeProblems('event', event), `${type} ${event.type}`).toEqual([]);
        expect(malformedEventReason(event)).toBeNull();
      }
    }
    const gift = {
      id: 'sub_demo1',
      amount: 1000,
      priceId: 'price_demo',
      status: 'active',
      firstDonationId: 'd1',
      campaignId: 'c1',
      appealId: null,
      donorId: 'u1',
      giftAidDeclarationId: null,
      startedAt: new Date(),
      nextPaymentAt: new Date(Date.now() + 86400_000),
      pauseResumesAt: null,
    } as unknown as MonthlyGiftRow;
    for (const change of [
      {},
      { status: 'canceled' as const, cancelledBy: 'donor' },
      { resumesAt: Math.floor(Date.now() / 1000) + 86400 },
      { amount: 2000, priceId: 'price_20' },
    ]) {
      const subscription = demoSubscription(gift, change);
      expectStripeShape('subscription', subscription);
      const event = stripeEvent('customer.subscription.updated', subscription, {
        previous_attributes: { status: 'active' },
      });
      expect(stripeShapeProblems('event', event)).toEqual([]);
      expect(malformedEventReason(event)).toBeNull();
    }
  });

  it('builders for the objects the back office and Direct Debit read: payouts, balance transactions, mandates, setup intents', () => {
    const txn = balanceTransactionObject({ amount: 1000, fee: 35, type: 'charge', source: 'ch_1' });
    expectStripeShape('balance_transaction', txn);
    expect(txn.net).toBe(965);
    expectStripeShape('payout', payoutObject({ amount: 965, balance_transaction: 'txn_1' }));
    expectStripeShape(
      'balance_transaction',
      balanceTransactionObject({ amount: -150, type: 'adjustment', source: null }),
    );
    expectStripeShape(
      'balance_transaction',
      balanceTransactionObject({ amount: -99, type: 'stripe_fee', source: null }),
    );
    expectStripeShape('mandate', mandateObject({ payment_method: 'pm_1', reference: 'NFP-ABC123' }));
    expectStripeShape(
      'setup_intent',
      setupIntentObject({ customer: 'cus_1', status: 'succeeded', payment_method: 'pm_1', mandate: 'mandate_1' }),
    );
    expectStripeShape('subscription', buildSubscription({ id: 'sub_1', amount: 500, metadata: {} }));
  });

  it("Stripe's own example objects pass the webhook's payload check for each event we handle", () => {
    const cases: [string, string][] = [
      ['payment_intent.succeeded', 'payment_intent'],
      ['payment_intent.payment_failed', 'payment_intent'],
      ['charge.refunded', 'charge'],
      ['refund.failed', 'refund'],
      ['customer.subscription.updated', 'subscription'],
      ['customer.subscription.deleted', 'subscription'],
    ];
    for (const [type, resource] of cases)
      expect(malformedEventReason(stripeEvent(type, STRIPE_FIXTURES[resource])), type).toBeNull();
    // invoice.paid needs a positive amount paid; the example invoice is a draft.
    expect(
      malformedEventReason(stripeEvent('invoice.paid', { ...STRIPE_FIXTURES.invoice, amount_paid: 1000 })),
    ).toBeNull();
    expect(malformedEventReason(stripeEvent('invoice.payment_failed', STRIPE_FIXTURES.invoice))).toBeNull();
    expect(malformedEventReason(stripeEvent('payout.paid', STRIPE_FIXTURES.payout))).toBeNull();
    expect(
      malformedEventReason(
        stripeEvent('payout.failed', { ...STRIPE_FIXTURES.payout, status: 'failed', failure_code: 'no_account' }),
      ),
    ).toBeNull();
  });
});

/** "GET /v1/charges/{id}" for every route the fake's source answers. */
function routesOfFake(): string[] {
  const source = readFileSync(path.join(import.meta.dirname, '../mocks/stripe-fake.ts'), 'utf8');
  const routes = new Set<string>();
  for (const m of source.matchAll(/method === '([A-Z]+)' && pathname === '([^']+)'/g)) routes.add(`${m[1]} ${m[2]}`);
  for (const m of source.matchAll(/method === '([A-Z]+)' && \(m = \/\^(.+?)\$\/\.exec\(pathname\)\)/g))
    routes.add(`${m[1]} ${m[2].replace(/\\\//g, '/').replace(/\(\[\^\/\]\+\)/g, '{id}')}`);
  // Subscriptions answer GET, POST and DELETE on one pattern.
  for (const method of ['GET', 'POST', 'DELETE']) routes.add(`${method} /v1/subscriptions/{id}`);
  return [...routes].sort();
}

function template(pathname: string): string {
  const parts = pathname.split('/'); // ['', 'v1', resource, id?, action?]
  if (parts[2] === 'billing_portal' || parts.length < 4) return pathname;
  parts[3] = '{id}';
  return parts.join('/');
}
