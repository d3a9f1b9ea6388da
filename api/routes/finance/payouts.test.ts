import type { InferRequestType } from 'hono/client';
import { eq } from 'drizzle-orm';
import { chunks } from '../../../db/chunks';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { donationReversals, donations, invoiceRetries, payoutLines, payouts } from '../../../db/schema';
import { cardFeeOn } from '../../../domain';
import {
  createCampaign,
  createDonation,
  createMonthlyGift,
  createOrganization,
  createPendingCardGift,
  createUser,
  signedIn,
  type SignedIn,
} from '../../../tests/factories';
import {
  fakeId,
  giftMetadata,
  invoicePaymentFailed,
  paymentIntentSucceeded,
} from '../../../tests/fixtures/stripe/events';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp, type TestClient } from '#test-app';
import { DEMO_PAYOUTS, demoPayoutId, makeDemoPayouts } from '../../services/finance/payouts-demo';
import {
  balanceTransactionObject,
  chargeObject,
  payoutObject,
  refundObject,
  stripeEvent,
} from '../../services/payments/stripe-objects';
import { applyStripeEvent } from '../../webhooks/stripe/apply';
import type { WebhookContext } from '../../webhooks/stripe/types';

/**
 * Payouts (both engines, and Turso): recorded from payout.paid / payout.failed exactly once and in
 * any order, each line matched to its gift, refund or nothing; read by finance readers only.
 * Stripe is answered in process at the SDK's HTTP boundary (its fetch), with objects built from
 * Stripe's fixtures (api/services/payments/stripe-objects.ts, checked by tests/unit/stripe-shapes.test.ts),
 * so this runs inside workerd too; payouts.stripe.node.test.ts drives the same path against the
 * local Stripe fake over the network.
 */

type Obj = Record<string, any>;

/** A Stripe account in process: balance transactions per payout (pages of 2), and charges. */
function accountOf() {
  const byPayout = new Map<string, Obj[]>();
  const charges = new Map<string, Obj>();
  const sources = new Map<string, Obj>();
  const requests: string[] = [];
  let failCharges = false;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'request-id': 'req_test' },
    });
  const fetchFn = async (input: RequestInfo | URL) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    requests.push(`${url.pathname}${url.search}`);
    // The SDK sends arrays as expand[0]=…, expand[1]=….
    const expand = [...url.searchParams].filter(([key]) => key.startsWith('expand')).map(([, value]) => value);
    if (url.pathname === '/v1/balance_transactions') {
      const payout = url.searchParams.get('payout') ?? '';
      const all = byPayout.get(payout);
      if (!all)
        return json(404, {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payout: '${payout}'` },
        });
      const after = url.searchParams.get('starting_after');
      const start = after ? all.findIndex((t) => t.id === after) + 1 : 0;
      const page = all
        .slice(start, start + 2)
        .map((t) => (expand.includes('data.source') ? { ...t, source: sources.get(t.source) ?? t.source } : t));
      return json(200, {
        object: 'list',
        url: '/v1/balance_transactions',
        has_more: start + 2 < all.length,
        data: page,
      });
    }
    if (url.pathname === '/v1/charges') {
      if (failCharges) return json(500, { error: { type: 'api_error', message: 'Stripe is having a moment' } });
      const pi = url.searchParams.get('payment_intent');
      const data = [...charges.values()]
        .filter((c) => c.payment_intent === pi)
        .map((c) =>
          expand.includes('data.balance_transaction')
            ? { ...c, balance_transaction: sources.get(`txn:${c.balance_transaction}`) }
            : c,
        );
      return json(200, { object: 'list', url: '/v1/charges', has_more: false, data });
    }
    return json(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (GET: ${url.pathname})` },
    });
  };
  const stripe = new Stripe('sk_test_inprocess', {
    httpClient: Stripe.createFetchHttpClient(fetchFn as typeof fetch),
    maxNetworkRetries: 0,
  });
  return {
    stripe,
    requests,
    failChargeLookups: (on: boolean) => {
      failCharges = on;
    },
    /** A paid card gift's charge and its balance transaction (UK card fee). */
    charge(paymentIntentId: string, amount: number) {
      const chargeId = fakeId('ch');
      const txn = balanceTransactionObject({ amount, fee: cardFeeOn(amount), type: 'charge', source: chargeId });
      const charge = chargeObject({
        id: chargeId,
        amount,
        payment_intent: paymentIntentId,
        metadata: {},
        balance_transaction: txn.id as string,
      });
      charges.set(chargeId, charge);
      sources.set(chargeId, charge);
      sources.set(`txn:${txn.id}`, txn);
      return txn;
    },
    refund(refundId: string, paymentIntentId: string, amount: number) {
      const txn = balanceTransactionObject({ amount: -amount, type: 'refund', source: refundId });
      sources.set(
        refundId,
        refundObject({ id: refundId, amount, payment_intent: paymentIntentId, balance_transaction: txn.id as string }),
      );
      return txn;
    },
    /** A payout of these transactions (its own transaction, as Stripe lists it, is added). */
    payout(txns: Obj[], status: 'paid' | 'failed' = 'paid') {
      const id = fakeId('po');
      const amount = txns.reduce((sum, t) => sum + t.net, 0);
      const own = balanceTransactionObject({ amount: -amount, type: 'payout', source: id, status: 'available' });
      byPayout.set(id, [...txns, own]);
      return payoutObject({ id, amount, balance_transaction: own.id as string, status }) as Obj & {
        id: string;
        amount: number;
      };
    },
  };
}

