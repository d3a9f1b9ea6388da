import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaignTotals, donations, donorTotals } from '../../../db/schema';
import { seed } from '../../../db/seed';
import {
  createAppeal,
  createCampaign,
  createGiftAidDeclaration,
  createDonation,
  createUser,
  signedIn,
} from '../../../tests/factories';
import * as stripe from '../../../tests/fixtures/stripe/events';
import { bodyOf, engineName, setupTestApp, type TestApp } from '#test-app';
import { insertPendingDonation } from '../donations/pending';
import { topDonors } from './top-donors';
import {
  rebuildTotals,
  recomputeDonorTotals,
  recomputeTotals,
  storedDonorTotals,
  storedTotals,
  totalsOf,
} from './totals';

let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: stripe.WEBHOOK_SECRET });
});

async function expectStoredEqualsRecomputed() {
  const stored = await storedTotals(t.db);
  const fresh = await recomputeTotals(t.db);
  expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(fresh));
  expect(Object.fromEntries(await storedDonorTotals(t.db))).toEqual(
    Object.fromEntries(await recomputeDonorTotals(t.db)),
  );
}

/** The public summary of an appeal or a campaign, as a visitor reads it. */
const summary = {
  appeal: async (id: string) =>
    (await bodyOf(await t.client().api.appeals[':id'].$get({ param: { id } }), 200)).summary,
  campaign: async (id: string) =>
    (await bodyOf(await t.client().api.campaigns[':id'].$get({ param: { id } }), 200)).summary,
};

