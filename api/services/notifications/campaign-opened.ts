import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appealNotifications, campaignTotals, campaigns, users } from '../../../db/schema';
import { lastGivingDay } from '../../../domain/giving-ends';
import { firstGivingDay } from '../../../domain/giving-opens';
import { toShortId } from '../../../domain/ids';
import type { Mailer } from '../mail/mailer';
import { openedConditions, openedToTell, openedWindow } from './appeal-opened';
import { appealForMailColumns, liveAppealsColumn } from './appeal-for-mail';
import { campaignMailLinks, campaignOpenedEmail, fundraiserMailContext, siteOrigin } from './fundraiser-mail';
import { dayOrNull, sendOncePerAppeal } from './once-per-appeal';

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
  const { today, earliest, latest } = openedWindow(now);
  const first = dayOrNull(campaigns.dateFrom);
  const last = dayOrNull(campaigns.dateTo);
  const rows = await db
    .select({
      ...appealForMailColumns(),
      createdAt: campaigns.createdAt,
      dateFrom: campaigns.dateFrom,
      dateTo: campaigns.dateTo,
      // Its appeals on the site; each fundraiser is told when their own appeal opens (decision 062).
      liveAppeals: liveAppealsColumn(),
    })
    .from(campaigns)
    .innerJoin(users, eq(users.id, campaigns.createdBy))
    .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
    .leftJoin(appealNotifications, eq(appealNotifications.appealId, campaigns.id))
    .where(
      and(
        isNull(campaigns.campaignId),
        eq(campaigns.status, 'approved'),
        isNotNull(campaigns.dateFrom),
        ...openedConditions(first, last, { today, earliest, latest }),
      ),
    )
    .limit(OPENED_CAMPAIGNS_PER_RUN);

  let sent = 0;
  for (const row of rows) {
    const firstDay = firstGivingDay(row.dateFrom);
    if (!openedToTell(firstDay, row.createdAt, { earliest, latest })) continue;
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
            lastDay: lastGivingDay(row.dateTo),
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
