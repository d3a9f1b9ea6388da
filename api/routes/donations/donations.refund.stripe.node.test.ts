import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, donationReversals, donations } from '../../../db/schema';
import { paymentIntentObject } from '../../services/payments/stripe-objects';
import { createCharity, createDonation, createUser, signedIn, type SignedIn } from '../../../tests/factories';
import { startStripeFake, stripeModeBindings, type StripeFake } from '../../../tests/mocks/stripe-fake';
import { errorOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

/** Card refunds in Stripe mode: the real SDK against the local Stripe fake (Node only). */
let fake: StripeFake;
let t: TestApp;
let finance: SignedIn;
let campaignId: string;
let donorId: string;

beforeAll(async () => {
  fake = await startStripeFake();
  t = await setupTestApp(stripeModeBindings(fake));
  const { org, campaign } = await createCharity(t.db);
  campaignId = campaign.id;
  finance = await signedIn(t.db, 'finance', { organizationIds: [org.id] });
  donorId = (await createUser(t.db)).id;
});
afterAll(() => fake.close());

/** A card gift Stripe knows: its PaymentIntent succeeded in the fake, with a charge to refund. */
async function cardGift() {
  const intent = paymentIntentObject({
    id: `pi_${crypto.randomUUID().replace(/-/g, '')}`,
    amount: 4000,
    metadata: {},
    status: 'requires_payment_method',
  });
  fake.paymentIntents.set(intent.id as string, intent);
  fake.succeedPaymentIntent(intent.id as string);
  return createDonation(t.db, {
    donorId,
    campaignId,
    amount: 4000,
    source: 'card',
    paymentIntentId: intent.id as string,
  });
}
const refund = (id: string, json: JsonOf<TestClient['api']['donations'][':id']['refund']['$post']>) =>
  t.client(finance.token).api.donations[':id'].refund.$post({ param: { id }, json, header: {} });
const reversals = (id: string) => t.db.select().from(donationReversals).where(eq(donationReversals.donationId, id));

describe('card refunds through Stripe (libsql, Stripe fake)', () => {
  it('creates one Stripe Refund with our metadata and idempotency key, and records it once', async () => {
    const g = await cardGift();
    const res = await refund(g.id, { amount: 1500, reason: 'requested_by_customer' });
    expect(res.status, await res.clone().text()).toBe(201);
    const call = fake.requests.find((r) => r.path === '/v1/refunds' && r.body.payment_intent === g.paymentIntentId)!;
    expect(call.body).toMatchObject({
      amount: '1500',
      reason: 'requested_by_customer',
      metadata: { donation_id: g.id },
    });
    expect(call.idempotencyKey).toMatch(/^refund-/);
    const [row] = await reversals(g.id);
    expect(row).toMatchObject({
      status: 'succeeded',
      amount: 1500,
      providerId: expect.stringMatching(/^re_/),
      id: call.body.metadata.reversal_id,
    });
    expect((await t.db.select().from(donations).where(eq(donations.id, g.id)))[0]).toMatchObject({
      refundedAmount: 1500,
      status: 'succeeded',
    });
  });

  it('answers 502 when Stripe refuses, leaving no refund counted and nothing half-written', async () => {
    const g = await cardGift();
    // A definite refusal (Stripe answered 400): nothing was made, so the row is failed and frees its amount.
    fake.refuseNextRefund = 'charge_already_refunded';
    const res = await refund(g.id, { reason: 'duplicate' });
    expect((await errorOf(res, 502)).message).toMatch(/Nothing was refunded/);
    const rows = await reversals(g.id);
    expect(rows.map((r) => r.status)).toEqual(['failed']);
    expect((await t.db.select().from(donations).where(eq(donations.id, g.id)))[0]).toMatchObject({
      refundedAmount: 0,
      status: 'succeeded',
    });
    const retry = await refund(g.id, { reason: 'duplicate' });
    expect(retry.status).toBe(201);
    expect((await t.db.select().from(donations).where(eq(donations.id, g.id)))[0]).toMatchObject({
      refundedAmount: 4000,
      status: 'refunded',
    });
    expect((await t.db.select().from(auditLog).where(eq(auditLog.targetId, g.id))).length).toBe(2);
  });

  it('holds a refund Stripe did not answer as pending (504), reserved, and never makes it twice when sent again', async () => {
    // Stripe made the refund, then its answer was a 500 (which it replays for that key): found, recorded once.
    for (const made of [true, false]) {
      const g = await cardGift();
      fake.fail500Saved = { made };
      const key = crypto.randomUUID();
      const send = () =>
        t.client(finance.token).api.donations[':id'].refund.$post({
          param: { id: g.id },
          json: { amount: 2500, reason: 'requested_by_customer' },
          header: { 'idempotency-key': key },
        });
      const first = await send();
      expect((await errorOf(first, 504)).message).toMatch(/may have been made.*held as pending/);
      const [held] = await reversals(g.id);
      expect(held).toMatchObject({
        status: 'pending',
        amount: 2500,
        note: expect.stringMatching(/^No answer from Stripe/),
      });
      // Its amount stays reserved: no second refund can take it while Stripe has not said.
      expect((await errorOf(await refund(g.id, { amount: 2000, reason: 'duplicate' }), 400)).message).toMatch(
        /at most 1500 pence/,
      );
      // Sent again: the refund Stripe made is found by our reversal id; if none, it is made under a new key.
      const again = await send();
      expect(again.status, await again.clone().text()).toBe(200);
      const created = fake.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v1/refunds' && r.body.payment_intent === g.paymentIntentId,
      );
      // (The SDK's own retries repeat the first key, and get Stripe's saved 500 each time.)
      expect([...new Set(created.map((r) => r.idempotencyKey))]).toEqual(
        made ? [`refund-${held.id}`] : [`refund-${held.id}`, `refund-${held.id}-again`],
      );
      const charge = [...fake.charges.values()].find((c) => c.payment_intent === g.paymentIntentId)!;
      expect(charge.amount_refunded).toBe(2500);
      expect(await reversals(g.id)).toMatchObject([
        { id: held.id, status: 'succeeded', providerId: expect.stringMatching(/^re_/) },
      ]);
      expect((await t.db.select().from(donations).where(eq(donations.id, g.id)))[0]).toMatchObject({
        refundedAmount: 2500,
      });
      // A third time changes nothing, at Stripe or here.
      expect((await send()).status).toBe(200);
      expect(charge.amount_refunded).toBe(2500);
    }
  });
});
