import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../..';
import { campaigns, donations, outbox, users, webhookEvents } from '../../../db/schema';
import { createAppeal, createCampaign, createGiftAidDeclaration, createUser } from '../../../tests/factories';
import {
  giftMetadata,
  chargeRefunded,
  fakeId,
  invoicePaid,
  invoicePaymentFailed,
  paymentIntentFailed,
  paymentIntentSucceeded,
  refundFailed,
  sendEvent,
  subscriptionUpdated,
  WEBHOOK_SECRET,
} from '../../../tests/fixtures/stripe/events';
import { bodyOf, engineName, errorOf, messageOf, publicTotals, setupTestApp, type TestApp } from '#test-app';
import { insertPendingDonation } from '../../services/donations/pending';
import { readConfig } from '../../lib/config';
import { giftFacts } from '../../services/mail/facts';
import { receiptEmail } from '../../services/mail/receipt';
import { FIRST_INVOICE_FAILED_MESSAGE, RENEWAL_FAILED_MESSAGE } from './invoice-payment-failed';

let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
});
afterEach(() => vi.restoreAllMocks());

/** A fresh campaign + appeal + donor, and the metadata our client_secret call would send. */
async function world() {
  const donor = await createUser(t.db);
  const campaign = await createCampaign(t.db);
  const appeal = await createAppeal(t.db, campaign.id);
  const meta = (kind: 'one_off' | 'monthly' = 'one_off', donationId = crypto.randomUUID()) =>
    giftMetadata({ kind, donationId, campaignId: campaign.id, appealId: appeal.id, donorId: donor.id });
  const rows = () => t.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
  const totals = () => publicTotals(t, { appealId: appeal.id, campaignId: campaign.id });
  /** The pending row client_secret leaves: a one-off gift's payment intent, or a monthly gift's first invoice. */
  const pending = (
    m: ReturnType<typeof meta>,
    amount: number,
    payment: string | { invoiceId: string; subscriptionId: string },
  ) =>
    insertPendingDonation(t.db, {
      id: m.donation_id,
      amount,
      donorId: donor.id,
      target: { campaignId: campaign.id, appealId: appeal.id },
      type: typeof payment === 'string' ? 'once' : 'monthly',
      giftAidDeclarationId: null,
      paymentIntentId: typeof payment === 'string' ? payment : null,
      invoiceId: typeof payment === 'string' ? null : payment.invoiceId,
      subscriptionId: typeof payment === 'string' ? null : payment.subscriptionId,
      source: 'card',
      ownCheckout: true,
    });
  return { donor, campaign, appeal, meta, rows, totals, pending };
}

/**
 * A monthly gift as client_secret leaves it (a pending row for the subscription's first invoice), with
 * Stripe's invoice.paid and invoice.payment_failed for an invoice of it: a renewal unless it is the first.
 */
async function monthly(amount = 1000) {
  const w = await world();
  const m = w.meta('monthly');
  const subscriptionId = fakeId('sub');
  const firstInvoice = fakeId('in');
  await w.pending(m, amount, { invoiceId: firstInvoice, subscriptionId });
  type Invoice = { amount?: number; metadata?: Record<string, string>; intentId?: string };
  const invoice = (invoiceId: string, over: Invoice) => ({
    invoiceId,
    subscriptionId,
    amount,
    metadata: m,
    first: invoiceId === firstInvoice,
    ...over,
  });
  const paid = (invoiceId = firstInvoice, over: Invoice = {}) => invoicePaid(invoice(invoiceId, over));
  const failed = (invoiceId = firstInvoice, over: Omit<Invoice, 'intentId'> = {}) =>
    invoicePaymentFailed(invoice(invoiceId, over));
  return { ...w, m, subscriptionId, firstInvoice, paid, failed };
}

async function eventCount(id: string) {
  return (await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, id))).length;
}

