import { z } from '@hono/zod-openapi';
import { and, desc, eq, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { appeals, donorNameColumns, donorOfGift, giftDonorName, giftOf } from '../../../db/gift-joins';
import type { Db } from '../../../db/client';
import type { IdValue } from '../../../db/prepared';
import { parseId } from '../../../domain/ids';
import { campaigns, checkoutDetails, donations, supportMessages, users } from '../../../db/schema';
import { notFound } from '../../lib/errors';
import { orgCondition, staffScope } from '../reports/scope';
import { displayName } from '../campaigns/top-donors';
import type { ViewerContext } from '../../lib/service-context';

export const SUPPORT_MESSAGE_MAX = 280;
export const APPEAL_MESSAGES_LIMIT = 10;
// Gifts confirmed in the same second keep the order they were made in (rowid: insertion order).

// Control characters other than line breaks never belong in a message shown on a public page.
const CONTROL = /[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/g;

/** The donation box's optional fields, spread into the checkout body. */
export const supportMessageShape = {
  message: z
    .string({ error: 'message: must be text' })
    .transform((v) => v.replace(CONTROL, '').replace(/\r\n?/g, '\n').trim())
    .refine((v) => [...v].length <= SUPPORT_MESSAGE_MAX, `message: use at most ${SUPPORT_MESSAGE_MAX} characters`)
    .nullable()
    .optional()
    .openapi({
      description: `A message of support shown on the appeal page (at most ${SUPPORT_MESSAGE_MAX} characters)`,
    }),
  anonymous: z
    .boolean({ error: 'anonymous: must be true or false' })
    .optional()
    .openapi({ description: 'Give anonymously: show "Anonymous" instead of the name, here and on top donors' }),
  hide_amount: z
    .boolean({ error: 'hide_amount: must be true or false' })
    .optional()
    .openapi({ description: 'Hide the amount next to the message' }),
};

export type SupportChoices = { message?: string | null; anonymous?: boolean; hide_amount?: boolean };

/** Stores the donor's choices for a checkout's gift; nothing when they made none. */
export async function saveSupportChoices(
  db: Db,
  donationId: string,
  target: { campaignId: string; appealId: string | null },
  input: SupportChoices,
): Promise<void> {
  const message = input.message ? input.message : null;
  if (!message && !input.anonymous && !input.hide_amount) return;
  await db
    .insert(supportMessages)
    .values({
      donationId,
      campaignId: target.campaignId,
      appealId: target.appealId,
      message,
      anonymous: input.anonymous ?? false,
      hideAmount: input.hide_amount ?? false,
    })
    .onConflictDoNothing({ target: supportMessages.donationId });
}

export type PublicMessage = { _id: string; name: string; message: string; amount: number | null; date: string };

/** The latest visible messages on an appeal (or a campaign's own page): paid gifts only, newest first. */
export async function latestMessages(
  db: Db,
  target: { appealId: string } | { campaignId: string },
  limit = APPEAL_MESSAGES_LIMIT,
): Promise<PublicMessage[]> {
  return (await latestMessagesQuery(db, target, limit)).map(toPublicMessage);
}

/** The query behind latestMessages, for pages that send it in one db.batch with others. */
export function latestMessagesQuery(
  db: Db,
  target: { appealId: IdValue } | { campaignId: IdValue },
  limit = APPEAL_MESSAGES_LIMIT,
) {
  const where =
    'appealId' in target
      ? eq(supportMessages.appealId, target.appealId)
      : eq(supportMessages.campaignId, target.campaignId);
  return db
    .select({
      id: supportMessages.donationId,
      message: supportMessages.message,
      anonymous: supportMessages.anonymous,
      hideAmount: supportMessages.hideAmount,
      amount: sql<number>`${donations.amount} - ${donations.refundedAmount}`,
      date: donations.date,
      // The name typed with the gift, else the account's where its donor chose to be named here.
      ...giftDonorName('appealId' in target ? target.appealId : target.campaignId),
    })
    .from(supportMessages)
    .innerJoin(donations, giftOf(supportMessages))
    .innerJoin(users, donorOfGift)
    .leftJoin(checkoutDetails, eq(checkoutDetails.donationId, supportMessages.donationId))
    .where(
      and(
        where,
        isNull(supportMessages.hiddenAt),
        isNotNull(supportMessages.message),
        ne(supportMessages.message, ''),
        eq(donations.status, 'succeeded'),
      ),
    )
    .orderBy(desc(donations.date), sql`support_messages.rowid desc`)
    .limit(Math.min(Math.max(limit, 1), 50));
}

type MessageRow = Awaited<ReturnType<typeof latestMessagesQuery>>[number];

export function toPublicMessage(r: MessageRow): PublicMessage {
  return {
    _id: r.id,
    name: r.anonymous ? 'Anonymous' : displayName(r.firstName, r.lastName),
    message: r.message ?? '',
    amount: r.hideAmount ? null : Number(r.amount),
    date: new Date(r.date).toISOString(),
  };
}

export type StaffMessage = Omit<PublicMessage, 'amount'> & {
  amount: number;
  donor: string;
  anonymous: boolean;
  hide_amount: boolean;
  hidden: boolean;
  status: string;
  campaign: string;
  appeal: string | null;
};

const campaign = alias(campaigns, 'campaign');

/** Messages for moderation: hidden ones included, within the viewer's organizations. */
export async function staffMessages(
  ctx: ViewerContext,
  filter: { donation_id?: string; appeal_id?: string; campaign_id?: string; limit?: number },
): Promise<StaffMessage[]> {
  const { db, viewer } = ctx;
  const scope = orgCondition(staffScope(viewer), sql`${campaign.organizationId}`);
  const conditions: (SQL | undefined)[] = [
    scope,
    isNotNull(supportMessages.message),
    filter.donation_id ? eq(supportMessages.donationId, filter.donation_id) : undefined,
    filter.appeal_id ? eq(supportMessages.appealId, filter.appeal_id) : undefined,
    filter.campaign_id ? eq(supportMessages.campaignId, filter.campaign_id) : undefined,
  ];
  const rows = await db
    .select({
      sm: supportMessages,
      amount: donations.amount,
      refunded: donations.refundedAmount,
      date: donations.date,
      status: donations.status,
      ...donorNameColumns,
      email: users.email,
      campaignTitle: campaign.title,
      appealTitle: appeals.title,
    })
    .from(supportMessages)
    .innerJoin(donations, giftOf(supportMessages))
    .innerJoin(users, donorOfGift)
    .innerJoin(campaign, eq(campaign.id, supportMessages.campaignId))
    .leftJoin(appeals, eq(appeals.id, supportMessages.appealId))
    .where(and(...conditions))
    .orderBy(desc(donations.date), sql`support_messages.rowid desc`)
    .limit(Math.min(filter.limit ?? 50, 100));
  return rows.map((r) => ({
    _id: r.sm.donationId,
    name: r.sm.anonymous ? 'Anonymous' : displayName(r.firstName, r.lastName),
    donor: `${r.firstName} ${r.lastName}`.trim() || r.email,
    message: r.sm.message ?? '',
    amount: r.amount - r.refunded,
    date: r.date.toISOString(),
    anonymous: r.sm.anonymous,
    hide_amount: r.sm.hideAmount,
    hidden: r.sm.hiddenAt !== null,
    status: r.status,
    campaign: r.campaignTitle,
    appeal: r.appealTitle ?? null,
  }));
}

/** Hide or show one message; staff only, inside their organizations (else 404, like the lists). */
export async function setMessageHidden(ctx: ViewerContext, idParam: string, hidden: boolean): Promise<StaffMessage> {
  const { db, viewer } = ctx;
  const id = parseId(idParam);
  const [existing] = id ? await staffMessages(ctx, { donation_id: id, limit: 1 }) : [];
  if (!existing) throw notFound('Message not found');
  await db
    .update(supportMessages)
    .set(hidden ? { hiddenAt: new Date(), hiddenBy: viewer.id } : { hiddenAt: null, hiddenBy: null })
    .where(eq(supportMessages.donationId, existing._id));
  return { ...existing, hidden };
}
