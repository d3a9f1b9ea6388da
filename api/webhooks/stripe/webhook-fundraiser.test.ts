import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { appealNotifications, donations, fundraiserPendingGifts, outbox } from '../../../db/schema';
import { createAppeal, createCampaign, createPendingCardGift, createUser } from '../../../tests/factories';
import { fakeId, paymentIntentSucceeded, sendEvent, WEBHOOK_SECRET } from '../../../tests/fixtures/stripe/events';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { applyStripeEvent } from './apply';

let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
});

/** A fundraiser's appeal (a goal no test gift reaches halfway), a donor, and a gift's pending row and event. */
async function world() {
  const fundraiser = await createUser(t.db, { firstName: 'Fay', email: `fay-${crypto.randomUUID()}@example.com` });
  const donor = await createUser(t.db);
  const campaign = await createCampaign(t.db);
  const appeal = await createAppeal(t.db, campaign.id, { goal: 10_000_000, createdBy: fundraiser.id });
  const gift = async (amount: number) => {
    const intentId = fakeId('pi');
    const donationId = await createPendingCardGift(t.db, {
      amount,
      donorId: donor.id,
      campaignId: campaign.id,
      appealId: appeal.id,
      paymentIntentId: intentId,
    });
    const metadata = {
      kind: 'one_off',
      donation_id: donationId,
      campaign_id: campaign.id,
      appeal_id: appeal.id,
      donor_id: donor.id,
      gift_aid_declaration_id: '',
      source: 'card',
    };
    return { donationId, metadata, event: paymentIntentSucceeded({ intentId, amount, metadata }) };
  };
  const pending = () =>
    t.db.select().from(fundraiserPendingGifts).where(eq(fundraiserPendingGifts.appealId, appeal.id));
  const fundraiserMail = () => t.db.select().from(outbox).where(eq(outbox.to, fundraiser.email));
  return { appeal, gift, pending, fundraiserMail };
}

const outcomeOf = async (res: Response) => {
  expect(res.status).toBe(200);
  return ((await res.json()) as { outcome: string }).outcome;
};

describe(`POST /api/stripe/webhook: a gift to an appeal tells its fundraiser (${engineName})`, () => {
  it('records the gift and its news for the fundraiser in one batch, once, whatever the copies', async () => {
    const w = await world();
    const first = await w.gift(1_500);
    expect(await outcomeOf(await sendEvent(t, first.event))).toBe('recorded');
    // The first gift of the hour is told at once.
    expect(await w.pending()).toEqual([
      expect.objectContaining({ donationId: first.donationId, amount: 1_500, sentAt: expect.any(Date) }),
    ]);
    expect((await w.fundraiserMail()).map((m) => m.subject)).toEqual([expect.stringContaining('received a new gift')]);
    const [tracked] = await t.db
      .select()
      .from(appealNotifications)
      .where(eq(appealNotifications.appealId, w.appeal.id));
    expect(tracked.lastSentAt).toBeInstanceOf(Date);

    // Within the hour: the gift waits as news, no second email; its copies (at once and later) add nothing.
    const second = await w.gift(2_500);
    const copies = await Promise.all([sendEvent(t, second.event), sendEvent(t, second.event)]);
    expect((await Promise.all(copies.map(outcomeOf))).sort()).toEqual(['duplicate', 'recorded']);
    expect(await outcomeOf(await sendEvent(t, second.event))).toBe('duplicate');
    const rows = await w.pending();
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.donationId === second.donationId)).toMatchObject({ amount: 2_500, sentAt: null });
    expect(await w.fundraiserMail()).toHaveLength(1);
    const [recorded] = await t.db.select().from(donations).where(eq(donations.id, second.donationId));
    expect(recorded.status).toBe('succeeded');
  });

  it('writes the news in the recording batch itself: nothing after the batch is needed to keep it', async () => {
    const w = await world();
    const gift = await w.gift(3_000);
    // No mail context: nothing runs after the batch, yet the gift is news for the hourly flush.
    expect(await applyStripeEvent({ db: t.db, stripe: null }, gift.event as unknown as Stripe.Event)).toBe('recorded');
    expect(await w.pending()).toEqual([
      expect.objectContaining({ donationId: gift.donationId, amount: 3_000, sentAt: null }),
    ]);
    expect(await w.fundraiserMail()).toHaveLength(0);
  });

  it('writes no news for the fundraiser when the gift is not recorded (a payment that names another gift)', async () => {
    const w = await world();
    const first = await w.gift(1_000);
    expect(await outcomeOf(await sendEvent(t, first.event))).toBe('recorded');
    // Metadata copied onto another PaymentIntent: ignored, nothing recorded twice.
    const copied = paymentIntentSucceeded({
      intentId: fakeId('pi'),
      amount: 1_000,
      metadata: first.metadata,
    });
    expect(await outcomeOf(await sendEvent(t, copied))).toBe('ignored');
    expect(await w.pending()).toHaveLength(1);
  });
});