describe(`POST /api/stripe/webhook: signature (${engineName})`, () => {
  it('rejects a tampered body with 400 and writes nothing', async () => {
    const w = await world();
    const evt = paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 1000, metadata: w.meta() });
    const res = await sendEvent(t, evt, {
      tamper: (body) => body.replace('"amount_received":1000', '"amount_received":999999'),
    });
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toMatch(/signature verification failed/);
    expect(await w.rows()).toHaveLength(0);
    expect(await eventCount(evt.id)).toBe(0);
  });

  it('rejects a wrong secret, a stale timestamp and a missing header', async () => {
    const w = await world();
    const evt = paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 1000, metadata: w.meta() });
    expect((await sendEvent(t, evt, { secret: 'whsec_someone_else' })).status).toBe(400);
    const stale = await sendEvent(t, evt, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(400);
    // Signed more than 5 minutes ahead of our clock: refused too.
    const future = await sendEvent(t, evt, { timestamp: Math.floor(Date.now() / 1000) + 6 * 60 });
    expect(future.status).toBe(400);
    expect((await errorOf(future, 400)).message).toMatch(/timestamp/);
    // A small clock difference is fine.
    expect(
      (
        await sendEvent(t, paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 100, metadata: {} }), {
          timestamp: Math.floor(Date.now() / 1000) + 60,
        })
      ).status,
    ).toBe(200);
    // Raw: Stripe's signed raw body is the point, here sent without its Stripe-Signature header.
    const bare = await t.request('/api/stripe/webhook', { method: 'POST', body: JSON.stringify(evt) });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual({ statusCode: 400, message: 'Missing Stripe-Signature header' });
    expect(await w.rows()).toHaveLength(0);
  });

  it('answers 503 when no webhook secret is configured', async () => {
    const bare = await setupTestApp();
    const res = await sendEvent(bare, paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 100, metadata: {} }));
    expect(res.status).toBe(503);
  });

  it('accepts signed events larger than the API-wide 100 KB limit, up to 1 MB', async () => {
    const padding = 'x'.repeat(300 * 1024);
    const big = await sendEvent(t, {
      id: fakeId('evt'),
      object: 'event',
      type: 'customer.created',
      created: 1,
      data: { object: { id: 'cus_big', description: padding } },
    });
    expect(big.status).toBe(200);
    const huge = await sendEvent(t, {
      id: fakeId('evt'),
      object: 'event',
      type: 'customer.created',
      created: 1,
      data: { object: { id: 'cus_huge', description: padding.repeat(4) } },
    });
    await errorOf(huge, 413);
  });

  it('acknowledges event types it does not handle with 200', async () => {
    const res = await sendEvent(t, {
      id: fakeId('evt'),
      object: 'event',
      type: 'customer.created',
      created: 1,
      data: { object: { id: 'cus_1' } },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'ignored' });
  });

  it('ignores PaymentIntents that are not one-off gifts of ours', async () => {
    const w = await world();
    const invoiceIntent = paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 1000, metadata: {} });
    expect(await (await sendEvent(t, invoiceIntent)).json()).toMatchObject({ outcome: 'ignored' });
    const strange = paymentIntentSucceeded({
      intentId: fakeId('pi'),
      amount: 1000,
      metadata: { ...w.meta(), campaign_id: crypto.randomUUID() },
    });
    expect(await (await sendEvent(t, strange)).json()).toMatchObject({ outcome: 'ignored' });
    expect(await w.rows()).toHaveLength(0);
  });
});

