import { and, eq, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import { checkoutOfGift, donorChoseOnAppeal, giftDonorName } from '../../../db/gift-joins';
import { preparedRead } from '../../../db/prepared';
import {
  checkoutDetails,
  appealNotifications,
  campaignTotals,
  campaigns,
  donations,
  fundraiserPendingGifts,
  notificationPreferences,
  supportMessages,
  users,
} from '../../../db/schema';
import { displayName } from '../campaigns/top-donors';
import { logMailFailure, type Mailer } from '../mail/mailer';
import {
  appealGiftsEmail,
  fundraiserMailContext,
  appealMilestoneEmail,
  type FundraiserMailContext,
  GIFTS_LISTED,
  type GiftLine,
} from './fundraiser-mail';
import { HOUR_MS } from '../../../domain/dates';
import { gatherer, type GatherTiming } from '../../lib/gather';
import { appealForMailColumns } from './appeal-for-mail';

/**
 * Fundraiser emails: "your appeal received gifts" (batched: at most one an hour per appeal) and
 * "halfway" / "goal reached" (once each). A gift is recorded as pending when it is paid; the
 * first gift after the hour sends everything pending, and flushFundraiserNotifications (the
 * scheduled housekeeping) sends what a quiet hour left behind. Each send is claimed with one
 * conditional UPDATE, so two webhooks arriving together cannot both send.
 */

export const GIFT_EMAIL_INTERVAL_MS = HOUR_MS;
const FLUSH_APPEALS_PER_RUN = 200;

export type NotifyOptions = { origin?: string | null; now?: Date; siteName?: string };

export type NotificationPrefs = { appeal_gifts: boolean; appeal_milestones: boolean };

export async function getNotificationPrefs(db: Db, userId: string): Promise<NotificationPrefs> {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId))
    .limit(1);
  return { appeal_gifts: row?.appealGifts ?? true, appeal_milestones: row?.appealMilestones ?? true };
}

export async function setNotificationPrefs(
  db: Db,
  userId: string,
  input: Partial<NotificationPrefs>,
): Promise<NotificationPrefs> {
  const current = await getNotificationPrefs(db, userId);
  const next = { ...current, ...input };
  await db
    .insert(notificationPreferences)
    .values({ userId, appealGifts: next.appeal_gifts, appealMilestones: next.appeal_milestones, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: notificationPreferences.userId,
      set: { appealGifts: next.appeal_gifts, appealMilestones: next.appeal_milestones, updatedAt: new Date() },
    });
  return next;
}

/** Marks a paid gift to an appeal as news for its fundraiser (idempotent); returns the appeal id. */
export async function recordAppealGift(db: Db, donationId: string): Promise<string | null> {
  const [gift] = await db
    .select({
      appealId: donations.appealId,
      amount: donations.amount,
      refunded: donations.refundedAmount,
      status: donations.status,
    })
    .from(donations)
    .where(eq(donations.id, donationId))
    .limit(1);
  if (!gift?.appealId || gift.status !== 'succeeded') return null;
  await db
    .insert(fundraiserPendingGifts)
    .values({ donationId, appealId: gift.appealId, amount: gift.amount - gift.refunded })
    .onConflictDoNothing({ target: fundraiserPendingGifts.donationId });
  return gift.appealId;
}

/**
 * recordAppealGift as a statement for the recording batch (run after the gift's own upsert, under
 * the same "event not applied yet" guard): the gift becomes news for its fundraiser in the same
 * commit that records it, with no read before and no write after.
 */
export function pendingAppealGiftStatement(db: Db, donationId: string, guard: SQL) {
  return db
    .insert(fundraiserPendingGifts)
    .select(
      sql`select ${donations.id}, ${donations.appealId}, ${donations.amount} - ${donations.refundedAmount}, ${Date.now()}, null
        from ${donations} where ${donations.id} = ${donationId} and ${donations.status} = 'succeeded'
        and ${donations.appealId} is not null and ${guard}`,
    )
    .onConflictDoNothing({ target: fundraiserPendingGifts.donationId });
}

