import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { donations, prices, users } from '../../../db/schema';
import { createAppeal, createCampaign, createOrganization } from '../../../tests/factories';
import {
  chargeRefunded,
  fakeId,
  invoicePaid,
  paymentIntentSucceeded,
  refundFailed,
  sendEvent,
  WEBHOOK_SECRET,
} from '../../../tests/fixtures/stripe/events';
import { startStripeFake, stripeModeBindings, type StripeFake } from '../../../tests/mocks/stripe-fake';
import { bodyOf, errorOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

/** What a checkout takes, as the route's schema types it. */
type CheckoutBody = JsonOf<TestClient['api']['stripe']['client_secret']['$post']>;

/** The real Stripe SDK against a local fake of the Stripe API (Node only: it runs an HTTP server). */
let fake: StripeFake;
let t: TestApp;

beforeAll(async () => {
  fake = await startStripeFake();
  fake.addPrice('price_monthly_2500', 2500);
  fake.addPrice('price_monthly_500', 500);
  fake.addPrice('price_monthly_1000', 1000);
  fake.addPrice('price_usd', 1000, { currency: 'usd' });
  fake.addPrice('price_yearly', 1000, { interval: 'year' });
  // A monthly GBP Price in the Stripe account that the charity does not offer (not mirrored locally).
  fake.addPrice('price_not_offered', 100);
  t = await setupTestApp({ ...stripeModeBindings(fake), STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  // The prices we offer are mirrored in the local table (README), which is what the API lists.
  await t.db.insert(prices).values([
    { id: 'price_monthly_2500', unitAmount: 2500 },
    { id: 'price_monthly_500', unitAmount: 500 },
    { id: 'price_monthly_1000', unitAmount: 1000 },
    { id: 'price_monthly_retired', unitAmount: 300, active: false },
  ]);
});
afterAll(() => fake.close());

async function world() {
  const campaign = await createCampaign(t.db);
  const appeal = await createAppeal(t.db, campaign.id);
  const email = `fake.${crypto.randomUUID().slice(0, 8)}@example.com`;
  const rows = () => t.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
  const start = (json: Partial<CheckoutBody>) =>
    t.client().api.stripe.client_secret.$post({
      json: { email, campaign_id: campaign.id, appeal_id: appeal.id, ...json },
    });
  const total = async () =>
    (await bodyOf(await t.client().api.appeals[':id'].$get({ param: { id: appeal.id } }), 200)).summary.total_donations;
  return { campaign, appeal, email, rows, start, total };
}

describe('POST /api/stripe/client_secret with Stripe', () => {
  it('creates a GBP PaymentIntent with our metadata and an idempotency key, and no Stripe Customer', async () => {
    const w = await world();
    const body = await bodyOf(await w.start({ amount: 1500 }), 200);
    expect(body).toMatchObject({ mode: 'stripe', publishableKey: 'pk_test_fake', type: 'once', amount: 1500 });

    const [row] = await w.rows();
    const intent = fake.paymentIntents.get(row.paymentIntentId!)!;
    expect(body.clientSecret).toBe(intent.client_secret);
    expect(intent).toMatchObject({ amount: 1500, currency: 'gbp' });
    expect(intent.metadata).toEqual({
      kind: 'one_off',
      donation_id: row.id,
      campaign_id: w.campaign.id,
      appeal_id: w.appeal.id,
      donor_id: row.donorId,
      gift_aid_declaration_id: '',
      source: 'card',
    });
    const create = fake.requests.find(
      (r) => r.path === '/v1/payment_intents' && r.body.metadata?.donation_id === row.id,
    )!;
    expect(create.idempotencyKey).toBe(`donation-${row.id}`);
    // A one-off gift needs no Customer: none is made for a checkout that may never be paid.
    const [donor] = await t.db.select().from(users).where(eq(users.id, row.donorId));
    expect(intent.customer).toBeNull();
    expect(donor.stripeCustomerId).toBeNull();
    expect(fake.requests.some((r) => r.path === '/v1/customers' && r.body.metadata?.donor_id === row.donorId)).toBe(
      false,
    );
    expect(donor.origin).toBe('checkout');
    expect(row).toMatchObject({ status: 'pending', source: 'card' });

    // The webhook then settles it with Stripe's amount.
    await sendEvent(t, paymentIntentSucceeded({ intentId: intent.id, amount: 1500, metadata: intent.metadata }));
    expect((await w.rows())[0].status).toBe('succeeded');
    expect(await w.total()).toBe(1500);
  });

  it("creates an incomplete subscription and answers the first invoice's confirmation secret", async () => {
    const w = await world();
    const body = await bodyOf(await w.start({ price: 'price_monthly_1000' }), 200);
    const [row] = await w.rows();
    const subscription = fake.subscriptions.get(row.subscriptionId!)!;
    const create = fake.requests.find(
      (r) => r.path === '/v1/subscriptions' && r.body.metadata?.donation_id === row.id,
    )!;
    expect(create.body.payment_behavior).toBe('default_incomplete');
    expect(create.body.expand).toEqual(['latest_invoice.confirmation_secret']);
    expect(create.idempotencyKey).toBe(`donation-${row.id}`);
    expect(subscription.metadata.kind).toBe('monthly');
    expect(body.clientSecret).toBe(subscription.latest_invoice.confirmation_secret.client_secret);
    expect(row).toMatchObject({
      status: 'pending',
      type: 'monthly',
      amount: 1000,
      invoiceId: subscription.latest_invoice.id,
    });
    // A subscription needs a Customer (housekeeping deletes it if the first payment never happens).
    const [donor] = await t.db.select().from(users).where(eq(users.id, row.donorId));
    expect(donor.stripeCustomerId).toBe(subscription.customer);
    expect(body.clientSecret.startsWith(`${row.paymentIntentId}_secret_`)).toBe(true);

    const first = invoicePaid({
      invoiceId: row.invoiceId!,
      subscriptionId: subscription.id,
      amount: 1000,
      metadata: subscription.metadata,
    });
    await sendEvent(t, first);
    expect((await w.rows())[0]).toMatchObject({ status: 'succeeded' });
    expect(await w.total()).toBe(1000);

    // A refund of the monthly charge is found through its invoice payment.
    await sendEvent(t, chargeRefunded({ intentId: row.paymentIntentId!, amount: 1000, refunded: 1000 }));
    expect((await w.rows())[0]).toMatchObject({ status: 'refunded', refundedAmount: 1000 });
    expect(await w.total()).toBe(0);
  });

  it('records exactly once when the webhook arrives before the client hears back', async () => {
    const w = await world();
    fake.onCreate = async (kind, intent) => {
      if (kind !== 'payment_intent') return;
      const res = await sendEvent(
        t,
        paymentIntentSucceeded({ intentId: intent.id, amount: intent.amount, metadata: intent.metadata }),
      );
      expect(res.status).toBe(200);
    };
    try {
      const res = await w.start({ amount: 3300 });
      expect(res.status).toBe(200);
    } finally {
      fake.onCreate = undefined;
    }
    const rows = await w.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', amount: 3300 });
    expect(await w.total()).toBe(3300);
  });

  it('lists the active mirrored prices cheapest first, without asking Stripe', async () => {
    const before = fake.requests.length;
    const list = await bodyOf(await t.client().api.stripe.subscriptions.$get(), 200);
    expect(list.map((p) => p.id)).toEqual(['price_monthly_500', 'price_monthly_1000', 'price_monthly_2500']);
    expect(list[0]).toEqual({
      id: 'price_monthly_500',
      unit_amount: 500,
      currency: 'gbp',
      recurring: { interval: 'month' },
    });
    expect(fake.requests.length).toBe(before);
  });

  it('rejects prices that are not offered (unknown, retired, or only in the Stripe account) with 400 and creates nothing', async () => {
    const w = await world();
    const before = fake.requests.filter((r) => r.method === 'POST').length;
    for (const price of ['price_missing', 'price_usd', 'price_yearly', 'price_not_offered', 'price_monthly_retired']) {
      const res = await w.start({ price });
      expect((await errorOf(res, 400)).message).toMatch(/price: unknown monthly price/);
    }
    expect(fake.requests.filter((r) => r.method === 'POST').length).toBe(before);
    expect(await w.rows()).toHaveLength(0);
  });

  it('answers 502 without a pending gift when Stripe is down', async () => {
    const w = await world();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.failNext = 10;
    const res = await w.start({ amount: 900 });
    fake.failNext = 0;
    vi.restoreAllMocks();
    expect((await errorOf(res, 502)).message).toMatch(/payment provider could not start this payment/);
    expect(await w.rows()).toHaveLength(0);
  }, 30_000);
});

describe('the charity that receives the gift', () => {
  it('names the campaign organization’s charity in the payment description, and the platform’s charity otherwise', async () => {
    const org = await createOrganization(t.db, {
      name: 'Wells Trust',
      legalName: 'Wells for Hope Trust',
      charityNumber: '1234567',
    });
    const campaign = await createCampaign(t.db, { organizationId: org.id });
    const email = `charity.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const checkout = t.client().api.stripe.client_secret;
    const res = await checkout.$post({ json: { email, campaign_id: campaign.id, amount: 1000 } });
    expect(res.status).toBe(200);
    const [row] = await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
    expect(fake.paymentIntents.get(row.paymentIntentId!)).toMatchObject({
      description: 'Donation to Wells Trust (registered charity 1234567)',
    });

    const plain = await createCampaign(t.db);
    const monthly = await checkout.$post({ json: { email, campaign_id: plain.id, price: 'price_monthly_500' } });
    expect(monthly.status).toBe(200);
    const [gift] = await t.db.select().from(donations).where(eq(donations.campaignId, plain.id));
    expect(fake.subscriptions.get(gift.subscriptionId!)).toMatchObject({ description: 'Donation to UK NFP' });
  });
});

describe('refund.failed with Stripe', () => {
  it('acknowledges a failed refund of a PaymentIntent the app did not create (200, ignored), every time', async () => {
    const unknown = refundFailed({ intentId: fakeId('pi'), amount: 500 });
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await sendEvent(t, unknown);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true, outcome: 'ignored' });
    }
  });

  it('asks Stripe to retry a failed refund of one of our gifts not recorded yet', async () => {
    const w = await world();
    expect((await w.start({ amount: 1500 })).status).toBe(200);
    const [row] = await w.rows();
    await t.db.delete(donations).where(eq(donations.id, row.id));
    expect((await sendEvent(t, refundFailed({ intentId: row.paymentIntentId!, amount: 500 }))).status).toBe(503);
  });
});
