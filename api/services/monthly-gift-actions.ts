import { sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { MonthlyGiftCancelledBy } from '../../domain';
import { HttpError } from '../lib/errors';
import { applyStripeEvent } from '../webhooks/stripe';
import type { WebhookContext } from '../webhooks/stripe/types';
import { attributionFromSubscription } from './donations-record';
import { DEMO_CUSTOMER } from './stripe-demo';
import { stripeEvent, subscriptionObject } from './stripe-objects';
import { findMonthlyGift, type MonthlyGiftRow, offeredPrice, pauseUntil, snapshotOf, upsertFromSubscription } from './monthly-gifts';

/**
 * Change, pause and cancel a monthly gift. With Stripe keys each acts on the Stripe Subscription
 * and stores the Subscription Stripe returns (its webhook then confirms it); in demo mode the
 * same change arrives as the `customer.subscription.*` event Stripe would send, through the
 * webhook's own recording path. A Stripe failure changes nothing here and tells the donor to retry.
 */

export type ActionContext = WebhookContext;

const stillRunning = (gift: MonthlyGiftRow) => {
  if (gift.status === 'cancelled') throw new HttpError(409, 'This monthly gift is already cancelled');
};

function stripeFailed(action: string, err: unknown): HttpError {
  console.error(`[stripe] ${action} failed:`, (err as Error)?.message ?? err);
  return new HttpError(502, `We could not ${action} just now, so nothing has changed and your monthly gift is as it was. Please try again in a few minutes.`);
}

/** Stores what Stripe answered, as new as what we have; Stripe's own event settles any race. */
async function storeStripeAnswer(ctx: ActionContext, gift: MonthlyGiftRow, sub: Stripe.Subscription) {
  const a = (await attributionFromSubscription(ctx.db, gift.id)) ?? {
    donationId: gift.firstDonationId ?? '',
    donorId: gift.donorId,
    campaignId: gift.campaignId,
    appealId: gift.appealId,
    giftAidDeclarationId: gift.giftAidDeclarationId,
    source: gift.source,
  };
  await ctx.db.batch([upsertFromSubscription(ctx.db, sql`1 = 1`, snapshotOf(sub), a, gift.lastEventAt, gift.amount)] as never);
}

/** The Subscription Stripe would hold for this gift, for demo events. */
export function demoSubscription(gift: MonthlyGiftRow, change: Partial<{ status: Stripe.Subscription.Status; amount: number; priceId: string | null; resumesAt: number | null; cancelledBy: string }>): Stripe.Subscription {
  const now = Math.floor(Date.now() / 1000);
  const cancelled = change.status === 'canceled';
  const resumesAt = change.resumesAt !== undefined ? change.resumesAt : gift.status === 'paused' && gift.pauseResumesAt ? Math.floor(gift.pauseResumesAt.getTime() / 1000) : null;
  const next = gift.nextPaymentAt ? Math.floor(gift.nextPaymentAt.getTime() / 1000) : now + 30 * 86400;
  return subscriptionObject({
    id: gift.id,
    customer: DEMO_CUSTOMER,
    status: change.status ?? 'active',
    amount: change.amount ?? gift.amount,
    priceId: change.priceId ?? gift.priceId ?? 'price_demo',
    itemId: `si_demo_${gift.id.slice(8, 20)}`,
    metadata: {
      kind: 'monthly',
      donation_id: gift.firstDonationId ?? '',
      campaign_id: gift.campaignId,
      appeal_id: gift.appealId ?? '',
      donor_id: gift.donorId,
      gift_aid_declaration_id: gift.giftAidDeclarationId ?? '',
      source: 'demo',
    },
    startDate: gift.startedAt ? Math.floor(gift.startedAt.getTime() / 1000) : now,
    periodEnd: Math.max(next, resumesAt ?? 0),
    pauseResumesAt: cancelled ? null : resumesAt,
    cancelComment: cancelled ? (change.cancelledBy ?? null) : null,
  }) as unknown as Stripe.Subscription;
}

async function applyDemo(ctx: ActionContext, type: 'customer.subscription.updated' | 'customer.subscription.deleted', sub: Stripe.Subscription, previous: Record<string, unknown>) {
  const event = stripeEvent(type, sub, { id: `evt_demo_${type.split('.').pop()}_${crypto.randomUUID()}`, previous_attributes: previous, pending_webhooks: 0 });
  await applyStripeEvent({ ...ctx, stripe: null }, event);
}

const isDemo = (ctx: ActionContext, gift: MonthlyGiftRow) => !ctx.stripe || gift.source === 'demo';

export async function cancelMonthlyGift(ctx: ActionContext, gift: MonthlyGiftRow, by: MonthlyGiftCancelledBy): Promise<MonthlyGiftRow> {
  stillRunning(gift);
  if (isDemo(ctx, gift)) {
    await applyDemo(ctx, 'customer.subscription.deleted', demoSubscription(gift, { status: 'canceled', cancelledBy: by }), { status: 'active' });
  } else {
    let sub: Stripe.Subscription;
    try {
      sub = await ctx.stripe!.subscriptions.cancel(gift.id, { cancellation_details: { comment: by } });
    } catch (err) {
      throw stripeFailed('cancel your monthly gift', err);
    }
    await storeStripeAnswer(ctx, gift, sub);
  }
  return (await findMonthlyGift(ctx.db, gift.id))!;
}

export async function changeMonthlyGiftAmount(ctx: ActionContext, gift: MonthlyGiftRow, priceId: string): Promise<MonthlyGiftRow> {
  stillRunning(gift);
  const price = await offeredPrice(ctx.db, priceId);
  if (price.unit_amount === gift.amount) throw new HttpError(400, 'price: your monthly gift is already this amount');
  if (isDemo(ctx, gift)) {
    await applyDemo(ctx, 'customer.subscription.updated', demoSubscription(gift, { amount: price.unit_amount, priceId: price.id }), {
      items: { data: [{ price: { id: gift.priceId, unit_amount: gift.amount } }] },
    });
  } else {
    let sub: Stripe.Subscription;
    try {
      const current = await ctx.stripe!.subscriptions.retrieve(gift.id);
      const item = current.items.data[0];
      // No proration: the new amount starts with the next monthly payment, nothing is charged now.
      sub = await ctx.stripe!.subscriptions.update(gift.id, { items: [{ id: item.id, price: price.id }], proration_behavior: 'none' });
    } catch (err) {
      throw stripeFailed('change your monthly gift', err);
    }
    await storeStripeAnswer(ctx, gift, sub);
  }
  return (await findMonthlyGift(ctx.db, gift.id))!;
}

export async function pauseMonthlyGift(ctx: ActionContext, gift: MonthlyGiftRow, months: number): Promise<MonthlyGiftRow> {
  stillRunning(gift);
  const until = pauseUntil(months);
  const resumesAt = Math.floor(until.getTime() / 1000);
  if (isDemo(ctx, gift)) {
    await applyDemo(ctx, 'customer.subscription.updated', demoSubscription(gift, { resumesAt }), { pause_collection: null });
  } else {
    let sub: Stripe.Subscription;
    try {
      // 'void': invoices made during the pause are voided, so the donor is never charged for them.
      sub = await ctx.stripe!.subscriptions.update(gift.id, { pause_collection: { behavior: 'void', resumes_at: resumesAt } });
    } catch (err) {
      throw stripeFailed('pause your monthly gift', err);
    }
    await storeStripeAnswer(ctx, gift, sub);
  }
  return (await findMonthlyGift(ctx.db, gift.id))!;
}

/** A Stripe customer portal session where the donor updates the card (Stripe mode only). */
export async function cardUpdateUrl(stripe: Stripe, customerId: string, returnUrl: string): Promise<string> {
  const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl, flow_data: { type: 'payment_method_update' } });
  return session.url;
}