/**
 * The appeal, its fundraiser's address and preferences, its stored total and what was already
 * sent for it: one read, so that a gift in a busy hour (nothing due) costs nothing more.
 */
/** Read after every gift to an appeal: its SQL (four joins) is built once per database. */
async function loadAppeal(db: Db, appealId: string) {
  const build = () =>
    db
      .select({
        ...appealForMailColumns(),
        createdBy: campaigns.createdBy,
        tracked: sql<number>`${appealNotifications.appealId} is not null`,
        lastSentAt: appealNotifications.lastSentAt,
        halfSentAt: appealNotifications.halfSentAt,
        fullSentAt: appealNotifications.fullSentAt,
        giftsWanted: notificationPreferences.appealGifts,
        milestonesWanted: notificationPreferences.appealMilestones,
      })
      .from(campaigns)
      .leftJoin(users, eq(users.id, campaigns.createdBy))
      .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
      .leftJoin(appealNotifications, eq(appealNotifications.appealId, campaigns.id))
      .leftJoin(notificationPreferences, eq(notificationPreferences.userId, campaigns.createdBy))
      .where(eq(campaigns.id, sql.placeholder('appealId')))
      .limit(1);
  const [row] = await preparedRead(db, 'notifications:appeal', build, { appealId });
  return row ?? null;
}

/**
 * Who gave, for the fundraiser to thank: each gift as the appeal page shows it, the donor's first
 * name and initial (giftDonorName) or "Anonymous" (chosen on any paid gift of theirs here, as the Top Donors list
 * does), its amount unless they hid it, and their message unless an admin hid it. Oldest first.
 */
async function giftLines(
  db: Db,
  appealId: string,
  batch: { donationId: string; amount: number }[],
): Promise<GiftLine[]> {
  const listed = batch.slice(0, GIFTS_LISTED);
  const rows = await db
    .select({
      id: donations.id,
      date: donations.date,
      // The name typed with the gift, else the account's where its donor chose to be named here (decision 077).
      ...giftDonorName(appealId),
      message: supportMessages.message,
      messageHidden: supportMessages.hiddenAt,
      anonymous: donorChoseOnAppeal(appealId, 'anonymous'),
      hideAmount: donorChoseOnAppeal(appealId, 'hide_amount'),
    })
    .from(donations)
    .leftJoin(users, eq(users.id, donations.donorId))
    .leftJoin(supportMessages, eq(supportMessages.donationId, donations.id))
    .leftJoin(checkoutDetails, checkoutOfGift)
    .where(
      inArray(
        donations.id,
        listed.map((p) => p.donationId),
      ),
    );
  const amounts = new Map(listed.map((p) => [p.donationId, p.amount]));
  return rows
    .sort((a, b) => a.date.getTime() - b.date.getTime())
    .map((row) => ({
      name: row.anonymous ? 'Anonymous' : displayName(row.firstName, row.lastName),
      amount: row.hideAmount ? null : (amounts.get(row.id) ?? null),
      message: row.messageHidden ? null : row.message?.trim() || null,
    }));
}

async function safeSend(mailer: Mailer, message: Parameters<Mailer['send']>[0]): Promise<boolean> {
  try {
    await mailer.send(message);
    return true;
  } catch (err) {
    logMailFailure('fundraiser email failed', err);
    return false;
  }
}

/** Claims a milestone column (null → now) for one appeal; true when this call won it. */
async function claimMilestone(
  db: Db,
  appealId: string,
  column: 'halfSentAt' | 'fullSentAt',
  now: Date,
): Promise<boolean> {
  const target = appealNotifications[column];
  const rows = await db
    .update(appealNotifications)
    .set({ [column]: now })
    .where(and(eq(appealNotifications.appealId, appealId), isNull(target)))
    .returning({ id: appealNotifications.appealId });
  return rows.length > 0;
}

/**
 * Sends what is due for one appeal: a milestone crossed, and the pending gifts when the last gift
 * email is an hour old (or there was none). Returns the emails sent, for tests and logs.
 */