describe(`POST /api/stripe/webhook: one-off gifts recorded exactly once (${engineName})`, () => {
  it("settles the pending row when the webhook comes after the client returned, with Stripe's amount", async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    await w.pending(m, 500, intentId);
    expect(await w.totals()).toEqual({ appeal: 0, campaign: 0 });
    const res = await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 700, metadata: m }));
    expect(res.status).toBe(200);
    const rows = await w.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: m.donation_id, status: 'succeeded', amount: 700, paymentIntentId: intentId });
    expect(await w.totals()).toEqual({ appeal: 700, campaign: 700 });
  });

  it('records the gift when the webhook arrives before the pending insert, and the late insert changes nothing', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 2500, metadata: m }));
    await w.pending(m, 2500, intentId);
    const rows = await w.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', amount: 2500, appealId: w.appeal.id, donorId: w.donor.id });
    expect(await w.totals()).toEqual({ appeal: 2500, campaign: 2500 });
  });

  it('applies the same event twice once, and a second event for the same payment once', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    const evt = paymentIntentSucceeded({ intentId, amount: 1500, metadata: m });
    expect(await (await sendEvent(t, evt)).json()).toMatchObject({ outcome: 'recorded' });
    expect(await (await sendEvent(t, evt)).json()).toMatchObject({ outcome: 'duplicate' });
    await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 1500, metadata: m }));
    expect(await w.rows()).toHaveLength(1);
    expect(await w.totals()).toEqual({ appeal: 1500, campaign: 1500 });
    expect(await eventCount(evt.id)).toBe(1);
  });

  it('ignores (200, logged) a second PaymentIntent whose metadata names a gift already recorded, and never records it twice', async () => {
    const w = await world();
    const m = w.meta();
    const first = fakeId('pi');
    await w.pending(m, 1500, first);
    expect(
      await (await sendEvent(t, paymentIntentSucceeded({ intentId: first, amount: 1500, metadata: m }))).json(),
    ).toMatchObject({ outcome: 'recorded' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const second = paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 9900, metadata: m });
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await sendEvent(t, second);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true, outcome: 'ignored' });
    }
    expect(warn.mock.calls.some(([line]) => String(line).includes('another payment names this donation'))).toBe(true);
    expect(await w.rows()).toMatchObject([{ paymentIntentId: first, amount: 1500, status: 'succeeded' }]);
    expect(await w.totals()).toEqual({ appeal: 1500, campaign: 1500 });
  });

  it('records one row when copies of an event arrive at the same time', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    const evt = paymentIntentSucceeded({ intentId, amount: 4200, metadata: m });
    const other = paymentIntentSucceeded({ intentId, amount: 4200, metadata: m });
    const results = await Promise.all([evt, evt, evt, other, other].map((e) => sendEvent(t, e)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // Each event is applied by exactly one copy; the copies that lost the race say so.
    const outcomes = await Promise.all(results.map(async (r) => ((await r.json()) as { outcome: string }).outcome));
    expect(outcomes.slice(0, 3).sort()).toEqual(['duplicate', 'duplicate', 'recorded']);
    expect(outcomes.slice(3).sort()).toEqual(['duplicate', 'recorded']);
    expect(await w.rows()).toHaveLength(1);
    expect(await w.totals()).toEqual({ appeal: 4200, campaign: 4200 });
  });

  it("sends the receipt after the answer when the runtime can wait for it, once, and a replay's too", async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    await w.pending(m, 3100, intentId);
    // The worker's waitUntil: what the webhook leaves for after its answer.
    const later: Promise<unknown>[] = [];
    const execution = {
      waitUntil: (work: Promise<unknown>) => void later.push(work),
      passThroughOnException() {},
      props: {},
    };
    const withRuntime = {
      request: (path: string, init?: RequestInit) => Promise.resolve(t.app.request(path, init, t.env, execution)),
    };
    const receipts = () =>
      t.db
        .select()
        .from(outbox)
        .where(eq(outbox.key, `receipt:${m.donation_id}`));
    const evt = paymentIntentSucceeded({ intentId, amount: 3100, metadata: m });

    const res = await sendEvent(withRuntime, evt);
    expect(await res.json()).toMatchObject({ outcome: 'recorded' });
    // Recorded before the answer, the receipt's row in the same batch; sending it handed to waitUntil.
    expect((await w.rows())[0]).toMatchObject({ status: 'succeeded', amount: 3100 });
    expect(await receipts()).toHaveLength(1);
    expect(later).toHaveLength(1);
    await Promise.all(later);
    expect(await receipts()).toHaveLength(1);

    expect(await (await sendEvent(withRuntime, evt)).json()).toMatchObject({ outcome: 'duplicate' });
    expect(later).toHaveLength(2);
    await Promise.all(later);
    expect(await receipts()).toHaveLength(1);
    expect(await w.totals()).toEqual({ appeal: 3100, campaign: 3100 });
  });

  it("writes a one-off gift's receipt in its recording batch, as the gift reads back, and sends it once whatever the copies", async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    await w.pending(m, 2750, intentId);
    const printed: string[] = [];
    // The development mailer prints what it sends: one line per email handed over.
    vi.spyOn(console, 'log').mockImplementation((line) => void printed.push(String(line)));
    const evt = paymentIntentSucceeded({ intentId, amount: 2750, metadata: m });
    const other = paymentIntentSucceeded({ intentId, amount: 2750, metadata: m });
    const results = await Promise.all([evt, evt, other, evt, other].map((e) => sendEvent(t, e)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const receipts = await t.db
      .select()
      .from(outbox)
      .where(eq(outbox.key, `receipt:${m.donation_id}`));
    expect(receipts).toHaveLength(1);
    expect(printed.filter((line) => line.startsWith('[mail] outbox') && line.includes(intentId))).toHaveLength(1);
    // Rendered before the batch, it says what the receipt rendered from the recorded gift says.
    const facts = await giftFacts({ db: t.db, config: readConfig(t.env), origin: 'http://localhost' }, m.donation_id);
    const expected = receiptEmail(facts as NonNullable<typeof facts>);
    expect(receipts[0]).toMatchObject({
      to: expected.to,
      subject: expected.subject,
      text: expected.text,
      html: expected.html,
    });
    expect(receipts[0].text).toContain('£27.50');
    expect(await w.totals()).toEqual({ appeal: 2750, campaign: 2750 });
    // A replay finds the receipt written and sends nothing more.
    expect(await (await sendEvent(t, evt)).json()).toMatchObject({ outcome: 'duplicate' });
    expect(printed.filter((line) => line.startsWith('[mail] outbox') && line.includes(intentId))).toHaveLength(1);
  });

  it('greets the receipt by the Gift Aid name the recording gives an account without one', async () => {
    const donor = await createUser(t.db, { firstName: '' });
    const campaign = await createCampaign(t.db);
    const declaration = await createGiftAidDeclaration(t.db, {
      donorId: donor.id,
      firstName: 'Priya',
      lastName: 'Shah',
    });
    const m = giftMetadata({ campaignId: campaign.id, donorId: donor.id, declarationId: declaration.id });
    const intentId = fakeId('pi');
    await insertPendingDonation(t.db, {
      id: m.donation_id,
      amount: 1200,
      donorId: donor.id,
      target: { campaignId: campaign.id, appealId: null },
      type: 'once',
      giftAidDeclarationId: declaration.id,
      paymentIntentId: intentId,
      invoiceId: null,
      subscriptionId: null,
      source: 'card',
      ownCheckout: true,
    });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const evt = paymentIntentSucceeded({ intentId, amount: 1200, metadata: m });
    await sendEvent(t, evt);
    const [receipt] = await t.db
      .select()
      .from(outbox)
      .where(eq(outbox.key, `receipt:${m.donation_id}`));
    expect(receipt.text).toContain('Dear Priya,');
    // The donor clears the name; Stripe's repeat of the event is known by its batch and fills nothing.
    await t.db.update(users).set({ firstName: '' }).where(eq(users.id, donor.id));
    expect(await (await sendEvent(t, evt)).json()).toMatchObject({ outcome: 'duplicate' });
    const [after] = await t.db.select({ firstName: users.firstName }).from(users).where(eq(users.id, donor.id));
    expect(after.firstName).toBe('');
  });

  it('answers 500 when the database is unavailable, writes nothing, and records once on retry', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    const evt = paymentIntentSucceeded({ intentId, amount: 900, metadata: m });
    const down = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop === 'batch') return () => Promise.reject(new Error('D1_ERROR: Network connection lost.'));
        return Reflect.get(target, prop, receiver);
      },
    });
    const broken = createApp({ db: down });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const body = JSON.stringify(evt);
    const { signature } = await import('../../../tests/fixtures/stripe/events');
    const res = await broken.request(
      '/api/stripe/webhook',
      { method: 'POST', body, headers: { 'stripe-signature': await signature(body) } },
      t.env,
    );
    expect(res.status).toBe(500);
    expect(await w.rows()).toHaveLength(0);
    expect(await eventCount(evt.id)).toBe(0);

    expect((await sendEvent(t, evt)).status).toBe(200);
    expect((await sendEvent(t, evt)).status).toBe(200);
    expect(await w.rows()).toHaveLength(1);
    expect(await eventCount(evt.id)).toBe(1);
  });
});

