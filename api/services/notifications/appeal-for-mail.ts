import { inArray, sql } from 'drizzle-orm';
import { MONTHLY_GIFT_SET_UP } from '../../../domain/monthly-gifts';
import { campaignTotals, campaigns, monthlyGifts, users } from '../../../db/schema';

/**
 * The columns of `AppealForMail` (fundraiser-mail.ts) that every fundraiser email reads: the
 * appeal, its creator's address and name, and its stored running total (campaign_totals, kept by
 * the donation triggers: one row, not every gift). The query joins `users` on
 * `campaigns.createdBy` and left-joins `campaignTotals` on the appeal.
 */
export const appealForMailColumns = () => ({
  id: campaigns.id,
  title: campaigns.title,
  goal: campaigns.goal,
  email: users.email,
  firstName: users.firstName,
  raised: sql<number>`coalesce(${campaignTotals.raisedPence}, 0)`,
});

/**
 * The appeal's monthly gifts still set up (MONTHLY_GIFT_SET_UP), for the emails that take it off the
 * site (decision 064's amendment): they go on to the charity. Found through its campaign's monthly
 * gifts (monthly_gifts_campaign_idx); one appeal, or one run's few.
 */
export const monthlyGiftsSetUpColumn = () =>
  sql<number>`(select count(*) from ${monthlyGifts} where ${monthlyGifts.campaignId} = ${campaigns.campaignId} and ${monthlyGifts.appealId} = ${campaigns.id} and ${inArray(monthlyGifts.status, [...MONTHLY_GIFT_SET_UP])})`;

/** A campaign's appeals on the site (approved), by campaigns_children_order_idx: for its creator's emails (067, 069). */
export const liveAppealsColumn = () =>
  sql<number>`(select count(*) from ${campaigns} as appeal where appeal.campaign_id = ${campaigns.id} and appeal.status = 'approved')`;