export async function notifyAppeal(
  db: Db,
  mailer: Mailer,
  appealId: string,
  options: NotifyOptions = {},
): Promise<string[]> {
  const now = options.now ?? new Date();
  const sent: string[] = [];
  const appeal = await loadAppeal(db, appealId);
  if (!appeal) return sent;
  if (!appeal.tracked)
    await db
      .insert(appealNotifications)
      .values({ appealId })
      .onConflictDoNothing({ target: appealNotifications.appealId });

  const prefs: NotificationPrefs | null = appeal.createdBy
    ? { appeal_gifts: appeal.giftsWanted ?? true, appeal_milestones: appeal.milestonesWanted ?? true }
    : null;
  const ctx: FundraiserMailContext | null = appeal.email
    ? fundraiserMailContext({ ...appeal, email: appeal.email }, options.origin, options.siteName)
    : null;

  // Milestones: the highest one crossed is sent; a lower one crossed at the same time is only marked.
  const raised = Number(appeal.raised);
  // A milestone read as claimed is never claimed again (claims only go from null to a time).
  if (appeal.goal > 0 && raised * 2 >= appeal.goal && !(appeal.fullSentAt && appeal.halfSentAt)) {
    const full = raised >= appeal.goal && !appeal.fullSentAt && (await claimMilestone(db, appealId, 'fullSentAt', now));
    const half = !appeal.halfSentAt && (await claimMilestone(db, appealId, 'halfSentAt', now));
    const milestone = full ? 100 : half ? 50 : null;
    if (
      milestone &&
      ctx &&
      prefs?.appeal_milestones &&
      (await safeSend(mailer, appealMilestoneEmail(ctx, milestone)))
    ) {
      sent.push(`milestone-${milestone}`);
    }
  }

  // The last gift email went out within the hour: nothing is due (the claim below would fail).
  // Should a failed send have freed the slot since the read, the next gift or the flush sends.
  const intervalStart = now.getTime() - GIFT_EMAIL_INTERVAL_MS;
  if (ctx && prefs?.appeal_gifts && appeal.lastSentAt && appeal.lastSentAt.getTime() > intervalStart) return sent;

  const pending = await db
    .select({ donationId: fundraiserPendingGifts.donationId, amount: fundraiserPendingGifts.amount })
    .from(fundraiserPendingGifts)
    .where(and(eq(fundraiserPendingGifts.appealId, appealId), isNull(fundraiserPendingGifts.sentAt)));
  if (!pending.length) return sent;

  const markSent = () =>
    db
      .update(fundraiserPendingGifts)
      .set({ sentAt: now })
      .where(
        and(
          eq(fundraiserPendingGifts.appealId, appealId),
          isNull(fundraiserPendingGifts.sentAt),
          inArray(fundraiserPendingGifts.donationId, pending.map((p) => p.donationId).slice(0, 90)),
        ),
      );
  if (!ctx || !prefs?.appeal_gifts) {
    // Nobody to tell (or they said no): these gifts are not news later either.
    await markSent();
    return sent;
  }
  const claimed = await db
    .update(appealNotifications)
    .set({ lastSentAt: now })
    .where(
      and(
        eq(appealNotifications.appealId, appealId),
        or(isNull(appealNotifications.lastSentAt), lte(appealNotifications.lastSentAt, new Date(intervalStart))),
      ),
    )
    .returning({ id: appealNotifications.appealId });
  if (!claimed.length) return sent;
  const batch = pending.slice(0, 90);
  const total = batch.reduce((n, p) => n + p.amount, 0);
  const lines = await giftLines(db, appealId, batch);
  if (await safeSend(mailer, appealGiftsEmail(ctx, { count: batch.length, total, lines }))) {
    await markSent();
    sent.push(`gifts-${batch.length}`);
  } else {
    // Leave the gifts pending and free the slot so the next gift or flush tries again.
    await db.update(appealNotifications).set({ lastSentAt: null }).where(eq(appealNotifications.appealId, appealId));
  }
  return sent;
}