describe(`POST /api/stripe/webhook: failures and refunds (${engineName})`, () => {
  it('marks a pending gift failed with the message, and a later success wins', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    await w.pending(m, 1000, intentId);
    await sendEvent(
      t,
      paymentIntentFailed({ intentId, amount: 1000, metadata: m, message: 'Your card has insufficient funds.' }),
    );
    expect((await w.rows())[0]).toMatchObject({
      status: 'failed',
      failureMessage: 'Your card has insufficient funds.',
    });
    expect(await w.totals()).toEqual({ appeal: 0, campaign: 0 });
    await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 1000, metadata: m }));
    expect((await w.rows())[0]).toMatchObject({ status: 'succeeded', failureMessage: null });
  });

  it('keeps a success when an earlier failure is delivered late', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 1000, metadata: m }));
    await sendEvent(t, paymentIntentFailed({ intentId, amount: 1000, metadata: m }));
    const rows = await w.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('succeeded');
  });

  it('takes partial and full refunds out of the totals, idempotently', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    // Stripe's `created` times fixed apart: with the default (now) a second boundary between two
    // events would make the "older" one below newer.
    const now = Math.floor(Date.now() / 1000);
    await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 5000, metadata: m }));
    const partial = chargeRefunded({ intentId, amount: 5000, refunded: 2000, created: now - 30 });
    await sendEvent(t, partial);
    await sendEvent(t, partial);
    expect((await w.rows())[0]).toMatchObject({ status: 'succeeded', refundedAmount: 2000 });
    expect(await w.totals()).toEqual({ appeal: 3000, campaign: 3000 });
    await sendEvent(t, chargeRefunded({ intentId, amount: 5000, refunded: 5000, created: now - 20 }));
    expect((await w.rows())[0]).toMatchObject({ status: 'refunded', refundedAmount: 5000 });
    expect(await w.totals()).toEqual({ appeal: 0, campaign: 0 });
    // An older partial-refund event delivered late cannot lower the refunded amount.
    await sendEvent(t, chargeRefunded({ intentId, amount: 5000, refunded: 2000, created: now - 25 }));
    expect((await w.rows())[0]).toMatchObject({ status: 'refunded', refundedAmount: 5000 });
  });

  it('follows Stripe when a refund fails: the money goes back to the gift, and an older refund event cannot undo that', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    const now = Math.floor(Date.now() / 1000);
    await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 5000, metadata: m }));
    await sendEvent(t, chargeRefunded({ intentId, amount: 5000, refunded: 5000, created: now - 20 }));
    expect((await w.rows())[0]).toMatchObject({ status: 'refunded', refundedAmount: 5000 });

    // The full refund fails: Stripe's amount_refunded goes back to 0, and so do ours.
    const failed = refundFailed({ intentId, amount: 5000, created: now - 10 });
    expect((await sendEvent(t, failed)).status).toBe(200);
    await sendEvent(t, failed);
    expect((await w.rows())[0]).toMatchObject({ status: 'succeeded', refundedAmount: 0 });
    expect(await w.totals()).toEqual({ appeal: 5000, campaign: 5000 });

    // A charge.refunded from before the failure, delivered late, does not bring the refund back.
    await sendEvent(t, chargeRefunded({ intentId, amount: 5000, refunded: 5000, created: now - 15 }));
    expect((await w.rows())[0]).toMatchObject({ status: 'succeeded', refundedAmount: 0 });

    // A newer partial refund counts, and a figure from Stripe may go down as well as up.
    await sendEvent(t, chargeRefunded({ intentId, amount: 5000, refunded: 1500, created: now - 5 }));
    expect((await w.rows())[0]).toMatchObject({ status: 'succeeded', refundedAmount: 1500 });
    expect(await w.totals()).toEqual({ appeal: 3500, campaign: 3500 });
  });

  it('acknowledges (200, ignored) a failed refund for a payment it did not record, so Stripe stops retrying', async () => {
    const evt = refundFailed({ intentId: fakeId('pi'), amount: 100 });
    const res = await sendEvent(t, evt);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await eventCount(evt.id)).toBe(0);
  });

  it('shows a new gift in top donors at once, net of a partial refund', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    const top = async () =>
      bodyOf(await t.client().api.donations.$get({ query: { type: 'public', appeal_id: w.appeal.id } }), 200);
    expect(await top()).toEqual([]);
    await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 6000, metadata: m }));
    expect(await top()).toMatchObject([{ count: 1, total: 6000 }]);
    await sendEvent(t, chargeRefunded({ intentId, amount: 6000, refunded: 1000 }));
    expect(await top()).toMatchObject([{ count: 1, total: 5000 }]);
  });

  it('ends refunded when the refund arrives before the success (charge metadata)', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    await sendEvent(t, chargeRefunded({ intentId, amount: 3000, refunded: 3000, metadata: m }));
    await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 3000, metadata: m }));
    await w.pending(m, 3000, intentId);
    const rows = await w.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'refunded', refundedAmount: 3000 });
    expect(await w.totals()).toEqual({ appeal: 0, campaign: 0 });
  });

  it('asks Stripe to retry a refund for a gift it cannot attribute yet, then applies it', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    const refund = chargeRefunded({ intentId, amount: 3000, refunded: 1000 });
    const early = await sendEvent(t, refund);
    expect(early.status).toBe(503);
    expect(await eventCount(refund.id)).toBe(0);
    await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 3000, metadata: m }));
    expect((await sendEvent(t, refund)).status).toBe(200);
    expect((await w.rows())[0]).toMatchObject({ status: 'succeeded', refundedAmount: 1000 });
    expect(await w.totals()).toEqual({ appeal: 2000, campaign: 2000 });
  });
});