describe(`running totals (${engineName})`, () => {
  it('equal a from-scratch recomputation after gifts, repeated webhooks, refunds, failures and manual edits', {
    timeout: 60_000,
  }, async () => {
    const donor = await createUser(t.db);
    const adminToken = (await signedIn(t.db, 'admin')).token;
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const other = await createCampaign(t.db);
    const otherAppeal = await createAppeal(t.db, other.id);
    const declaration = await createGiftAidDeclaration(t.db, { donorId: donor.id });
    const meta = (over: Record<string, string> = {}, kind: 'one_off' | 'monthly' = 'one_off') => ({
      ...stripe.giftMetadata({ kind, campaignId: campaign.id, appealId: appeal.id, donorId: donor.id }),
      ...over,
    });
    const send = async (evt: object) => expect((await stripe.sendEvent(t, evt)).status).toBe(200);

    // 1. A one-off gift with Gift Aid, its event delivered three times and a second event for the same payment.
    const intentA = stripe.fakeId('pi');
    const metaA = meta({ gift_aid_declaration_id: declaration.id });
    const giftA = stripe.paymentIntentSucceeded({ intentId: intentA, amount: 5_000, metadata: metaA });
    await send(giftA);
    await send(giftA);
    await Promise.all([stripe.sendEvent(t, giftA), stripe.sendEvent(t, giftA)]);
    await send(stripe.paymentIntentSucceeded({ intentId: intentA, amount: 5_000, metadata: metaA }));
    expect(await totalsOf(t.db, appeal.id)).toEqual({ raised: 5_000, count: 1, giftAid: 1_250 });

    // 2. A pending gift that fails, then another that fails and is retried successfully.
    const failedMeta = meta();
    const intentF = stripe.fakeId('pi');
    await insertPendingDonation(t.db, {
      id: failedMeta.donation_id,
      amount: 2_000,
      donorId: donor.id,
      target: { campaignId: campaign.id, appealId: appeal.id },
      type: 'once',
      giftAidDeclarationId: null,
      paymentIntentId: intentF,
      invoiceId: null,
      subscriptionId: null,
      source: 'card',
      ownCheckout: true,
    });
    await send(stripe.paymentIntentFailed({ intentId: intentF, amount: 2_000, metadata: failedMeta }));
    const retryMeta = meta();
    const intentR = stripe.fakeId('pi');
    await send(stripe.paymentIntentFailed({ intentId: intentR, amount: 1_500, metadata: retryMeta }));
    const retried = stripe.paymentIntentSucceeded({ intentId: intentR, amount: 1_500, metadata: retryMeta });
    await send(retried);
    await send(retried);
    // A failure arriving late does not undo the success.
    await send(stripe.paymentIntentFailed({ intentId: intentR, amount: 1_500, metadata: retryMeta }));
    expect(await totalsOf(t.db, appeal.id)).toEqual({ raised: 6_500, count: 2, giftAid: 1_250 });

    // 3. Refunds: partial, repeated, then full (the Gift Aid gift); and a refund that arrives before its success event.
    // Stripe `created` times fixed apart, so the late partial refund is older whatever the clock does.
    const at = Math.floor(Date.now() / 1000);
    const partial = stripe.chargeRefunded({ intentId: intentA, amount: 5_000, refunded: 1_000, created: at - 30 });
    await send(partial);
    await send(partial);
    expect(await totalsOf(t.db, appeal.id)).toEqual({ raised: 5_500, count: 2, giftAid: 1_000 });
    await send(stripe.chargeRefunded({ intentId: intentA, amount: 5_000, refunded: 5_000, created: at - 20 }));
    await send(stripe.chargeRefunded({ intentId: intentA, amount: 5_000, refunded: 1_000, created: at - 25 }));
    expect(await totalsOf(t.db, appeal.id)).toEqual({ raised: 1_500, count: 1, giftAid: 0 });
    const earlyMeta = meta();
    const intentE = stripe.fakeId('pi');
    await send(stripe.chargeRefunded({ intentId: intentE, amount: 3_000, refunded: 1_000, metadata: earlyMeta }));
    await send(stripe.paymentIntentSucceeded({ intentId: intentE, amount: 3_000, metadata: earlyMeta }));
    expect(await totalsOf(t.db, appeal.id)).toEqual({ raised: 3_500, count: 2, giftAid: 0 });

    // 4. Monthly: first invoice and a renewal (each delivered twice), a failed renewal, and a failed first invoice later paid.
    const monthly = meta({ gift_aid_declaration_id: declaration.id }, 'monthly');
    const sub = stripe.fakeId('sub');
    const first = stripe.invoicePaid({
      invoiceId: stripe.fakeId('in'),
      subscriptionId: sub,
      amount: 1_000,
      metadata: monthly,
      first: true,
    });
    await send(first);
    await send(first);
    const renewal = stripe.invoicePaid({
      invoiceId: stripe.fakeId('in'),
      subscriptionId: sub,
      amount: 1_000,
      metadata: monthly,
      first: false,
    });
    await send(renewal);
    await send(renewal);
    await send(
      stripe.invoicePaymentFailed({
        invoiceId: stripe.fakeId('in'),
        subscriptionId: sub,
        amount: 1_000,
        metadata: monthly,
        first: false,
      }),
    );
    const late = meta({}, 'monthly');
    const lateSub = stripe.fakeId('sub');
    const lateInvoice = stripe.fakeId('in');
    await send(
      stripe.invoicePaymentFailed({
        invoiceId: lateInvoice,
        subscriptionId: lateSub,
        amount: 2_500,
        metadata: late,
        first: true,
      }),
    );
    await send(
      stripe.invoicePaid({
        invoiceId: lateInvoice,
        subscriptionId: lateSub,
        amount: 2_500,
        metadata: late,
        first: true,
      }),
    );
    expect(await totalsOf(t.db, appeal.id)).toEqual({ raised: 8_000, count: 5, giftAid: 500 });

    // 5. Manual gifts: recorded, edited (amount), moved to another campaign's appeal.
    const gifts = t.client(adminToken).api.donations;
    const manual = await gifts.$post({
      json: { donor: donor.id, amount: 4_000, date: '2025-03-01', campaign: campaign.id, appeal: appeal.id },
    });
    const manualId = (await bodyOf(manual, 201))._id;
    const param = { id: manualId };
    expect((await gifts[':id'].$put({ param, json: { amount: 4_500 } })).status).toBe(200);
    expect(await totalsOf(t.db, appeal.id)).toEqual({ raised: 12_500, count: 6, giftAid: 500 });
    const moved = await gifts[':id'].$put({ param, json: { campaign: other.id, appeal: otherAppeal.id } });
    expect(moved.status).toBe(200);
    expect(await totalsOf(t.db, appeal.id)).toEqual({ raised: 8_000, count: 5, giftAid: 500 });
    expect(await totalsOf(t.db, otherAppeal.id)).toEqual({ raised: 4_500, count: 1, giftAid: 0 });

    // 6. A gift straight to the campaign counts for the campaign only; a deleted row comes out.
    const direct = await createDonation(t.db, { donorId: donor.id, campaignId: campaign.id, amount: 700 });
    const gone = await createDonation(t.db, {
      donorId: donor.id,
      campaignId: campaign.id,
      appealId: appeal.id,
      amount: 300,
      giftAid: true,
    });
    await t.db.delete(donations).where(eq(donations.id, gone.id));

    expect(await totalsOf(t.db, appeal.id)).toEqual({ raised: 8_000, count: 5, giftAid: 500 });
    expect(await totalsOf(t.db, campaign.id)).toEqual({ raised: 8_700, count: 6, giftAid: 500 });
    expect(await summary.appeal(appeal.id)).toEqual({
      total_donations: 8_000,
      donation_count: 5,
      gift_aid: 500,
    });
    expect(await summary.campaign(campaign.id)).toEqual({
      total_donations: 8_700,
      donation_count: 6,
      gift_aid: 500,
    });
    const [listed] = (
      await bodyOf(await t.client().api.campaigns[':id'].appeals.$get({ param: { id: campaign.id }, query: {} }), 200)
    ).filter((a) => a._id === appeal.id);
    expect(listed.summary).toEqual({ total_donations: 8_000, donation_count: 5, gift_aid: 500 });
    await expectStoredEqualsRecomputed();
    void direct;

    // The top donors come from the per-donor totals: the donor's counted gifts to the appeal.
    // Named once a gift there came from the donor's own checkout (decision 077).
    expect(await topDonors(t.db, { appealId: appeal.id })).toEqual([{ donor: 'Anonymous', count: 5, total: 8_000 }]);
    await t.db
      .update(donations)
      .set({ ownCheckout: true })
      .where(and(eq(donations.appealId, appeal.id), eq(donations.status, 'succeeded')));
    expect(await topDonors(t.db, { appealId: appeal.id })).toEqual([{ donor: 'Test U.', count: 5, total: 8_000 }]);
    // The other appeal's only gift was typed by staff: the donor was never asked whether to be named.
    expect(await topDonors(t.db, { appealId: otherAppeal.id })).toEqual([
      { donor: 'Anonymous', count: 1, total: 4_500 },
    ]);
    // The count of the donor's own gifts moves with the gift's flag, as the triggers keep it.
    await t.db.update(donations).set({ ownCheckout: true }).where(eq(donations.id, manualId));
    expect(await topDonors(t.db, { appealId: otherAppeal.id })).toEqual([{ donor: 'Test U.', count: 1, total: 4_500 }]);
    await expectStoredEqualsRecomputed();
  });

  it('match the recomputation after the seed, and rebuildTotals restores them from the gifts', {
    timeout: 60_000,
  }, async () => {
    await seed(t.db);
    await expectStoredEqualsRecomputed();
    const before = await storedTotals(t.db);
    const donorsBefore = await storedDonorTotals(t.db);
    expect(before.size).toBeGreaterThan(10);
    await t.db.update(campaignTotals).set({ raisedPence: 1, giftCount: 0, giftAidPence: 0 });
    await t.db.delete(donorTotals);
    await rebuildTotals(t.db);
    expect(Object.fromEntries(await storedTotals(t.db))).toEqual(Object.fromEntries(before));
    expect(Object.fromEntries(await storedDonorTotals(t.db))).toEqual(Object.fromEntries(donorsBefore));
  });
});
