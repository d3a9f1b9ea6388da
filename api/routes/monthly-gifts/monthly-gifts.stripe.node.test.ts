import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { donations, monthlyGifts, prices } from '../../../db/schema';
import { createCampaign, signedIn } from '../../../tests/factories';
import {
  invoicePaid,
  invoicePaymentFailed,
  sendEvent,
  subscriptionDeleted,
  WEBHOOK_SECRET,
} from '../../../tests/fixtures/stripe/events';
import { startStripeFake, type StripeFake } from '../../../tests/mocks/stripe-fake';
import { bodyOf, errorOf, setupTestApp, type TestApp } from '#test-app';
import { cardUpdateByLink } from '../../services/monthly-gifts/link-actions';
import { createPaymentProvider } from '../../services/payments';
import { signMonthlyLink } from '../../services/monthly-gifts/link-tokens';

/** Change, pause, cancel and card update against the real Stripe SDK talking to the local fake. */
let fake: StripeFake;
let t: TestApp;
const SECRET = 'stripe-monthly-test-secret-0123456789';

beforeAll(async () => {
  fake = await startStripeFake();
  fake.addPrice('price_m_1000', 1000);
  fake.addPrice('price_m_2500', 2500);
  t = await setupTestApp({
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_API_BASE: fake.url,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    AUTH_SECRET: SECRET,
  });
  await t.db.insert(prices).values([
    { id: 'price_m_1000', unitAmount: 1000 },
    { id: 'price_m_2500', unitAmount: 2500 },
  ]);
});
afterAll(() => fake.close());

async function stripeMonthly() {
  const campaign = await createCampaign(t.db);
  const { user: donor, token } = await signedIn(t.db, 'donor');
  const res = await t.client(token).api.stripe.client_secret.$post({
    json: { price: 'price_m_1000', campaign_id: campaign.id },
  });
  expect(res.status).toBe(200);
  const [row] = await t.db.select().from(donations).where(eq(donations.donorId, donor.id));
  const sub = fake.subscriptions.get(row.subscriptionId!)!;
  // Stripe activates the subscription when its first invoice is paid.
  sub.status = 'active';
  await sendEvent(
    t,
    invoicePaid({ invoiceId: row.invoiceId!, subscriptionId: sub.id, amount: 1000, metadata: sub.metadata }),
  );
  const gift = () =>
    t.db
      .select()
      .from(monthlyGifts)
      .where(eq(monthlyGifts.id, sub.id))
      .then((r) => r[0]);
  const mine = t.client(token).api.me['monthly-gifts'][':id'];
  const param = { id: sub.id };
  const act = {
    change: (price: string) => mine.change.$post({ param, json: { price } }),
    pause: (months: number) => mine.pause.$post({ param, json: { months } }),
    resume: () => mine.resume.$post({ param }),
    cancel: () => mine.cancel.$post({ param }),
  };
  return { sub, gift, act, donor, row };
}

