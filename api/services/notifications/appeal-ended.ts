import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { appealNotifications, campaignTotals, campaigns, users } from '../../../db/schema';
import { addDays, londonIsoDate } from '../../../domain/dates';
import { lastGivingDay } from '../../../domain/giving-ends';
import type { Mailer } from '../mail/mailer';
import { appealEndedEmail, fundraiserMailContext, siteOrigin } from './fundraiser-mail';
import { creatorCanBeWritten, dayOrNull, sendOncePerAppeal } from './once-per-appeal';
import { appealForMailColumns } from './appeal-for-mail';

/**
 * "Your appeal has ended" (docs/decisions/056, "The fundraiser is told"): the hourly scheduled work
 * emails each approved appeal's creator once, after its last giving day (its own end date or its
 * campaign's, the earlier) has passed in London. Only appeals whose last day is 1 to 7 days ago
 * are looked at: a missed run catches up, but switching this on does not write to every appeal
 * that ended last year. An appeal is claimed (appeal_notifications.ended_sent_at, null → now) before
 * its email is written, and the email has the outbox key `appeal-ended:<id>`: two overlapping runs
 * send one, and a reopened appeal that ends again is not told twice.
 */

/** How many days after its last giving day an appeal is still told it ended. */
export const APPEAL_ENDED_WINDOW_DAYS = 7;
const ENDED_APPEALS_PER_RUN = 200;

export const appealEndedKey = (appealId: string) => `appeal-ended:${appealId}`;

export type EndedOptions = { origin?: string | null; now: Date; siteName?: string };

/** The last giving days still told (1 to APPEAL_ENDED_WINDOW_DAYS days ago, London): one rule for appeals and campaigns (069). */
export function endedWindow(now: Date): { earliest: string; yesterday: string } {
  const today = londonIsoDate(now);
  return { earliest: addDays(today, -APPEAL_ENDED_WINDOW_DAYS), yesterday: addDays(today, -1) };
}

export async function emailEndedAppeals(db: Db, mailer: Mailer, options: EndedOptions): Promise<{ sent: number }> {
  const { now } = options;
  const { earliest, yesterday } = endedWindow(now);
  const parent = alias(campaigns, 'parent');
  const own = dayOrNull(campaigns.dateTo);
  const theirs = dayOrNull(parent.dateTo);
  // The earlier of the two days (SQLite's two-argument min is null when either is: hence the coalesces).
  const last = sql<string | null>`min(coalesce(${own}, ${theirs}), coalesce(${theirs}, ${own}))`;
  // Walks every approved row (campaigns_status_order_idx; no index on date_to) once an hour, with each
  // appeal's campaign, creator, total and claim by primary key (decision 056, "What it reads").
  const rows = await db
    .select({
      ...appealForMailColumns(),
      dateTo: campaigns.dateTo,
      campaignDateTo: parent.dateTo,
      campaignTitle: parent.title,
      gifts: sql<number>`coalesce(${campaignTotals.giftCount}, 0)`,
    })
    .from(campaigns)
    .innerJoin(parent, eq(parent.id, campaigns.campaignId))
    .innerJoin(users, eq(users.id, campaigns.createdBy))
    .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
    .leftJoin(appealNotifications, eq(appealNotifications.appealId, campaigns.id))
    .where(
      and(
        isNotNull(campaigns.campaignId),
        eq(campaigns.status, 'approved'),
        isNull(appealNotifications.endedSentAt),
        ...creatorCanBeWritten(),
        sql`${last} between ${earliest} and ${yesterday}`,
      ),
    )
    .limit(ENDED_APPEALS_PER_RUN);

  const origin = siteOrigin(options.origin);
  let sent = 0;
  for (const row of rows) {
    const lastDay = lastGivingDay(row.dateTo, row.campaignDateTo);
    if (!lastDay || lastDay < earliest || lastDay > yesterday) continue;
    const sentNow = await sendOncePerAppeal(
      db,
      mailer,
      {
        appealId: row.id,
        column: 'endedSentAt',
        key: appealEndedKey(row.id),
        now,
        failure: 'appeal ended email failed',
      },
      () =>
        appealEndedEmail(fundraiserMailContext(row, origin, options.siteName), {
          gifts: Number(row.gifts),
          lastDay,
          campaignTitle: lastDay === row.dateTo ? null : row.campaignTitle,
        }),
    );
    if (sentNow) sent += 1;
  }
  return { sent };
}
