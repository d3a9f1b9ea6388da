import { and, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { appealNotifications, campaignTotals, campaigns, organizations, users } from '../../../db/schema';
import { hasEnded, lastGivingDay } from '../../../domain/giving-ends';
import { logMailFailure, type Mailer } from '../mail/mailer';
import { appealForMailColumns, monthlyGiftsSetUpColumn } from './appeal-for-mail';
import { appealBackEmail, appealTakenDownEmail, charityContact, fundraiserMailContext } from './fundraiser-mail';
import { creatorCanBeWritten, sendOncePerAppeal } from './once-per-appeal';

/**
 * "Your appeal is off the site with its campaign" (docs/decisions/066): when the charity sets a
 * campaign back to a draft or deletes it, its approved appeals stop taking gifts and their pages go
 * (an appeal shows only under an approved campaign). Their fundraisers are told by the scheduled
 * work (every five minutes with the mail retry, and hourly), not in the admin's save: a campaign
 * may have hundreds of appeals. Claimed per appeal (appeal_notifications.campaign_down_sent_at);
 * the outbox key names the take-down by the campaign's last change. When the campaign is approved
 * again, the same runs tell those fundraisers their appeal is back (`emailCampaignBackAppeals`) and
 * release the claim, so a later take-down is told too.
 *
 * Not told: the charity's own staff (the organization's admins and platform admins, who took it
 * down or work beside who did), appeals past their last giving day, and take-downs older than
 * CAMPAIGN_DOWN_WINDOW_DAYS when this first runs.
 */

/** How long after a campaign's last change its appeals' fundraisers are still told it went. */
export const CAMPAIGN_DOWN_WINDOW_DAYS = 3;
const CAMPAIGN_DOWN_PER_RUN = 200;

export const campaignDownKey = (appealId: string, campaignChangedAt: Date) =>
  `campaign-down:${appealId}:${campaignChangedAt.getTime()}`;

export type CampaignDownOptions = { origin?: string | null; now: Date; supportEmail: string; siteName?: string };

/** The appeal's campaign, in both queries. */
const parent = alias(campaigns, 'parent');

/** What both emails read: the appeal as the fundraiser emails read it, its last day, and its campaign's. */
const appealAndCampaignColumns = () => ({
  ...appealForMailColumns(),
  dateTo: campaigns.dateTo,
  campaignTitle: parent.title,
  campaignDateTo: parent.dateTo,
  campaignChangedAt: parent.updatedAt,
});

export async function emailCampaignDownAppeals(
  db: Db,
  mailer: Mailer,
  options: CampaignDownOptions,
): Promise<{ sent: number }> {
  const { now } = options;
  const since = new Date(now.getTime() - CAMPAIGN_DOWN_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const rows = await db
    .select({
      ...appealAndCampaignColumns(),
      campaignStatus: parent.status,
      organizationEmail: organizations.email,
      monthlyGifts: monthlyGiftsSetUpColumn(),
    })
    .from(campaigns)
    .innerJoin(parent, eq(parent.id, campaigns.campaignId))
    .innerJoin(users, eq(users.id, campaigns.createdBy))
    .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
    .leftJoin(appealNotifications, eq(appealNotifications.appealId, campaigns.id))
    .leftJoin(organizations, eq(organizations.id, parent.organizationId))
    .where(
      and(
        isNotNull(campaigns.campaignId),
        eq(campaigns.status, 'approved'),
        inArray(parent.status, ['draft', 'deleted']),
        gte(parent.updatedAt, since),
        isNull(appealNotifications.campaignDownSentAt),
        ...creatorCanBeWritten(),
        sql`${users.type} <> 'admin'`,
        sql`not exists (select 1 from organization_admins oa where oa.user_id = ${users.id} and oa.organization_id = ${parent.organizationId})`,
      ),
    )
    .limit(CAMPAIGN_DOWN_PER_RUN);

  let sent = 0;
  for (const row of rows) {
    // Past its last day it took no gifts anyway, and was told so (decision 056).
    if (hasEnded(lastGivingDay(row.dateTo, row.campaignDateTo), now)) continue;
    const status = row.campaignStatus === 'deleted' ? 'deleted' : 'draft';
    const sentNow = await sendOncePerAppeal(
      db,
      mailer,
      {
        appealId: row.id,
        column: 'campaignDownSentAt',
        key: campaignDownKey(row.id, row.campaignChangedAt),
        now,
        failure: 'appeal campaign down email failed',
      },
      () =>
        appealTakenDownEmail(fundraiserMailContext(row, options.origin, options.siteName), {
          status,
          campaignTitle: row.campaignTitle,
          contact: charityContact(row.organizationEmail, options.supportEmail),
          monthlyGifts: Number(row.monthlyGifts),
        }),
    );
    if (sentNow) sent += 1;
  }
  return { sent };
}

export const campaignBackKey = (appealId: string, campaignChangedAt: Date) =>
  `campaign-back:${appealId}:${campaignChangedAt.getTime()}`;

/**
 * The campaign is approved again: each fundraiser who was told their appeal went with it is told it
 * is back (when it is itself still live and not ended), then the claim is released. The email goes
 * under a key naming the approval, so a run that sent it and lost the release sends nothing twice.
 */
export async function emailCampaignBackAppeals(
  db: Db,
  mailer: Mailer,
  options: CampaignDownOptions,
): Promise<{ sent: number }> {
  const { now } = options;
  const rows = await db
    .select({
      ...appealAndCampaignColumns(),
      status: campaigns.status,
      erased: users.erasedAt,
    })
    .from(appealNotifications)
    .innerJoin(campaigns, eq(campaigns.id, appealNotifications.appealId))
    .innerJoin(parent, eq(parent.id, campaigns.campaignId))
    .innerJoin(users, eq(users.id, campaigns.createdBy))
    .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
    .where(and(isNotNull(appealNotifications.campaignDownSentAt), eq(parent.status, 'approved')))
    .limit(CAMPAIGN_DOWN_PER_RUN);

  let sent = 0;
  for (const row of rows) {
    const live =
      row.status === 'approved' &&
      row.erased === null &&
      row.email !== '' &&
      !row.email.endsWith('.invalid') &&
      !hasEnded(lastGivingDay(row.dateTo, row.campaignDateTo), now);
    try {
      if (live) {
        const message = appealBackEmail(fundraiserMailContext(row, options.origin, options.siteName), {
          campaignTitle: row.campaignTitle,
        });
        const result = await mailer.send({ ...message, key: campaignBackKey(row.id, row.campaignChangedAt) });
        if (!result.duplicate) sent += 1;
      }
      await db
        .update(appealNotifications)
        .set({ campaignDownSentAt: null })
        .where(eq(appealNotifications.appealId, row.id));
    } catch (err) {
      // Kept claimed: the next run tries again (the key keeps it to one email).
      logMailFailure('appeal campaign back email failed', err, { appeal_id: row.id });
    }
  }
  return { sent };
}