describe(`POST /api/stripe/webhook: monthly gifts (${engineName})`, () => {
  it('settles the first invoice on the pending row and adds one row per later invoice', async () => {
    const g = await monthly(1000);
    const first = g.paid(g.firstInvoice, { intentId: fakeId('pi') });
    await sendEvent(t, first);
    await sendEvent(t, first);
    let rows = await g.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: g.m.donation_id,
      status: 'succeeded',
      type: 'monthly',
      invoiceId: g.firstInvoice,
    });

    const second = g.paid(fakeId('in'));
    await Promise.all([sendEvent(t, second), sendEvent(t, second)]);
    rows = await g.rows();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.status === 'succeeded' && r.subscriptionId === g.subscriptionId)).toBe(true);
    expect(await g.totals()).toEqual({ appeal: 2000, campaign: 2000 });
    // The renewal follows its first payment, given in the donor's own checkout (decision 077).
    expect(rows.map((r) => r.ownCheckout)).toEqual([true, true]);
  });

  it('records a first invoice paid before the pending insert is visible', async () => {
    const w = await world();
    const m = w.meta('monthly');
    const subscriptionId = fakeId('sub');
    const invoiceId = fakeId('in');
    await sendEvent(t, invoicePaid({ invoiceId, subscriptionId, amount: 2500, metadata: m }));
    await w.pending(m, 2500, { invoiceId, subscriptionId });
    const rows = await w.rows();
    expect(rows).toHaveLength(1);
    // Not known to be the donor's own checkout when the webhook made the row: not named in public.
    expect(rows[0]).toMatchObject({ status: 'succeeded', amount: 2500, ownCheckout: false });
  });
});

