import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationReversals, donations, payoutLines, payouts } from '../../../db/schema';
import { cardFeeOn } from '../../../domain';
import {
  createCampaign,
  createOrganization,
  createPendingCardGift,
  createUser,
  signedIn,
} from '../../../tests/factories';
import { sendEvent, signature, WEBHOOK_SECRET } from '../../../tests/fixtures/stripe/events';
import { startStripeFake, stripeModeBindings, type StripeFake } from '../../../tests/mocks/stripe-fake';
import { bodyOf, setupTestApp, type TestApp } from '#test-app';
import { createStripe } from '../../services/payments/stripe-client';
import { stripeSettlements } from '../../services/payments/settlement';
import { paymentIntentObject, stripeEvent } from '../../services/payments/stripe-objects';

/** Fees and payouts in Stripe mode: the signed webhook, the real SDK and the local Stripe fake (Node only). */
let fake: StripeFake;
let t: TestApp;
let campaignId: string;
let donorId: string;
let financeToken: string;

beforeAll(async () => {
  fake = await startStripeFake();
  t = await setupTestApp({ ...stripeModeBindings(fake), STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  const org = (await createOrganization(t.db)).id;
  campaignId = (await createCampaign(t.db, { organizationId: org })).id;
  donorId = (await createUser(t.db)).id;
  financeToken = (await signedIn(t.db, 'finance', { organizationIds: [org] })).token;
});
afterAll(() => fake.close());

/** A pending card gift the donor then pays: Stripe's payment_intent.succeeded for it (not yet sent). */
async function paymentOf(amount: number) {
  const id = crypto.randomUUID();
  const metadata = {
    kind: 'one_off',
    donation_id: id,
    campaign_id: campaignId,
    appeal_id: '',
    donor_id: donorId,
    gift_aid_declaration_id: '',
    source: 'card',
  };
  const intent = paymentIntentObject({
    id: `pi_${crypto.randomUUID().replace(/-/g, '')}`,
    amount,
    metadata,
    status: 'requires_payment_method',
  });
  fake.paymentIntents.set(intent.id as string, intent);
  await createPendingCardGift(t.db, { id, amount, donorId, campaignId, paymentIntentId: intent.id as string });
  const { event, charge } = fake.succeedPaymentIntent(intent.id as string);
  return { id, event, charge };
}

/** A gift paid and its webhook answered. */
async function paidGift(amount: number) {
  const { id, event } = await paymentOf(amount);
  const res = await sendEvent(t, event);
  expect(res.status).toBe(200);
  return id;
}

/** The webhook as the worker runs it: with `waitUntil`, so what follows the answer runs after it. */
async function sendInWorker(event: object, afterAnswer: Promise<unknown>[]) {
  const body = JSON.stringify(event);
  const executionCtx = {
    waitUntil: (work: Promise<unknown>) => afterAnswer.push(work),
    passThroughOnException: () => {},
    props: {},
  };
  const headers = { 'stripe-signature': await signature(body), 'content-type': 'application/json' };
  return t.app.request('/api/stripe/webhook', { method: 'POST', body, headers }, t.env, executionCtx);
}
const fakeStripe = () => createStripe({ stripeSecretKey: 'sk_test_fake', stripeApiBase: fake.url })!;
const chargeLookups = () => fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/charges?'));
const giftRow = async (id: string) => (await t.db.select().from(donations).where(eq(donations.id, id)))[0];

describe('fees and payouts through Stripe (libsql, Stripe fake)', () => {
  it('stores the fee from the charge’s balance transaction, then records the payout with its lines once', async () => {
    const a = await paidGift(2500);
    const b = await paidGift(10_000);
    expect(await giftRow(a)).toMatchObject({
      status: 'succeeded',
      feePence: cardFeeOn(2500),
      netPence: 2500 - cardFeeOn(2500),
      balanceTransactionId: expect.stringMatching(/^txn_/),
    });
    expect(fake.requests.some((r) => r.path.startsWith('/v1/charges?') && r.path.includes('balance_transaction'))).toBe(
      true,
    );

    fake.addBalanceTransaction({ amount: -250, type: 'adjustment', source: null, description: 'Unknown adjustment' });
    const payout = fake.createPayout();
    fake.listPageCap = 2;
    const evt = stripeEvent('payout.paid', payout);
    const first = await sendEvent(t, evt);
    const again = await sendEvent(t, evt);
    fake.listPageCap = 100;
    expect(await first.json()).toMatchObject({ outcome: 'recorded' });
    expect(await again.json()).toMatchObject({ outcome: 'duplicate' });
    const [row] = await t.db
      .select()
      .from(payouts)
      .where(eq(payouts.id, payout.id as string));
    const lines = await t.db
      .select()
      .from(payoutLines)
      .where(eq(payoutLines.payoutId, payout.id as string));
    // Every gift paid so far in this file, the adjustment, and nothing twice.
    expect(lines.filter((l) => l.type === 'adjustment')).toMatchObject([{ donationId: null, net: -250 }]);
    expect(lines.reduce((sum, l) => sum + l.net, 0)).toBe(row.amount);
    expect(row).toMatchObject({ status: 'paid', amount: payout.amount });
    expect((await giftRow(b)).payoutId).toBe(payout.id);

    const res = await t.client(financeToken).api.finance.payouts[':id'].$get({ param: { id: payout.id } });
    const body = await bodyOf(res, 200);
    expect(body.lines.map((l) => l.donation_id)).toEqual(expect.arrayContaining([a, b, null]));
    expect(body.lines_net).toBe(body.amount);
  });

  it('stores a refund’s fee from its balance transaction', async () => {
    const id = await paidGift(3000);
    const stripe = fakeStripe();
    const refund = await stripe.refunds.create({ payment_intent: (await giftRow(id)).paymentIntentId!, amount: 1000 });
    // Some payment methods keep a fee on refunds: the balance transaction says so.
    Object.assign(fake.balanceTransactions.get(refund.balance_transaction as string)!, { fee: 20, net: -1020 });
    const res = await sendEvent(t, stripeEvent('refund.created', fake.refunds.get(refund.id)));
    expect(await res.json()).toMatchObject({ outcome: 'recorded' });
    const [row] = await t.db.select().from(donationReversals).where(eq(donationReversals.providerId, refund.id));
    expect(row).toMatchObject({
      donationId: id,
      amount: 1000,
      feePence: 20,
      balanceTransactionId: refund.balance_transaction,
    });
  });

  it('records the gift without a fee when Stripe cannot be asked; the payout fills it in', async () => {
    fake.failNext = 3; // the SDK retries twice
    const id = await paidGift(4000);
    expect(await giftRow(id)).toMatchObject({ status: 'succeeded', feePence: null });
    const payout = fake.createPayout();
    await sendEvent(t, stripeEvent('payout.paid', payout));
    expect(await giftRow(id)).toMatchObject({
      feePence: cardFeeOn(4000),
      netPence: 4000 - cardFeeOn(4000),
      payoutId: payout.id,
    });
  });
});

describe('Stripe’s fee after the webhook’s answer (the worker’s waitUntil)', () => {
  it('fills the fee after the answer; a burst’s gifts share one list of charges', async () => {
    const before = chargeLookups().length;
    const gifts = await Promise.all([2000, 3000, 4000, 5000, 6000].map((amount) => paymentOf(amount)));
    const afterAnswer: Promise<unknown>[] = [];
    const first = await sendInWorker(gifts[0].event, afterAnswer);
    const rest = await Promise.all(gifts.slice(1).map((gift) => sendInWorker(gift.event, afterAnswer)));
    for (const res of [first, ...rest]) expect(await res.json()).toMatchObject({ outcome: 'recorded' });
    // Answered and recorded; the burst's fees wait for the window's end.
    expect(await giftRow(gifts[4].id)).toMatchObject({ status: 'succeeded', amount: 6000, feePence: null });
    await Promise.all(afterAnswer);
    for (const [i, gift] of gifts.entries()) {
      const amount = [2000, 3000, 4000, 5000, 6000][i];
      expect(await giftRow(gift.id)).toMatchObject({
        feePence: cardFeeOn(amount),
        netPence: amount - cardFeeOn(amount),
        balanceTransactionId: gift.charge.balance_transaction,
      });
    }
    // The first gift alone, at once; the other four in one list of the charges since their success.
    const lookups = chargeLookups().slice(before);
    expect(lookups).toHaveLength(2);
    expect(lookups[0].path).toContain(`payment_intent=${gifts[0].event.data.object.id}`);
    expect(decodeURIComponent(lookups[1].path)).toContain('created[gte]=');
  });

  it('asks one at a time for a gift the list does not reach (a charge made days before its success, a retry)', async () => {
    const recent = await paymentOf(2500);
    const bacs = await paymentOf(3500);
    const retried = await paymentOf(4500);
    const now = Math.floor(Date.now() / 1000);
    fake.charges.get(bacs.charge.id as string)!.created = now - 4 * 86_400;
    const before = chargeLookups().length;
    const found = await stripeSettlements(fakeStripe(), [
      { paymentIntentId: recent.event.data.object.id, succeededAt: recent.event.created },
      { paymentIntentId: bacs.event.data.object.id, succeededAt: bacs.event.created },
      // Succeeded an hour ago (a late retry): it does not stretch the shared list over the hour.
      { paymentIntentId: retried.event.data.object.id, succeededAt: now - 3600 },
    ]);
    expect(found.get(recent.event.data.object.id)).toEqual({
      fee: cardFeeOn(2500),
      net: 2500 - cardFeeOn(2500),
      balanceTransactionId: recent.charge.balance_transaction,
    });
    expect(found.get(bacs.event.data.object.id)?.fee).toBe(cardFeeOn(3500));
    expect(found.get(retried.event.data.object.id)?.fee).toBe(cardFeeOn(4500));
    const lookups = chargeLookups()
      .slice(before)
      .map((r) => decodeURIComponent(r.path));
    expect(lookups.map((path) => path.includes('created[gte]'))).toEqual([true, false, false]);
    expect(Number(/created\[gte\]=(\d+)/.exec(lookups[0])?.[1])).toBeGreaterThanOrEqual(now - 120);
  });

  it('leaves the fees to the payout when Stripe cannot be asked, with the gifts recorded', async () => {
    const gifts = await Promise.all([1500, 2500].map((amount) => paymentOf(amount)));
    fake.failNext = 3; // the SDK retries twice
    const found = await stripeSettlements(
      fakeStripe(),
      gifts.map((gift) => ({ paymentIntentId: gift.event.data.object.id, succeededAt: gift.event.created })),
    );
    expect(found.size).toBe(0);
    expect(fake.failNext).toBe(0);
  });
});
