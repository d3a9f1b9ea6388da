import { sql } from 'drizzle-orm';
import { campaignTotals, campaigns, users } from '../../../db/schema';

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