/** After a paid gift: record it and send what is due for its appeal. Never throws. */
export async function notifyAfterGift(
  db: Db,
  mailer: Mailer,
  donationId: string,
  options: NotifyOptions = {},
): Promise<string[]> {
  try {
    const appealId = await recordAppealGift(db, donationId);
    return appealId ? await notifyAppeal(db, mailer, appealId, options) : [];
  } catch (err) {
    logMailFailure('fundraiser notice after a gift failed', err);
    return [];
  }
}

/** How long a storm's gifts to the same appeals gather before one look at what each appeal has due. */
export const APPEAL_NOTICE_WINDOW_MS = 1000;

type AppealNotice = { appealId: string; mailer: Mailer; options: NotifyOptions };

/** The appeals of a second's gifts, each looked at once (api/lib/gather.ts). */
const gatherAppealNotices = gatherer<Db, AppealNotice>(
  async (db, notices) => {
    const seen = new Set<string>();
    for (const { appealId, mailer, options } of notices) {
      if (seen.has(appealId)) continue;
      seen.add(appealId);
      await notifyAppealAfterGift(db, mailer, appealId, options);
    }
  },
  { windowMs: APPEAL_NOTICE_WINDOW_MS, max: 100 },
);

/**
 * After a paid gift to an appeal, with `gather` (a worker's answer has gone): the gifts to the same
 * appeal in one second share one look at what is due, instead of one database read each (a
 * telethon's 20 gifts a second to one appeal: 1 read a second, not 20). The first gift after a quiet
 * second is looked at at once. A gifts email goes at most once an hour anyway (GIFT_EMAIL_INTERVAL_MS)
 * and a later look sees every gift pending by then; a milestone waits at most the second. Never throws.
 */
export async function notifyAppealAfterGifts(
  db: Db,
  mailer: Mailer,
  appealId: string,
  options: NotifyOptions & { gather?: boolean } & Pick<GatherTiming, 'wait'> = {},
): Promise<void> {
  const { gather, wait, ...notify } = options;
  if (!gather) {
    await notifyAppealAfterGift(db, mailer, appealId, notify);
    return;
  }
  await gatherAppealNotices(db, { appealId, mailer, options: notify }, { now: notify.now?.getTime(), wait });
}

/** After a paid gift whose pending row the recording batch already wrote: send what is due. Never throws. */
export async function notifyAppealAfterGift(
  db: Db,
  mailer: Mailer,
  appealId: string,
  options: NotifyOptions = {},
): Promise<string[]> {
  try {
    return await notifyAppeal(db, mailer, appealId, options);
  } catch (err) {
    logMailFailure('fundraiser notice after a gift failed', err);
    return [];
  }
}

/** The gift a recorded Stripe event settled, if it was a payment (one-off or monthly invoice). */
export async function donationIdOfEvent(db: Db, event: Stripe.Event): Promise<string | null> {
  const object = event.data.object as { id?: string };
  if (!object.id) return null;
  const column =
    event.type === 'payment_intent.succeeded'
      ? donations.paymentIntentId
      : event.type === 'invoice.paid'
        ? donations.invoiceId
        : null;
  if (!column) return null;
  const [row] = await db.select({ id: donations.id }).from(donations).where(eq(column, object.id)).limit(1);
  return row?.id ?? null;
}

/**
 * Housekeeping (the scheduled handler calls this): sends the gift emails that waited for
 * their hour, for appeals where no later gift came along to send them.
 */
export async function flushFundraiserNotifications(
  db: Db,
  mailer: Mailer,
  options: NotifyOptions = {},
): Promise<{ appeals: number; sent: number }> {
  const rows = await db
    .selectDistinct({ appealId: fundraiserPendingGifts.appealId })
    .from(fundraiserPendingGifts)
    .where(isNull(fundraiserPendingGifts.sentAt))
    .limit(FLUSH_APPEALS_PER_RUN);
  let sent = 0;
  for (const row of rows) {
    try {
      sent += (await notifyAppeal(db, mailer, row.appealId, options)).length;
    } catch (err) {
      logMailFailure('fundraiser notice flush failed for an appeal', err);
    }
  }
  return { appeals: rows.length, sent };
}