describe(`POST /api/stripe/webhook: monthly payment failures (${engineName})`, () => {
  it('marks the pending row failed when the first invoice fails, and a later payment of it succeeds', async () => {
    const g = await monthly(1000);
    const failed = g.failed(g.firstInvoice);
    expect(await (await sendEvent(t, failed)).json()).toMatchObject({ outcome: 'recorded' });
    let rows = await g.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: g.m.donation_id,
      status: 'failed',
      type: 'monthly',
      invoiceId: g.firstInvoice,
      failureMessage: FIRST_INVOICE_FAILED_MESSAGE,
    });
    expect(await g.totals()).toEqual({ appeal: 0, campaign: 0 });

    await sendEvent(t, g.paid(g.firstInvoice, { intentId: fakeId('pi') }));
    rows = await g.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: g.m.donation_id, status: 'succeeded', failureMessage: null });
    expect(await g.totals()).toEqual({ appeal: 1000, campaign: 1000 });
  });

  it('records one failed row for a failed renewal, with the amount due, outside the totals', async () => {
    const g = await monthly(1000);
    await sendEvent(t, g.paid(g.firstInvoice));
    const renewal = fakeId('in');
    const failed = g.failed(renewal, { amount: 1200 });
    expect(await (await sendEvent(t, failed)).json()).toMatchObject({ outcome: 'recorded' });
    const rows = await g.rows();
    expect(rows).toHaveLength(2);
    const row = rows.find((r) => r.invoiceId === renewal);
    expect(row).toMatchObject({
      status: 'failed',
      type: 'monthly',
      amount: 1200,
      subscriptionId: g.subscriptionId,
      appealId: g.appeal.id,
      donorId: g.donor.id,
      failureMessage: RENEWAL_FAILED_MESSAGE,
      paymentIntentId: null,
    });
    expect(row!.id).not.toBe(g.m.donation_id);
    expect(await g.totals()).toEqual({ appeal: 1000, campaign: 1000 });
  });

  it('applies the same failure once, and copies or Stripe retries of the same invoice stay one row', async () => {
    const g = await monthly(1000);
    await sendEvent(t, g.paid(g.firstInvoice));
    const renewal = fakeId('in');
    const failed = g.failed(renewal);
    expect(await (await sendEvent(t, failed)).json()).toMatchObject({ outcome: 'recorded' });
    expect(await (await sendEvent(t, failed)).json()).toMatchObject({ outcome: 'duplicate' });
    const retry = g.failed(renewal);
    const results = await Promise.all([failed, failed, retry, retry].map((e) => sendEvent(t, e)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const rows = await g.rows();
    expect(rows.filter((r) => r.invoiceId === renewal)).toHaveLength(1);
    expect(rows).toHaveLength(2);
    expect(await eventCount(failed.id)).toBe(1);
    expect(await eventCount(retry.id)).toBe(1);
    expect(await g.totals()).toEqual({ appeal: 1000, campaign: 1000 });
  });

  it('keeps a paid invoice succeeded when its failure is delivered late', async () => {
    const g = await monthly(1000);
    await sendEvent(t, g.paid(g.firstInvoice));
    await sendEvent(t, g.failed(g.firstInvoice));
    const renewal = fakeId('in');
    await sendEvent(t, g.paid(renewal));
    await sendEvent(t, g.failed(renewal));
    const rows = await g.rows();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.status === 'succeeded' && r.failureMessage === null)).toBe(true);
    expect(await g.totals()).toEqual({ appeal: 2000, campaign: 2000 });
  });

  it("settles a failed renewal when its invoice is paid on retry, with Stripe's amount", async () => {
    const g = await monthly(1000);
    await sendEvent(t, g.paid(g.firstInvoice));
    const renewal = fakeId('in');
    await sendEvent(t, g.failed(renewal));
    const failedRow = (await g.rows()).find((r) => r.invoiceId === renewal)!;
    expect(await g.totals()).toEqual({ appeal: 1000, campaign: 1000 });
    const intentId = fakeId('pi');
    await sendEvent(t, g.paid(renewal, { amount: 1100, intentId }));
    const rows = await g.rows();
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.invoiceId === renewal)).toMatchObject({
      id: failedRow.id,
      status: 'succeeded',
      amount: 1100,
      failureMessage: null,
      paymentIntentId: intentId,
    });
    expect(await g.totals()).toEqual({ appeal: 2100, campaign: 2100 });
  });

  it("attributes a failed renewal without metadata to the subscription's earlier gift, and ignores invoices not ours", async () => {
    const g = await monthly(1000);
    await sendEvent(t, g.paid(g.firstInvoice));
    const renewal = fakeId('in');
    await sendEvent(t, g.failed(renewal, { metadata: {} }));
    expect((await g.rows()).find((r) => r.invoiceId === renewal)).toMatchObject({
      status: 'failed',
      campaignId: g.campaign.id,
      appealId: g.appeal.id,
    });

    const stranger = invoicePaymentFailed({
      invoiceId: fakeId('in'),
      subscriptionId: fakeId('sub'),
      amount: 1000,
      metadata: {},
      first: false,
    });
    expect(await (await sendEvent(t, stranger)).json()).toMatchObject({ outcome: 'ignored' });
    const oneOff = invoicePaymentFailed({
      invoiceId: fakeId('in'),
      subscriptionId: fakeId('sub'),
      amount: 1000,
      metadata: g.meta('one_off'),
      first: false,
    });
    expect(await (await sendEvent(t, oneOff)).json()).toMatchObject({ outcome: 'ignored' });
    expect(await g.rows()).toHaveLength(2);
    expect(await g.totals()).toEqual({ appeal: 1000, campaign: 1000 });
  });
});

