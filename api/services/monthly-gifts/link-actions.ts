import { and, eq, isNull } from 'drizzle-orm';
import { monthlyGifts } from '../../../db/schema';
import { HttpError } from '../../lib/errors';
import { cancelMonthlyGift, type ActionContext } from './donor-actions';
import type { MonthlyGiftDto } from '../../schemas/monthly-gifts';
import { donorContact, findMonthlyGift, toMonthlyGiftDtos } from './records';
import { verifyMonthlyLink } from './link-tokens';
import { errorSummary, logLine } from '../../middlewares/logger';

/**
 * What the signed links in monthly emails lead to. Every outcome is a state with a sentence for a
 * person (the confirmation page shows it); nothing here throws for a bad link.
 */
export type LinkState =
  | { state: 'ready'; gift: MonthlyGiftDto }
  | { state: 'done'; gift: MonthlyGiftDto }
  | { state: 'invalid' | 'expired' | 'used' | 'cancelled' | 'failed'; message: string; gift?: MonthlyGiftDto };

const MESSAGES = {
  invalid:
    'This link is not valid. It may have been cut short or changed when it was copied. Open the link from your latest receipt again, or sign in and use My Donations.',
  expired:
    'This cancel link has expired: links in receipts work for 60 days. Your gift has not changed. Use the link in your latest receipt, or sign in and cancel from My Donations.',
  used: 'This cancel link has already been used, so your monthly gift is cancelled. No further payments will be taken.',
  cancelled: 'This monthly gift is already cancelled. No further payments will be taken.',
};

type Ctx = Pick<ActionContext, 'db'> & { authSecret: string };

export async function readCancelLink(ctx: Ctx, token: string | null | undefined, now = new Date()): Promise<LinkState> {
  const check = await verifyMonthlyLink(ctx.authSecret, 'cancel', token, now);
  if (!check.ok)
    return check.reason === 'expired'
      ? { state: 'expired', message: MESSAGES.expired }
      : { state: 'invalid', message: MESSAGES.invalid };
  const row = await findMonthlyGift(ctx.db, check.subscriptionId);
  if (!row) return { state: 'invalid', message: MESSAGES.invalid };
  const [gift] = await toMonthlyGiftDtos(ctx.db, [row]);
  if (row.cancelLinkUsedAt) return { state: 'used', message: MESSAGES.used, gift };
  if (row.status === 'cancelled') return { state: 'cancelled', message: MESSAGES.cancelled, gift };
  return { state: 'ready', gift };
}

/** Cancels through the link once. A Stripe failure leaves the gift running and the link usable. */
export async function cancelByLink(
  ctx: ActionContext & { authSecret: string },
  token: string | null | undefined,
  now = new Date(),
): Promise<LinkState> {
  const view = await readCancelLink(ctx, token, now);
  if (view.state !== 'ready') return view;
  const id = view.gift._id;
  // Claim the link first: of two concurrent submits only one goes on to cancel.
  const claimed = await ctx.db
    .update(monthlyGifts)
    .set({ cancelLinkUsedAt: now })
    .where(and(eq(monthlyGifts.id, id), isNull(monthlyGifts.cancelLinkUsedAt)))
    .returning({ id: monthlyGifts.id });
  if (!claimed.length) return { state: 'used', message: MESSAGES.used };
  try {
    const row = await findMonthlyGift(ctx.db, id);
    const cancelled = await cancelMonthlyGift(ctx, row!, 'link');
    return { state: 'done', gift: (await toMonthlyGiftDtos(ctx.db, [cancelled]))[0] };
  } catch (err) {
    await ctx.db.update(monthlyGifts).set({ cancelLinkUsedAt: null }).where(eq(monthlyGifts.id, id));
    if (err instanceof HttpError && err.status === 409) return { state: 'cancelled', message: MESSAGES.cancelled };
    const message =
      err instanceof HttpError && err.status < 500
        ? err.message
        : err instanceof HttpError
          ? err.message
          : 'Something went wrong on our side. Your monthly gift is still active: please try again in a few minutes.';
    if (!(err instanceof HttpError))
      logLine('error', 'monthly gift cancel by link failed', { error: errorSummary(err) });
    return { state: 'failed', message, gift: view.gift };
  }
}

export type CardLinkState =
  | { state: 'redirect'; url: string }
  | { state: 'demo' | 'invalid' | 'expired' | 'cancelled' | 'failed'; message: string };

const DEMO_CARD: CardLinkState = {
  state: 'demo',
  message: 'This is a demo monthly gift: no real card is on file, so there is nothing to update.',
};

/** The "update my card" link of a failed-renewal email: a fresh Stripe customer portal session. */
export async function cardUpdateByLink(
  ctx: ActionContext & { authSecret: string; returnUrl: string },
  token: string | null | undefined,
  now = new Date(),
): Promise<CardLinkState> {
  const check = await verifyMonthlyLink(ctx.authSecret, 'card', token, now);
  if (!check.ok) {
    return check.reason === 'expired'
      ? { state: 'expired', message: 'This link has expired. Sign in and open My Donations to see your monthly gifts.' }
      : {
          state: 'invalid',
          message:
            'This link is not valid. Open the link from your latest email again, or sign in and use My Donations.',
        };
  }
  const gift = await findMonthlyGift(ctx.db, check.subscriptionId);
  if (!gift)
    return {
      state: 'invalid',
      message: 'This link is not valid. Open the link from your latest email again, or sign in and use My Donations.',
    };
  if (gift.status === 'cancelled')
    return { state: 'cancelled', message: 'This monthly gift is cancelled, so there is no card to update.' };
  const payments = ctx.payments.forSource(gift.source);
  if (!payments.keepsCardOnFile) return DEMO_CARD;
  const donor = await donorContact(ctx.db, gift.donorId);
  if (!donor?.stripeCustomerId)
    return {
      state: 'failed',
      message: 'We could not find the card for this gift. Please contact us and we will help.',
    };
  try {
    const url = await payments.cardUpdateUrl(donor.stripeCustomerId, ctx.returnUrl);
    return url ? { state: 'redirect', url } : DEMO_CARD;
  } catch (err) {
    logLine('error', 'stripe customer portal session failed', { error: errorSummary(err) });
    return {
      state: 'failed',
      message: 'Our payment provider did not answer. Please try the link again in a few minutes.',
    };
  }
}
