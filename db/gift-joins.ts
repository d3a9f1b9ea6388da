import { eq, sql } from 'drizzle-orm';
import { type AnySQLiteColumn, alias } from 'drizzle-orm/sqlite-core';
import { campaigns, donations, users } from './schema';

/**
 * How a gift reaches the rows it is read with, written once so a query names the rule it joins on:
 * `.innerJoin(users, donorOfGift)` reads as "the donor of the gift". The conditions are plain SQL
 * fragments: Drizzle renders them afresh in every query that uses them.
 */

/** An appeal is a campaign under a parent campaign: the same table, joined a second time under this name. */
export const appeals = alias(campaigns, 'appeal');

export const donorOfGift = eq(users.id, donations.donorId);
export const campaignOfGift = eq(campaigns.id, donations.campaignId);
export const appealOfGift = eq(appeals.id, donations.appealId);

/** The other way: the gift a row is about, for a table keyed to one (`.innerJoin(donations, giftOf(supportMessages))`). */
export const giftOf = (row: { donationId: AnySQLiteColumn }) => eq(donations.id, row.donationId);

/** The donor's account name, spread into a select of gifts joined to their donor. */
export const donorNameColumns = { firstName: users.firstName, lastName: users.lastName };

/**
 * Whether a gift's donor chose "Give anonymously" (or "Hide the amount") on any paid gift to this
 * appeal, as the page's Top Donors reads it: the choice is the donor's, so a monthly gift's renewals,
 * which carry no choices of their own, follow their first gift. For a select of gifts (donations).
 */
export const donorChoseOnAppeal = (appealId: string, choice: 'anonymous' | 'hide_amount') =>
  sql<number>`${donations.donorId} in (select d.donor_id from support_messages sm cross join donations d on d.id = sm.donation_id
    where sm.appeal_id = ${appealId} and ${sql.raw(`sm.${choice}`)} = 1 and d.status in ('succeeded', 'refunded'))`;

/**
 * Whether a gift's donor gave to this appeal only through the office (cash, cheque, a typed gift):
 * never offered "Give anonymously", they are not named where the public page would not name them
 * (docs/decisions/077). One primary-key read of their running totals per gift.
 */
export const donorOnlyOfflineOnAppeal = (appealId: string) =>
  sql<number>`coalesce((select dt.online_gift_count from donor_totals dt
    where dt.target_id = ${appealId} and dt.donor_id = ${donations.donorId}), 0) = 0`;
