import { and, count, desc, eq, sql } from 'drizzle-orm';
import { checkoutOfGift, donorChoseOnAppeal, donorOfGift, giftDonorName } from '../../../db/gift-joins';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { campaigns, checkoutDetails, donations, supportMessages, users } from '../../../db/schema';
import { forbidden, notFound } from '../../lib/errors';
import { canEditCampaign } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import { displayName } from '../campaigns/top-donors';

/** The appeal a supporters list is asked for: its fundraiser, and the staff who may edit it (decision 075). */
export type SupportedAppeal = { id: string; title: string };

/**
 * Loads an appeal for its supporters list: a 404 for a campaign, an unknown id or an appeal the
 * viewer may not edit (nobody learns another fundraiser's appeal exists from a 403), else the appeal.
 */
export async function loadSupportedAppeal(ctx: { db: Db; viewer: AuthUser }, idOrShort: string) {
  const id = parseId(idOrShort);
  const [row] = id ? await ctx.db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1) : [];
  if (!row || row.campaignId === null) throw notFound('Appeal not found');
  if (!canEditCampaign(ctx.viewer, row)) {
    // Its own fundraiser after it was deleted: told why, as the editor tells them.
    if (row.createdBy === ctx.viewer.id) throw forbidden('This appeal was deleted: its supporters are no longer shown');
    throw notFound('Appeal not found');
  }
  return { id: row.id, title: row.title } satisfies SupportedAppeal;
}

export type Supporter = {
  _id: string;
  /** As the public page shows a donor: "First L.", or "Anonymous" when they gave anonymously or were never asked (decision 077). */
  name: string;
  /** Pence net of refunds; null when the donor chose to hide it. */
  amount: number | null;
  /** Their message of support; null with none, or when the charity hid it. */
  message: string | null;
  date: string;
  /** A monthly gift's payment (its first or a renewal). */
  monthly: boolean;
};

const paid = (appealId: string) => and(eq(donations.appealId, appealId), eq(donations.status, 'succeeded'));

/**
 * Every paid gift to one appeal, newest first, as the public page would show its donor: what a
 * fundraiser needs to thank their supporters. Never an email, an address or a Gift Aid choice.
 */
export async function appealSupporters(
  db: Db,
  appealId: string,
  { limit = 50, offset = 0 }: { limit?: number; offset?: number },
): Promise<{ items: Supporter[]; total: number }> {
  const [rows, [{ total }]] = await db.batch([
    db
      .select({
        id: donations.id,
        amount: sql<number>`${donations.amount} - ${donations.refundedAmount}`,
        date: donations.date,
        monthly: sql<number>`${donations.subscriptionId} is not null`,
        // The donor's choices, as the page's Top Donors reads them: a renewal never shows a name its first gift hid.
        anonymous: donorChoseOnAppeal(appealId, 'anonymous'),
        hideAmount: donorChoseOnAppeal(appealId, 'hide_amount'),
        message: supportMessages.message,
        hiddenAt: supportMessages.hiddenAt,
        // The name typed with the gift, else the account's where its donor chose to be named here.
        ...giftDonorName(appealId),
      })
      .from(donations)
      .innerJoin(users, donorOfGift)
      .leftJoin(supportMessages, eq(supportMessages.donationId, donations.id))
      .leftJoin(checkoutDetails, checkoutOfGift)
      .where(paid(appealId))
      // Gifts confirmed in the same second keep the order they were made in (rowid: insertion order).
      .orderBy(desc(donations.date), sql`donations.rowid desc`)
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(donations).where(paid(appealId)),
  ]);
  return {
    total,
    items: rows.map((r) => ({
      _id: r.id,
      name: Number(r.anonymous) ? 'Anonymous' : displayName(r.firstName, r.lastName),
      amount: Number(r.hideAmount) ? null : Number(r.amount),
      message: r.message && !r.hiddenAt ? r.message : null,
      date: new Date(r.date).toISOString(),
      monthly: Boolean(r.monthly),
    })),
  };
}
