import { and, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { appealNotifications, campaignTotals, campaigns, notificationPreferences, users } from '../../../db/schema';
import { addDays, londonIsoDate, londonParts } from '../../../domain/dates';
import { lastGivingDay } from '../../../domain/giving-ends';
import { firstGivingDay } from '../../../domain/giving-opens';
import type { Mailer } from '../mail/mailer';
import { appealOpenedEmail, fundraiserMailContext } from './fundraiser-mail';
import { creatorCanBeWritten, dayOrNull, sendOncePerAppeal } from './once-per-appeal';
import { appealForMailColumns } from './appeal-for-mail';

/**
 * "Your appeal is open for gifts" (docs/decisions/062), the mirror of appeal-ended.ts: the hourly
 * scheduled work emails the creator of each approved appeal that waited for a start date (its own
 * or its campaign's, the later) once that day has come in London, so they know when to share it.
 * An appeal made on or after its first giving day was open from the start and is not told. The
 * email goes from 08:00 London time on the day, not at midnight; a missed run catches up for
 * OPENED_WINDOW_DAYS days, and switching this on does not write to appeals that opened last month.
 * Claimed (appeal_notifications.opened_sent_at, once-per-appeal.ts) before it is written, under the
 * outbox key `appeal-opened:<id>`: overlapping runs send one, and moving the date again sends no second.
 */

/** How many days from its first giving day an appeal is still told it opened (today and the two before). */
export const OPENED_WINDOW_DAYS = 3;
/** The London hour from which the day's opened appeals are told. */
export const OPENED_EMAIL_HOUR = 8;
const OPENED_APPEALS_PER_RUN = 200;

export const appealOpenedKey = (appealId: string) => `appeal-opened:${appealId}`;

/**
 * The first giving days told on a run at `now`: today's from 08:00 in London (before it, they wait
 * for a later run; the days before are due at once), back to OPENED_WINDOW_DAYS - 1 days ago.
 * Shared with the campaigns' email (campaign-opened.ts).
 */
export function openedWindow(now: Date): { today: string; earliest: string; latest: string } {
  const today = londonIsoDate(now);
  const latest = londonParts(now).hour >= OPENED_EMAIL_HOUR ? today : addDays(today, -1);
  return { today, earliest: addDays(today, -(OPENED_WINDOW_DAYS - 1)), latest };
}

/**
 * The query's side of openedToTell (the row's campaign is `campaigns`, joined to `users` as its
 * creator and to appeal_notifications): not claimed yet, a creator to write to, the first day in the
 * window, the last not passed, and made before its first day's UTC midnight (the exact London day
 * is checked in code). Most items open the day they are made: this keeps them out of the run's 200.
 */
export const openedConditions = (
  first: SQL,
  last: SQL,
  window: { today: string; earliest: string; latest: string },
) => [
  isNull(appealNotifications.openedSentAt),
  ...creatorCanBeWritten(),
  sql`${first} between ${window.earliest} and ${window.latest}`,
  sql`(${last} is null or ${last} >= ${window.today})`,
  sql`${campaigns.createdAt} < strftime('%s', ${first}) * 1000`,
];

/** Whether a first giving day is this run's to tell: inside the window, and later than the London day the item was made. */
export function openedToTell(
  firstDay: string | null,
  createdAt: Date,
  window: { earliest: string; latest: string },
): firstDay is string {
  return !!firstDay && firstDay >= window.earliest && firstDay <= window.latest && londonIsoDate(createdAt) < firstDay;
}

export type OpenedOptions = { origin?: string | null; now: Date; siteName?: string };

export async function emailOpenedAppeals(db: Db, mailer: Mailer, options: OpenedOptions): Promise<{ sent: number }> {
  const { now } = options;
  const { today, earliest, latest } = openedWindow(now);
  const parent = alias(campaigns, 'parent');
  const ownFrom = dayOrNull(campaigns.dateFrom);
  const theirFrom = dayOrNull(parent.dateFrom);
  // The later of the two start days (SQLite's two-argument max is null when either is: hence the coalesces).
  const first = sql<string | null>`max(coalesce(${ownFrom}, ${theirFrom}), coalesce(${theirFrom}, ${ownFrom}))`;
  const ownTo = dayOrNull(campaigns.dateTo);
  const theirTo = dayOrNull(parent.dateTo);
  const last = sql<string | null>`min(coalesce(${ownTo}, ${theirTo}), coalesce(${theirTo}, ${ownTo}))`;
  // Walks the approved rows once an hour like the ended email (decision 056, "What it reads").
  const rows = await db
    .select({
      ...appealForMailColumns(),
      createdAt: campaigns.createdAt,
      dateFrom: campaigns.dateFrom,
      dateTo: campaigns.dateTo,
      campaignDateFrom: parent.dateFrom,
      campaignDateTo: parent.dateTo,
      giftEmails: notificationPreferences.appealGifts,
      milestoneEmails: notificationPreferences.appealMilestones,
    })
    .from(campaigns)
    .innerJoin(parent, eq(parent.id, campaigns.campaignId))
    .innerJoin(users, eq(users.id, campaigns.createdBy))
    .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
    .leftJoin(appealNotifications, eq(appealNotifications.appealId, campaigns.id))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(
      and(
        isNotNull(campaigns.campaignId),
        eq(campaigns.status, 'approved'),
        // A campaign that is not approved takes no gifts for its appeals either (resolveDonationTarget).
        eq(parent.status, 'approved'),
        ...openedConditions(first, last, { today, earliest, latest }),
      ),
    )
    .limit(OPENED_APPEALS_PER_RUN);

  let sent = 0;
  for (const row of rows) {
    const firstDay = firstGivingDay(row.dateFrom, row.campaignDateFrom);
    if (!openedToTell(firstDay, row.createdAt, { earliest, latest })) continue;
    const sentNow = await sendOncePerAppeal(
      db,
      mailer,
      {
        appealId: row.id,
        column: 'openedSentAt',
        key: appealOpenedKey(row.id),
        now,
        failure: 'appeal opened email failed',
      },
      () =>
        appealOpenedEmail(fundraiserMailContext(row, options.origin, options.siteName), {
          firstDay,
          today,
          lastDay: lastGivingDay(row.dateTo, row.campaignDateTo),
          // No preferences row: both on (notification_preferences).
          giftEmails: row.giftEmails ?? true,
          milestoneEmails: row.milestoneEmails ?? true,
        }),
    );
    if (sentNow) sent += 1;
  }
  return { sent };
}
