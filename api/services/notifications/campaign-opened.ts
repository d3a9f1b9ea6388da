import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appealNotifications, campaignTotals, campaigns, users } from '../../../db/schema';
import { addDays, isIsoDay, londonIsoDate, londonParts } from '../../../domain/dates';
import { toShortId } from '../../../domain/ids';
import type { Mailer } from '../mail/mailer';
import { OPENED_EMAIL_HOUR, OPENED_WINDOW_DAYS } from './appeal-opened';
import { appealForMailColumns } from './appeal-for-mail';
import { campaignMailLinks, campaignOpenedEmail, fundraiserMailContext, siteOrigin } from './fundraiser-mail';
import { creatorCanBeWritten, dayOrNull, sendOncePerAppeal } from './once-per-appeal';

/**
 * "Your campaign is open for gifts" (docs/decisions/067): the campaign's mirror of appeal-opened.ts
 * (decision 062). The hourly scheduled work emails the creator of each approved campaign that waited
 * for its start date, once that day has come in London: the moment to share it, and to tell the
 * fundraisers who may start appeals under it. Same rules as the appeal's email: from 08:00 London
 * time, a missed run catches up for OPENED_WINDOW_DAYS, a campaign made on or after its start day
 * is not told, and the claim (appeal_notifications.opened_sent_at, keyed by the campaign's id as
 * the appeals' are) is taken before the email is written, under the outbox key `campaign-opened:<id>`.
 */

const OPENED_CAMPAIGNS_PER_RUN = 200;

export const campaignOpenedKey = (campaignId: string) => `campaign-opened:${campaignId}`;

export type CampaignOpenedOptions = { origin?: string | null; now: Date; siteName?: string };

export async function emailOpenedCampaigns(
  db: Db,
  mailer: Mailer,
  options: CampaignOpenedOptions,
): Promise<{ sent: number }> {
  const { now } = options;
  const today = londonIsoDate(now);
  // Before 08:00 in London today's openings wait for a later run; the days before are due at once.
  const latest = londonParts(now).hour >= OPENED_EMAIL_HOUR ? today : addDays(today, -1);
  const earliest = addDays(today, -(OPENED_WINDOW_DAYS - 1));
  const first = dayOrNull(campaigns.dateFrom);
  const last = dayOrNull(campaigns.dateTo);
  const rows = await db
    .select({
      ...appealForMailColumns(),
      createdAt: campaigns.createdAt,
      dateFrom: campaigns.dateFrom,
      dateTo: campaigns.dateTo,
      // Its appeals on the site; each fundraiser is told when their own appeal opens (decision 062).
      liveAppeals: sql<number>`(select count(*) from ${campaigns} as appeal where appeal.campaign_id = ${campaigns.id} and appeal.status = 'approved')`,
    })
    .from(campaigns)
    .innerJoin(users, eq(users.id, campaigns.createdBy))
    .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
    .leftJoin(appealNotifications, eq(appealNotifications.appealId, campaigns.id))
    .where(
      and(
        isNull(campaigns.campaignId),
        eq(campaigns.status, 'approved'),
        isNull(appealNotifications.openedSentAt),
        isNotNull(campaigns.dateFrom),
        ...creatorCanBeWritten(),
        sql`${first} between ${earliest} and ${latest}`,
        sql`(${last} is null or ${last} >= ${today})`,
        // Made before its first day's UTC midnight; the exact London day is checked below.
        sql`${campaigns.createdAt} < strftime('%s', ${first}) * 1000`,
      ),
    )
    .limit(OPENED_CAMPAIGNS_PER_RUN);

  let sent = 0;
  for (const row of rows) {
    const firstDay = row.dateFrom;
    if (!firstDay || !isIsoDay(firstDay) || firstDay < earliest || firstDay > latest) continue;
    if (londonIsoDate(row.createdAt) >= firstDay) continue;
    const sentNow = await sendOncePerAppeal(
      db,
      mailer,
      {
        appealId: row.id,
        column: 'openedSentAt',
        key: campaignOpenedKey(row.id),
        now,
        failure: 'campaign opened email failed',
      },
      () =>
        campaignOpenedEmail(
          {
            ...fundraiserMailContext(row, options.origin, options.siteName),
            ...campaignMailLinks(options.origin, row.id),
          },
          {
            firstDay,
            today,
            lastDay: row.dateTo && isIsoDay(row.dateTo) ? row.dateTo : null,
            liveAppeals: Number(row.liveAppeals),
            // The fundraiser page with this campaign chosen (as its public page's "Start your own appeal").
            startUrl: `${siteOrigin(options.origin)}/fund-raising?campaign=${toShortId(row.id)}`,
          },
        ),
    );
    if (sentNow) sent += 1;
  }
  return { sent };
}
