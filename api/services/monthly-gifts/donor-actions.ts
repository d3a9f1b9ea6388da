import { eq, sql } from 'drizzle-orm';
import { campaigns } from '../../../db/schema';
import { type AuditActor, actorOf, auditInsert } from '../audit/append';
import type Stripe from 'stripe';
import type { MonthlyGiftCancelledBy } from '../../../domain';
import { HttpError } from '../../lib/errors';
import { applyProviderEvent } from '../../webhooks/stripe/apply';
import { attributionFromSubscription, type Statement } from '../donations/record';
import {
  findMonthlyGift,
  type MonthlyGiftRow,
  offeredPrice,
  pauseUntil,
  snapshotOf,
  upsertFromSubscription,
} from './records';
import type { PaymentProvider, SubscriptionChange } from '../payments';
import { errorSummary, logLine } from '../../middlewares/logger';
import type { ServiceContext } from '../../lib/service-context';

/**
 * Change, pause and cancel a monthly gift through the payment provider. Stripe's answer is stored
 * at once (its webhook then confirms it); a demo change arrives as the `customer.subscription.*`
 * event Stripe would send, through the webhook's own recording path. A provider failure changes
 * nothing here and tells the donor to retry.
 */

export type ActionContext = Pick<ServiceContext, 'db' | 'payments'> & Partial<Pick<ServiceContext, 'mail'>>;

const stillRunning = (gift: MonthlyGiftRow) => {
  if (gift.status === 'cancelled') throw new HttpError(409, 'This monthly gift is already cancelled');
};

function providerFailed(action: string, err: unknown): HttpError {
  logLine('error', 'stripe call failed', { action, error: errorSummary(err) });
  return new HttpError(
    502,
    `We could not ${action} just now, so nothing has changed and your monthly gift is as it was. Please try again in a few minutes.`,
  );
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
  const upsert: [Statement] = [
    upsertFromSubscription(ctx.db, sql`1 = 1`, snapshotOf(sub), a, gift.lastEventAt, gift.amount),
  ];
  await ctx.db.batch(upsert);
}

async function change(
  ctx: ActionContext,
  gift: MonthlyGiftRow,
  what: SubscriptionChange,
  action: string,
): Promise<MonthlyGiftRow> {
  const payments = ctx.payments.forSource(gift.source);
  let result: Awaited<ReturnType<PaymentProvider['changeSubscription']>>;
  try {
    result = await payments.changeSubscription(gift, what);
  } catch (err) {
    throw providerFailed(action, err);
  }
  if ('event' in result) await applyProviderEvent({ db: ctx.db, mail: ctx.mail, payments }, result.event);
  else await storeStripeAnswer(ctx, gift, result.answer);
  return (await findMonthlyGift(ctx.db, gift.id))!;
}

export async function cancelMonthlyGift(
  ctx: ActionContext,
  gift: MonthlyGiftRow,
  by: MonthlyGiftCancelledBy,
): Promise<MonthlyGiftRow> {
  stillRunning(gift);
  return change(ctx, gift, { kind: 'cancel', by }, 'cancel your monthly gift');
}

/**
 * Staff cancelling a donor's monthly gift (the gift's page): the provider's change, then its audit
 * row. The provider call cannot share a batch with the row; a retry of a cancelled gift is a 409
 * before either, so the row is written once.
 */
export async function cancelMonthlyGiftForDonor(
  ctx: ActionContext & { viewer: AuditActor['user']; requestId: string | null },
  gift: MonthlyGiftRow,
): Promise<MonthlyGiftRow> {
  const cancelled = await cancelMonthlyGift(ctx, gift, 'admin');
  const [campaign] = await ctx.db
    .select({ organizationId: campaigns.organizationId })
    .from(campaigns)
    .where(eq(campaigns.id, gift.campaignId))
    .limit(1);
  await auditInsert(ctx.db, actorOf(ctx.viewer, ctx.requestId), {
    action: 'monthly_gift.cancel',
    targetType: 'monthly_gift',
    targetId: gift.id,
    organizationId: campaign?.organizationId ?? null,
    changes: { status: [gift.status, cancelled.status] },
  });
  return cancelled;
}

export async function changeMonthlyGiftAmount(
  ctx: ActionContext,
  gift: MonthlyGiftRow,
  priceId: string,
): Promise<MonthlyGiftRow> {
  stillRunning(gift);
  const price = await offeredPrice(ctx.db, priceId);
  if (price.unit_amount === gift.amount) throw new HttpError(400, 'price: your monthly gift is already this amount');
  return change(ctx, gift, { kind: 'price', price }, 'change your monthly gift');
}

export async function pauseMonthlyGift(
  ctx: ActionContext,
  gift: MonthlyGiftRow,
  months: number,
): Promise<MonthlyGiftRow> {
  stillRunning(gift);
  // A second pause would count from today and could end the first one early: resume, then pause.
  if (gift.status === 'paused')
    throw new HttpError(409, 'This monthly gift is already paused. Resume it first to choose another pause.');
  const resumesAt = Math.floor(pauseUntil(months).getTime() / 1000);
  return change(ctx, gift, { kind: 'pause', resumesAt }, 'pause your monthly gift');
}

/** Ends a pause now: payments go on from the next scheduled date. */
export async function resumeMonthlyGift(ctx: ActionContext, gift: MonthlyGiftRow): Promise<MonthlyGiftRow> {
  stillRunning(gift);
  if (gift.status !== 'paused') throw new HttpError(409, 'This monthly gift is not paused');
  return change(ctx, gift, { kind: 'resume' }, 'resume your monthly gift');
}