describe(`POST /api/stripe/webhook: a recorded gift keeps its own attribution (${engineName})`, () => {
  /** What happens when an appeal moved to another campaign while its payment was in flight. */
  async function moveAppeal(appealId: string) {
    const elsewhere = await createCampaign(t.db);
    await t.db.update(campaigns).set({ campaignId: elsewhere.id }).where(eq(campaigns.id, appealId));
    return elsewhere;
  }

  it('settles a one-off gift whose metadata names the old parent campaign', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    await w.pending(m, 5000, intentId);
    await moveAppeal(w.appeal.id);
    const res = await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 5000, metadata: m }));
    expect(await res.json()).toEqual({ received: true, outcome: 'recorded' });
    const rows = await w.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: m.donation_id,
      status: 'succeeded',
      campaignId: w.campaign.id,
      appealId: w.appeal.id,
    });
    expect(await w.totals()).toEqual({ appeal: 5000, campaign: 5000 });
  });

  it('marks such a gift failed on a decline', async () => {
    const w = await world();
    const m = w.meta();
    const intentId = fakeId('pi');
    await w.pending(m, 700, intentId);
    await moveAppeal(w.appeal.id);
    await sendEvent(t, paymentIntentFailed({ intentId, amount: 700, metadata: m }));
    expect((await w.rows())[0]).toMatchObject({ status: 'failed' });
  });

  it('settles the first invoice and records renewals of a monthly gift the same way', async () => {
    const g = await monthly(1000);
    await moveAppeal(g.appeal.id);
    expect(await (await sendEvent(t, g.paid(g.firstInvoice))).json()).toMatchObject({ outcome: 'recorded' });
    expect(await (await sendEvent(t, g.paid(fakeId('in')))).json()).toMatchObject({ outcome: 'recorded' });
    const rows = await g.rows();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.status === 'succeeded' && r.appealId === g.appeal.id)).toBe(true);
    expect(await g.totals()).toEqual({ appeal: 2000, campaign: 2000 });
  });

  it('still ignores metadata that points at rows we do not have when no gift is recorded', async () => {
    const w = await world();
    const m = { ...w.meta(), campaign_id: crypto.randomUUID() };
    const res = await sendEvent(t, paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 900, metadata: m }));
    expect(await res.json()).toMatchObject({ outcome: 'ignored' });
    expect(await w.rows()).toHaveLength(0);
  });
});