let t: TestApp;
let orgX: string;
let orgY: string;
let campaignX: string;
let campaignY: string;
let donorId: string;
let finance: SignedIn;
let admin: SignedIn;
let otherOrgAdmin: SignedIn;
let donor: SignedIn;
beforeAll(async () => {
  t = await setupTestApp();
  orgX = (await createOrganization(t.db)).id;
  orgY = (await createOrganization(t.db)).id;
  campaignX = (await createCampaign(t.db, { organizationId: orgX })).id;
  campaignY = (await createCampaign(t.db, { organizationId: orgY })).id;
  donorId = (await createUser(t.db)).id;
  finance = await signedIn(t.db, 'finance', { organizationIds: [orgX] });
  admin = await signedIn(t.db, 'admin');
  otherOrgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [orgY] });
  donor = await signedIn(t.db, 'donor');
});

const gift = (campaignId: string, amount: number, extra: Partial<typeof donations.$inferInsert> = {}) =>
  createDonation(t.db, { donorId, campaignId, amount, source: 'card', paymentIntentId: fakeId('pi'), ...extra });
const payoutRow = async (id: string) => (await t.db.select().from(payouts).where(eq(payouts.id, id)))[0];
const linesOf = (id: string) => t.db.select().from(payoutLines).where(eq(payoutLines.payoutId, id));
const giftRow = async (id: string) => (await t.db.select().from(donations).where(eq(donations.id, id)))[0];
/** A Stripe event applied as the webhook applies it, with `stripe` (null: demo mode) to look things up. */
const apply = (stripe: WebhookContext['stripe'], evt: Stripe.Event) => applyStripeEvent({ db: t.db, stripe }, evt);
const event = (type: 'payout.paid' | 'payout.failed', payout: Obj, created: number) =>
  stripeEvent(type, payout, { created });

/** The payout as Stripe sends it in payout.failed: the bank's failure code and message. */
const failedPayout = (payout: Obj, code: string, message: string) => ({
  ...payout,
  status: 'failed',
  failure_code: code,
  failure_message: message,
});

/** Two gifts to Org X, one partly refunded, an adjustment nobody's gift and a Stripe fee: one payout. */
async function paidPayout(account = accountOf()) {
  const a = await gift(campaignX, 2500);
  const b = await gift(campaignX, 4000);
  const refundId = fakeId('re');
  await t.db.insert(donationReversals).values({
    donationId: b.id,
    kind: 'refund',
    amount: 1000,
    reason: 'requested_by_customer',
    status: 'succeeded',
    providerId: refundId,
  });
  const txns = [
    account.charge(a.paymentIntentId!, 2500),
    account.charge(b.paymentIntentId!, 4000),
    account.refund(refundId, b.paymentIntentId!, 1000),
    balanceTransactionObject({
      amount: -150,
      type: 'adjustment',
      source: null,
      description: 'Chargeback withdrawal correction',
    }),
    balanceTransactionObject({ amount: -99, type: 'stripe_fee', source: null, description: 'Radar fees' }),
  ];
  const payout = account.payout(txns);
  return { account, a, b, refundId, txns, payout };
}

