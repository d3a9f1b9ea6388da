import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { donations, prices, users } from '../../../db/schema';
import { createCampaign } from '../../../tests/factories';
import { startStripeFake, type StripeFake } from '../../../tests/mocks/stripe-fake';
import { setupTestApp, type TestApp } from '#test-app';
import { runHousekeeping } from './run';
import { createPaymentProvider } from '../payments';

/** Housekeeping in Stripe mode, with the real SDK against the local Stripe fake (Node only). */
let fake: StripeFake;
let t: TestApp;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  fake = await startStripeFake();
  fake.addPrice('price_monthly_1000', 1000);
  t = await setupTestApp({
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
    STRIPE_API_BASE: fake.url,
  });
  await t.db.insert(prices).values({ id: 'price_monthly_1000', unitAmount: 1000 });
});
afterAll(() => fake.close());

const stripe = () =>
  createPaymentProvider({
    stripeSecretKey: 'sk_test_fake',
    stripeApiBase: fake.url,
    stripePublishableKey: 'pk_test_fake',
    authSecret: 'test-secret',
    production: false,
  });

async function checkout(json: Record<string, unknown>) {
  const campaign = await createCampaign(t.db);
  const res = await t.request('/api/stripe/client_secret', {
    method: 'POST',
    json: { email: `hk-${crypto.randomUUID().slice(0, 8)}@example.org`, campaign_id: campaign.id, ...json },
  });
  expect(res.status).toBe(200);
  const [row] = await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
  // Started two days ago.
  await t.db
    .update(donations)
    .set({ createdAt: new Date(Date.now() - 2 * DAY) })
    .where(eq(donations.id, row.id));
  return row;
}

describe('housekeeping with Stripe', () => {
  it('cancels the PaymentIntent of an abandoned one-off checkout and the subscription of a monthly one, once', async () => {
    const once = await checkout({ amount: 1500 });
    const monthly = await checkout({ price: 'price_monthly_1000' });
    const counts = await runHousekeeping({ db: t.db, payments: stripe(), now: new Date() });
    expect(counts).toMatchObject({ abandoned: 2, stripe_cancelled: 2, pending_kept: 0 });
    expect(fake.paymentIntents.get(once.paymentIntentId!)).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'abandoned',
    });
    expect(fake.subscriptions.get(monthly.subscriptionId!)!.status).toBe('canceled');
    for (const row of [once, monthly]) {
      const [after] = await t.db.select().from(donations).where(eq(donations.id, row.id));
      expect(after.status).toBe('abandoned');
    }
    const again = await runHousekeeping({ db: t.db, payments: stripe(), now: new Date() });
    expect(again).toMatchObject({ abandoned: 0, stripe_cancelled: 0 });
  });

  it('leaves a checkout pending when Stripe says it was paid: the webhook records it', async () => {
    const paid = await checkout({ amount: 2500 });
    fake.paymentIntents.get(paid.paymentIntentId!)!.status = 'succeeded';
    const counts = await runHousekeeping({ db: t.db, payments: stripe(), now: new Date() });
    expect(counts).toMatchObject({ abandoned: 0, pending_kept: 1 });
    const [after] = await t.db.select().from(donations).where(eq(donations.id, paid.id));
    expect(after.status).toBe('pending');
    // The webhook's success settles it.
    await t.db.update(donations).set({ status: 'succeeded' }).where(eq(donations.id, paid.id));
  });

  it('keeps a checkout pending while Stripe cannot be reached, and abandons it on the next run', async () => {
    const row = await checkout({ amount: 3500 });
    // The failed cancel is logged (and expected here).
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.failNext = 6; // the cancel and the look-up, with the SDK's retries
    const counts = await runHousekeeping({ db: t.db, payments: stripe(), now: new Date() });
    expect(counts).toMatchObject({ abandoned: 0, pending_kept: 1 });
    expect((await t.db.select().from(donations).where(eq(donations.id, row.id)))[0].status).toBe('pending');
    fake.failNext = 0;
    expect(await runHousekeeping({ db: t.db, payments: stripe(), now: new Date() })).toMatchObject({
      abandoned: 1,
      stripe_cancelled: 1,
    });
    expect((await t.db.select().from(donations).where(eq(donations.id, row.id)))[0].status).toBe('abandoned');
  });

  it('deletes the Stripe Customer of a donor who only ever abandoned a monthly checkout, after 30 days', async () => {
    const monthly = await checkout({ price: 'price_monthly_1000' });
    await runHousekeeping({ db: t.db, payments: stripe(), now: new Date() });
    const [donor] = await t.db.select().from(users).where(eq(users.id, monthly.donorId));
    expect(donor.origin).toBe('checkout');
    expect(fake.customers.has(donor.stripeCustomerId!)).toBe(true);
    const later = new Date(Date.now() + 31 * DAY);
    const counts = await runHousekeeping({ db: t.db, payments: stripe(), now: later });
    expect(counts.stripe_customers_deleted).toBeGreaterThanOrEqual(1);
    expect(counts.checkout_donors_expired).toBeGreaterThanOrEqual(1);
    expect(fake.customers.has(donor.stripeCustomerId!)).toBe(false);
    expect(await t.db.select().from(users).where(eq(users.id, donor.id))).toHaveLength(0);
  });
});