describe('monthly gifts with Stripe (fake)', () => {
  it('changes the price with proration off, pauses with pause_collection void + resumes_at, resumes, and cancels', async () => {
    const m = await stripeMonthly();
    expect(await m.gift()).toMatchObject({ status: 'active', amount: 1000, source: 'card' });

    const change = await m.act.change('price_m_2500');
    expect(await bodyOf(change, 200)).toMatchObject({ amount: 2500, status: 'active', mode: 'stripe' });
    const update = fake.requests
      .filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${m.sub.id}`)
      .at(-1)!;
    expect(update.body).toMatchObject({
      proration_behavior: 'none',
      items: [{ id: m.sub.items.data[0].id, price: 'price_m_2500' }],
    });

    const pause = await m.act.pause(3);
    expect(pause.status).toBe(200);
    expect(fake.subscriptions.get(m.sub.id)!.pause_collection).toMatchObject({ behavior: 'void' });
    const resumesAt = fake.subscriptions.get(m.sub.id)!.pause_collection.resumes_at * 1000;
    expect(resumesAt - Date.now()).toBeGreaterThan(88 * 86400_000);
    expect(await m.gift()).toMatchObject({ status: 'paused', amount: 2500 });

    // Resume now: Stripe's empty pause_collection ends the pause; the stored gift runs again.
    const resume = await m.act.resume();
    expect(resume.status).toBe(200);
    expect(fake.subscriptions.get(m.sub.id)!.pause_collection).toBeNull();
    expect(await m.gift()).toMatchObject({ status: 'active', pauseResumesAt: null, amount: 2500 });

    const cancel = await m.act.cancel();
    expect(cancel.status).toBe(200);
    expect(fake.subscriptions.get(m.sub.id)).toMatchObject({
      status: 'canceled',
      cancellation_details: { comment: 'donor' },
    });
    expect(await m.gift()).toMatchObject({ status: 'cancelled', cancelledBy: 'donor' });
    // Stripe's own event confirms it later; nothing changes, and a late update cannot undo it.
    await sendEvent(
      t,
      subscriptionDeleted({ subscriptionId: m.sub.id, amount: 2500, metadata: m.sub.metadata, cancelComment: 'donor' }),
    );
    expect(await m.gift()).toMatchObject({ status: 'cancelled', cancelledBy: 'donor' });
  });

  it('leaves the gift active and asks to try again when Stripe fails while cancelling', async () => {
    const m = await stripeMonthly();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.failNext = 10;
    const res = await m.act.cancel();
    fake.failNext = 0;
    vi.restoreAllMocks();
    expect((await errorOf(res, 502)).message).toMatch(/nothing has changed.*try again/);
    expect(await m.gift()).toMatchObject({ status: 'active', cancelledAt: null });
    expect(fake.subscriptions.get(m.sub.id)!.status).not.toBe('canceled');
    // The cancel link behaves the same: the gift stays, the link still works afterwards.
    const link = await signMonthlyLink(SECRET, 'cancel', m.sub.id);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.failNext = 10;
    const useLink = async () =>
      bodyOf(await t.client().api['monthly-gift-links'].cancel.$post({ json: { token: link } }), 200);
    const failed = await useLink();
    fake.failNext = 0;
    vi.restoreAllMocks();
    expect(failed).toMatchObject({ state: 'failed', message: expect.stringMatching(/try again/) });
    expect(await m.gift()).toMatchObject({ status: 'active', cancelLinkUsedAt: null });
    expect(await useLink()).toMatchObject({ state: 'done' });
  });

  it('a failed renewal links to a fresh customer portal session for the card', async () => {
    const m = await stripeMonthly();
    await sendEvent(
      t,
      invoicePaymentFailed({
        invoiceId: 'in_renewal_' + m.sub.id,
        subscriptionId: m.sub.id,
        amount: 1000,
        metadata: m.sub.metadata,
        first: false,
      }),
    );
    const token = await signMonthlyLink(SECRET, 'card', m.sub.id);
    const payments = createPaymentProvider({
      stripeSecretKey: 'sk_test_fake',
      stripeApiBase: fake.url,
      stripePublishableKey: 'pk_test_fake',
      authSecret: SECRET,
      production: false,
    });
    const result = await cardUpdateByLink(
      { db: t.db, payments, authSecret: SECRET, returnUrl: 'http://localhost/dashboard/donations/me' },
      token,
    );
    expect(result).toMatchObject({
      state: 'redirect',
      url: expect.stringMatching(/^https:\/\/billing\.stripe\.com\//),
    });
    const session = [...fake.portalSessions.values()].at(-1)!;
    expect(session).toMatchObject({
      customer: m.sub.customer,
      return_url: 'http://localhost/dashboard/donations/me',
      flow: { type: 'payment_method_update' },
    });
    expect(
      await cardUpdateByLink(
        { db: t.db, payments, authSecret: SECRET, returnUrl: 'x' },
        token.replace('card.', 'cancel.'),
      ),
    ).toMatchObject({ state: 'invalid' });
  });
});