describe(`POST /api/stripe/webhook: correctly signed but malformed events (${engineName})`, () => {
  it('answers 200 ignored (logged) for every malformed shape, so Stripe stops retrying, and writes nothing', async () => {
    const w = await world();
    const good = paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 1000, metadata: w.meta() });
    const object = good.data.object as unknown as Record<string, unknown>;
    const invoice = invoicePaid({
      invoiceId: fakeId('in'),
      subscriptionId: fakeId('sub'),
      amount: 1000,
      metadata: w.meta('monthly'),
    });
    const cases: Record<string, unknown> = {
      'data: null': { ...good, data: null },
      'data.object: null': { ...good, data: { object: null } },
      'id as an object': { ...good, id: { evil: true } },
      'type as an object': { ...good, type: { type: 'payment_intent.succeeded' } },
      'created as text': { ...good, created: 'yesterday' },
      'intent id as an object': { ...good, id: fakeId('evt'), data: { object: { ...object, id: { id: 'pi_x' } } } },
      'amount as text': { ...good, id: fakeId('evt'), data: { object: { ...object, amount: '1000' } } },
      'metadata as a list': { ...good, id: fakeId('evt'), data: { object: { ...object, metadata: ['a'] } } },
      'subscription as a number': {
        ...invoice,
        id: fakeId('evt'),
        data: {
          object: {
            ...(invoice.data.object as object),
            parent: { subscription_details: { subscription: 42, metadata: {} } },
          },
        },
      },
      'subscription items as text': {
        ...subscriptionUpdated({ subscriptionId: fakeId('sub'), amount: 1000, metadata: w.meta('monthly') }),
        data: { object: { id: fakeId('sub'), status: 'active', metadata: {}, items: 'many' } },
      },
      'failed refund amount as text': {
        ...refundFailed({ intentId: 'pi_x', amount: 100 }),
        data: { object: { id: 're_x', amount: '100', currency: 'gbp', payment_intent: 'pi_x' } },
      },
      'refund of an object id': {
        ...chargeRefunded({ intentId: 'pi_x', amount: 100, refunded: 100 }),
        data: { object: { payment_intent: { id: {} }, amount: 100, amount_refunded: 100 } },
      },
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const [name, evt] of Object.entries(cases)) {
      const res = await sendEvent(t, evt as object);
      expect(res.status, name).toBe(200);
      expect(await res.json(), name).toEqual({ received: true, outcome: 'ignored' });
    }
    const logged = warn.mock.calls
      .map((c) => String(c[0]))
      .filter((l) => l.includes('stripe event ignored: malformed'));
    expect(logged).toHaveLength(Object.keys(cases).length);
    expect(await w.rows()).toHaveLength(0);
    expect(await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, good.id))).toHaveLength(0);
    // The well-formed event still records.
    expect(await (await sendEvent(t, good)).json()).toEqual({ received: true, outcome: 'recorded' });
  });
});