describe(`payout.paid and payout.failed (${engineName})`, () => {
  it('records the payout once with every line (followed across pages), its amount equal to the lines’ net', async () => {
    const { account, a, b, refundId, payout } = await paidPayout();
    const evt = event('payout.paid', payout, 1_800_000_000);
    expect(await apply(account.stripe, evt)).toBe('recorded');
    // Three pages of two: the SDK followed starting_after to the end.
    expect(account.requests.filter((r) => r.startsWith('/v1/balance_transactions')).length).toBe(3);
    const row = await payoutRow(payout.id);
    const lines = await linesOf(payout.id);
    expect(lines).toHaveLength(5);
    expect(row).toMatchObject({
      status: 'paid',
      amount: payout.amount,
      lineCount: 5,
      grossPence: 6500,
      refundPence: 1000,
      feePence: cardFeeOn(2500) + cardFeeOn(4000),
      organizationId: orgX,
    });
    expect(lines.reduce((sum, l) => sum + l.net, 0)).toBe(row.amount);
    expect(row.amount).toBe(6500 - cardFeeOn(2500) - cardFeeOn(4000) - 1000 - 150 - 99);
    // Charges name their gifts (which learn the payout and their fee), the refund its reversal row.
    expect(
      lines
        .filter((l) => l.type === 'charge')
        .map((l) => l.donationId)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(await giftRow(a.id)).toMatchObject({
      payoutId: payout.id,
      feePence: cardFeeOn(2500),
      netPence: 2500 - cardFeeOn(2500),
    });
    const [reversal] = await t.db.select().from(donationReversals).where(eq(donationReversals.providerId, refundId));
    expect(reversal).toMatchObject({ payoutId: payout.id, feePence: 0 });
    expect(lines.find((l) => l.type === 'refund')?.donationId).toBe(b.id);
    // Lines we hold no gift for are kept, unmatched.
    expect(
      lines
        .filter((l) => l.donationId === null)
        .map((l) => l.type)
        .sort(),
    ).toEqual(['adjustment', 'stripe_fee']);

    // The same event again, and a second delivery of payout.paid: nothing more is written.
    expect(await apply(account.stripe, evt)).toBe('duplicate');
    expect(await apply(account.stripe, event('payout.paid', payout, 1_800_000_001))).toBe('recorded');
    expect(await t.db.select().from(payouts).where(eq(payouts.id, payout.id))).toHaveLength(1);
    expect(await linesOf(payout.id)).toHaveLength(5);
    expect(await payoutRow(payout.id)).toMatchObject({ amount: row.amount, lineCount: 5, grossPence: 6500 });
  });

  it('failed is final: failed then an older paid stays failed; paid then failed unlinks the gifts', async () => {
    const first = await paidPayout();
    const failed = failedPayout(first.payout, 'account_closed', 'The bank account has been closed.');
    await apply(first.account.stripe, event('payout.failed', failed, 1_800_000_100));
    await apply(first.account.stripe, event('payout.paid', first.payout, 1_800_000_050));
    expect(await payoutRow(first.payout.id)).toMatchObject({ status: 'failed', failureCode: 'account_closed' });
    // The money went back to the Stripe balance: the gifts wait for the next payout.
    expect((await giftRow(first.a.id)).payoutId).toBeNull();
    expect(await linesOf(first.payout.id)).toHaveLength(5);

    const second = await paidPayout();
    await apply(second.account.stripe, event('payout.paid', second.payout, 1_800_000_100));
    expect((await giftRow(second.a.id)).payoutId).toBe(second.payout.id);
    const bounced = failedPayout(second.payout, 'no_account', 'No such account.');
    await apply(second.account.stripe, event('payout.failed', bounced, 1_800_000_200));
    expect(await payoutRow(second.payout.id)).toMatchObject({
      status: 'failed',
      failureCode: 'no_account',
      failureMessage: 'No such account.',
    });
    expect((await giftRow(second.a.id)).payoutId).toBeNull();
    expect(
      (await t.db.select().from(donationReversals).where(eq(donationReversals.providerId, second.refundId)))[0]
        .payoutId,
    ).toBeNull();
  });

  it('keeps a line of a kind it does not know, and acknowledges a payout with no lines, never a 500', async () => {
    const account = accountOf();
    const odd = {
      ...balanceTransactionObject({ amount: 500, type: 'adjustment', source: null }),
      type: 'climate_order_refund',
      source: 'xyz_unknown',
    };
    const payout = account.payout([odd]);
    expect(await apply(account.stripe, event('payout.paid', payout, 1_800_000_300))).toBe('recorded');
    expect(await linesOf(payout.id)).toMatchObject([
      { type: 'climate_order_refund', sourceId: 'xyz_unknown', donationId: null, net: 500 },
    ]);
    // A malformed payout is acknowledged and ignored.
    expect(await apply(account.stripe, event('payout.paid', { ...payout, amount: 'lots' }, 1_800_000_301))).toBe(
      'ignored',
    );
  });
});

describe(`fees from the balance transaction (${engineName})`, () => {
  async function pendingCardGift(amount: number, intentId: string) {
    const id = await createPendingCardGift(t.db, { amount, donorId, campaignId: campaignX, paymentIntentId: intentId });
    const metadata = giftMetadata({ donationId: id, campaignId: campaignX, donorId });
    return { id, metadata };
  }

  it('stores Stripe’s fee and net when the payment succeeds', async () => {
    const account = accountOf();
    const intentId = fakeId('pi');
    const g = await pendingCardGift(2000, intentId);
    const txn = account.charge(intentId, 2000);
    expect(await apply(account.stripe, paymentIntentSucceeded({ intentId, amount: 2000, metadata: g.metadata }))).toBe(
      'recorded',
    );
    expect(await giftRow(g.id)).toMatchObject({
      status: 'succeeded',
      feePence: cardFeeOn(2000),
      netPence: 2000 - cardFeeOn(2000),
      balanceTransactionId: txn.id,
    });
  });

  it('records the gift when the fee cannot be looked up; its payout fills the fee in later', async () => {
    const account = accountOf();
    const intentId = fakeId('pi');
    const g = await pendingCardGift(3000, intentId);
    const txn = account.charge(intentId, 3000);
    account.failChargeLookups(true);
    expect(await apply(account.stripe, paymentIntentSucceeded({ intentId, amount: 3000, metadata: g.metadata }))).toBe(
      'recorded',
    );
    expect(await giftRow(g.id)).toMatchObject({ status: 'succeeded', feePence: null, netPence: null });
    const payout = account.payout([txn]);
    await apply(account.stripe, event('payout.paid', payout, 1_800_000_400));
    expect(await giftRow(g.id)).toMatchObject({
      feePence: cardFeeOn(3000),
      netPence: 3000 - cardFeeOn(3000),
      balanceTransactionId: txn.id,
      payoutId: payout.id,
    });
  });

  it('demo payments store the fee the /fees page states', async () => {
    const intentId = `pi_demo${crypto.randomUUID().replace(/-/g, '')}`;
    const g = await pendingCardGift(1000, intentId);
    await apply(null, paymentIntentSucceeded({ intentId, amount: 1000, metadata: g.metadata }));
    expect(await giftRow(g.id)).toMatchObject({ feePence: 35, netPence: 965 });
  });
});

describe(`demo mode's daily payout (${engineName})`, () => {
  it('pays out each organization’s settled demo gifts once a day, less refunds, at the /fees rate', async () => {
    const org = (await createOrganization(t.db)).id;
    const campaign = (await createCampaign(t.db, { organizationId: org })).id;
    const now = new Date('2031-03-10T09:00:00Z');
    const yesterday = new Date('2031-03-09T15:00:00Z');
    const a = await gift(campaign, 1000, { source: 'demo', date: yesterday });
    const b = await gift(campaign, 5000, { source: 'demo', date: yesterday, feePence: 95, netPence: 4905 });
    await t.db.insert(donationReversals).values({
      donationId: b.id,
      kind: 'refund',
      amount: 500,
      reason: 'duplicate',
      status: 'succeeded',
      succeededAt: yesterday,
    });
    // Not yet: paid today, a card gift, an old gift from before the demo's window.
    const today = await gift(campaign, 700, { source: 'demo', date: new Date('2031-03-10T08:00:00Z') });
    await gift(campaign, 900, { source: 'card', date: yesterday });
    await gift(campaign, 800, {
      source: 'demo',
      date: new Date(now.getTime() - (DEMO_PAYOUTS.lookbackDays + 2) * 86_400_000),
    });

    expect(await makeDemoPayouts(t.db, now)).toBeGreaterThanOrEqual(1);
    const id = demoPayoutId(org, '2031-03-10');
    const row = await payoutRow(id);
    const lines = await linesOf(id);
    expect(row).toMatchObject({
      status: 'paid',
      organizationId: org,
      amount: 1000 - 35 + 4905 - 500,
      grossPence: 6000,
      refundPence: 500,
      lineCount: 3,
    });
    expect(lines.reduce((sum, l) => sum + l.net, 0)).toBe(row.amount);
    expect(await giftRow(a.id)).toMatchObject({ payoutId: id, feePence: 35, netPence: 965 });
    expect((await giftRow(today.id)).payoutId).toBeNull();
    // A second run the same day makes nothing; the next day pays out today's gift.
    expect(await makeDemoPayouts(t.db, new Date('2031-03-10T21:00:00Z'))).toBe(0);
    expect(await linesOf(id)).toHaveLength(3);
    await makeDemoPayouts(t.db, new Date('2031-03-11T09:00:00Z'));
    expect((await giftRow(today.id)).payoutId).toBe(demoPayoutId(org, '2031-03-11'));
  });
});

describe(`GET /api/finance/payouts (${engineName})`, () => {
  let xPayout: string;
  let yPayout: string;
  beforeAll(async () => {
    const account = accountOf();
    const x = await gift(campaignX, 1200);
    const y = await gift(campaignY, 3400);
    const px = account.payout([account.charge(x.paymentIntentId!, 1200)]);
    const py = account.payout([account.charge(y.paymentIntentId!, 3400)]);
    await apply(account.stripe, event('payout.paid', { ...px, arrival_date: 1_900_000_000 }, 1_800_001_000));
    await apply(account.stripe, event('payout.paid', { ...py, arrival_date: 1_900_000_000 }, 1_800_001_000));
    xPayout = px.id;
    yPayout = py.id;
  });
  type PayoutQuery = InferRequestType<TestClient['api']['finance']['payouts']['$get']>['query'];
  /** `token: null` reads signed out. */
  const list = (token: string | null, query: PayoutQuery = {}) =>
    t.client(token ?? undefined).api.finance.payouts.$get({ query });
  const detail = (token: string, id: string) => t.client(token).api.finance.payouts[':id'].$get({ param: { id } });

  it('finance users see their organization’s payouts with lines linking to gifts; others are refused', async () => {
    const ids = (await bodyOf(await list(finance.token, { limit: '200' }), 200)).map((p) => p._id);
    expect(ids).toContain(xPayout);
    expect(ids).not.toContain(yPayout);
    const body = await bodyOf(await detail(finance.token, xPayout), 200);
    expect(body.partial).toBe(false);
    expect(body.lines_net).toBe(body.amount);
    expect(body.lines[0]).toMatchObject({ type: 'charge', donation_id: expect.any(String) });

    expect((await detail(finance.token, yPayout)).status).toBe(403);
    expect((await detail(otherOrgAdmin.token, xPayout)).status).toBe(403);
    expect((await list(donor.token)).status).toBe(403);
    expect((await detail(donor.token, xPayout)).status).toBe(403);
    expect((await list(null)).status).toBe(401);
    expect((await list(finance.token, { organization_id: orgY })).status).toBe(403);
    expect((await detail(admin.token, 'po_missing')).status).toBe(404);
  });

  it('a mixed payout shows an organization the figures of its own lines only, never the whole', async () => {
    // One payout holding a gift of Org X (£12) and one of Org Y (£98.76), each less its fee.
    const account = accountOf();
    const x = await gift(campaignX, 1200);
    const y = await gift(campaignY, 9876);
    const mixed = account.payout([account.charge(x.paymentIntentId!, 1200), account.charge(y.paymentIntentId!, 9876)]);
    await apply(account.stripe, event('payout.paid', { ...mixed, arrival_date: 1_900_100_000 }, 1_800_002_000));
    const whole = await bodyOf(await detail(admin.token, mixed.id), 200);
    expect(whole).toMatchObject({ partial: false, gross_pence: 1200 + 9876, line_count: 2 });
    const xFee = cardFeeOn(1200);

    const own = await bodyOf(await detail(finance.token, mixed.id), 200);
    expect(own).toMatchObject({
      partial: true,
      amount: 1200 - xFee,
      gross_pence: 1200,
      fee_pence: xFee,
      refund_pence: 0,
      line_count: 1,
      lines_net: 1200 - xFee,
    });
    expect(own.lines).toHaveLength(1);
    const listed = (await bodyOf(await list(finance.token, { limit: '200' }), 200)).find((p) => p._id === mixed.id);
    expect(listed).toMatchObject({ partial: true, amount: 1200 - xFee, gross_pence: 1200, line_count: 1 });
    // Nothing of Org Y's £98.76 can be worked out from what Org X reads.
    expect(JSON.stringify([own, listed])).not.toMatch(new RegExp(String(whole.amount)));
    expect(JSON.stringify([own, listed])).not.toMatch(/9876|11076/);
  });

  it('lists a full page of mixed payouts for an organization, past the database’s 100 bound values', async () => {
    const x = await gift(campaignX, 700);
    const y = await gift(campaignY, 900);
    const many = Array.from({ length: 120 }, (_, i) => `po_many_${i}`);
    for (const ids of chunks(many, 5)) {
      await t.db.insert(payouts).values(
        ids.map((id) => ({
          id,
          amount: 1600,
          status: 'paid' as const,
          arrivalDate: new Date(2_100_000_000_000),
          lineCount: 2,
        })),
      );
      await t.db.insert(payoutLines).values(
        ids.flatMap((id) => [
          { payoutId: id, balanceTransactionId: `${id}_x`, type: 'charge', donationId: x.id, amount: 700, net: 700 },
          { payoutId: id, balanceTransactionId: `${id}_y`, type: 'charge', donationId: y.id, amount: 900, net: 900 },
        ]),
      );
    }
    const page = await bodyOf(await list(finance.token, { limit: '200' }), 200);
    const listed = page.filter((p) => p._id.startsWith('po_many_'));
    expect(listed).toHaveLength(120);
    expect(listed.every((p) => p.partial && p.amount === 700 && p.line_count === 1)).toBe(true);
  });

  it('admins see every payout, filtered by organization, arrival day and status, paged', async () => {
    const byOrg = await list(admin.token, { organization_id: orgY, limit: '200' });
    expect((await bodyOf(byOrg, 200)).map((p) => p._id)).toContain(yPayout);
    const day = new Date(1_900_000_000_000).toISOString().slice(0, 10);
    const onDay = await list(admin.token, { from: day, to: day, status: 'paid', limit: '1' });
    expect(Number(onDay.headers.get('x-total-count'))).toBe(2);
    expect(await bodyOf(onDay, 200)).toHaveLength(1);
    const bad = await list(admin.token, { from: 'yesterday', limit: '0' });
    expect((await errorOf(bad, 400)).message).toMatch(/from: enter a date|limit: at least 1/);
  });
});

describe(`failed-payments queue: Stripe's retry date (${engineName})`, () => {
  it('stores invoice.next_payment_attempt on the monthly gift and lists it; an older failure changes nothing', async () => {
    const subscriptionId = fakeId('sub');
    await createMonthlyGift(t.db, {
      id: subscriptionId,
      donorId,
      campaignId: campaignX,
      status: 'past_due',
      source: 'card',
      startedAt: new Date(),
    });
    await createDonation(t.db, {
      donorId,
      campaignId: campaignX,
      amount: 1000,
      type: 'monthly',
      source: 'card',
      subscriptionId,
      invoiceId: fakeId('in'),
      date: new Date(Date.now() - 40 * 86_400_000),
    });
    const invoiceId = fakeId('in');
    const failed = invoicePaymentFailed({ invoiceId, subscriptionId, amount: 1000, metadata: {}, first: false });
    expect(await apply(null, failed)).toBe('recorded');
    const retry = (failed.data.object as { next_payment_attempt: number }).next_payment_attempt * 1000;
    // An earlier attempt's failure of the same invoice (delivered late) says "no retry": ignored.
    const older = invoicePaymentFailed({ invoiceId, subscriptionId, amount: 1000, metadata: {}, first: false });
    await apply(null, {
      ...older,
      created: failed.created - 100,
      data: { object: { ...older.data.object, next_payment_attempt: null } },
    } as typeof older);
    expect(
      (await t.db.select().from(invoiceRetries).where(eq(invoiceRetries.invoiceId, invoiceId)))[0].retryAt?.getTime(),
    ).toBe(retry);
    const res = await t.client(admin.token).api['monthly-gifts'].$get({
      query: { failing: 'true', limit: '100', organization_id: orgX },
    });
    const row = (await bodyOf(res, 200)).find((g) => g._id === subscriptionId);
    expect(row?.last_failure?.retry_at).toBe(new Date(retry).toISOString());
  });
});
