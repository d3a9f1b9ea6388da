import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appealNotifications, campaignTotals, campaigns, donations, users } from '../../../db/schema';
import type { Mailer } from '../mail/mailer';
import { endedWindow } from './appeal-ended';
import { appealForMailColumns, liveAppealsColumn } from './appeal-for-mail';
import { CAMPAIGN_TOP_APPEALS, campaignEndedEmail, campaignMailLinks, fundraiserMailContext } from './fundraiser-mail';
import { creatorCanBeWritten, dayOrNull, sendOncePerAppeal } from './once-per-appeal';

/**
 * "Your campaign has ended" (docs/decisions/069): the campaign's mirror of appeal-ended.ts (056).
 * The hourly scheduled work emails the creator of each approved campaign once, in the week after its
 * end date has passed in London, with what it raised (its appeals' gifts included), the Gift Aid
 * declared on it and the appeals that raised most. The claim is appeal_notifications.ended_sent_at,
 * keyed by the campaign's id as 067's is; the outbox key is `campaign-ended:<id>`.
 */

const ENDED_CAMPAIGNS_PER_RUN = 200;

export const campaignEndedKey = (campaignId: string) => `campaign-ended:${campaignId}`;

export type CampaignEndedOptions = { origin?: string | null; now: Date; siteName?: string };

export async function emailEndedCampaigns(
  db: Db,
  mailer: Mailer,
  options: CampaignEndedOptions,
): Promise<{ sent: number }> {
  const { now } = options;
  const { earliest, yesterday } = endedWindow(now);
  const last = dayOrNull(campaigns.dateTo);
  // Walks the approved campaigns (campaigns_status_order_idx), a few rows, once an hour.
  const rows = await db
    .select({
      ...appealForMailColumns(),
      lastDay: sql<string>`${last}`,
      gifts: sql<number>`coalesce(${campaignTotals.giftCount}, 0)`,
      giftAid: sql<number>`coalesce(${campaignTotals.giftAidPence}, 0)`,
      appeals: liveAppealsColumn(),
    })
    .from(campaigns)
    .innerJoin(users, eq(users.id, campaigns.createdBy))
    .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
    .leftJoin(appealNotifications, eq(appealNotifications.appealId, campaigns.id))
    .where(
      and(
        isNull(campaigns.campaignId),
        eq(campaigns.status, 'approved'),
        eq(campaigns.kind, 'campaign'),
        isNull(appealNotifications.endedSentAt),
        ...creatorCanBeWritten(),
        sql`${last} between ${earliest} and ${yesterday}`,
      ),
    )
    .limit(ENDED_CAMPAIGNS_PER_RUN);

  let sent = 0;
  for (const row of rows) {
    const appeals = Number(row.appeals);
    const sentNow = await sendOncePerAppeal(
      db,
      mailer,
      {
        appealId: row.id,
        column: 'endedSentAt',
        key: campaignEndedKey(row.id),
        now,
        failure: 'campaign ended email failed',
      },
      async () =>
        campaignEndedEmail(
          {
            ...fundraiserMailContext(row, options.origin, options.siteName),
            ...campaignMailLinks(options.origin, row.id),
          },
          {
            gifts: Number(row.gifts),
            giftAid: Number(row.giftAid),
            lastDay: row.lastDay,
            appeals,
            topAppeals: appeals ? await topAppeals(db, row.id) : [],
            bySource: await incomeBySource(db, row.id),
          },
        ),
    );
    if (sentNow) sent += 1;
  }
  return { sent };
}

/** The campaign's approved appeals that raised most (by their stored totals), for its ended email. */
async function topAppeals(db: Db, campaignId: string) {
  const rows = await db
    .select({ title: campaigns.title, raised: campaignTotals.raisedPence })
    .from(campaigns)
    .innerJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
    .where(
      and(eq(campaigns.campaignId, campaignId), eq(campaigns.status, 'approved'), gt(campaignTotals.raisedPence, 0)),
    )
    .orderBy(desc(campaignTotals.raisedPence), campaigns.title)
    .limit(CAMPAIGN_TOP_APPEALS);
  return rows.map((r) => ({ title: r.title, raised: Number(r.raised) }));
}

/**
 * What came in by card online, by Direct Debit and offline (entered by hand or in a batch), counted
 * as the stored totals count (succeeded and refunded gifts, net of refunds), and the fees paid on it.
 * Reads the campaign's gifts: once per campaign, when it ends.
 */
async function incomeBySource(db: Db, campaignId: string) {
  const offline = sql`${donations.source} in ('manual', 'batch')`;
  const [row] = await db
    .select({
      offline: sql<number>`coalesce(sum(case when ${offline} then ${donations.amount} - ${donations.refundedAmount} else 0 end), 0)`,
      directDebit: sql<number>`coalesce(sum(case when not ${offline} and ${donations.paymentMethod} = 'bacs_debit' then ${donations.amount} - ${donations.refundedAmount} else 0 end), 0)`,
      card: sql<number>`coalesce(sum(case when not ${offline} and ${donations.paymentMethod} <> 'bacs_debit' then ${donations.amount} - ${donations.refundedAmount} else 0 end), 0)`,
      // The payment provider's fees (stored once Stripe's balance transaction is read; kept on a refund).
      fees: sql<number>`coalesce(sum(${donations.feePence}), 0)`,
    })
    .from(donations)
    .where(and(eq(donations.campaignId, campaignId), inArray(donations.status, ['succeeded', 'refunded'])));
  return {
    card: Number(row?.card ?? 0),
    directDebit: Number(row?.directDebit ?? 0),
    offline: Number(row?.offline ?? 0),
    fees: Number(row?.fees ?? 0),
  };
}
