import { eq, sql } from 'drizzle-orm';
import { type AnySQLiteColumn, alias } from 'drizzle-orm/sqlite-core';
import type { IdValue } from './prepared';
import { campaigns, checkoutDetails, donations, users } from './schema';

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
 * The name public pages and a fundraiser see on a gift (docs/decisions/077): the one typed with it;
 * else the account's when the gift came from its donor's own checkout (they chose there whether to
 * be named), or, for a gift the office entered, when its donor is named on `targetId`'s Top Donors
 * (one primary-key read of their running totals); else none ("Anonymous"). A guest's gift never
 * shows the account's name: anyone can type an email into the box. For a select of gifts joined to
 * their donor and left-joined to checkout_details.
 */
export const giftDonorName = (targetId: IdValue) => {
  const typed = sql`(${checkoutDetails.firstName} is not null or ${checkoutDetails.lastName} is not null)`;
  const named = sql`(${donations.ownCheckout} = 1 or (${donations.source} not in ('card', 'demo')
    and coalesce((select dt.own_gift_count from donor_totals dt
      where dt.target_id = ${targetId} and dt.donor_id = ${donations.donorId}), 0) > 0))`;
  return {
    firstName: sql<
      string | null
    >`case when ${typed} then ${checkoutDetails.firstName} when ${named} then ${users.firstName} end`,
    lastName: sql<
      string | null
    >`case when ${typed} then ${checkoutDetails.lastName} when ${named} then ${users.lastName} end`,
  };
};

/**
 * The checkout a gift's donor typed their name in: its own, or for a monthly gift's renewal (which
 * has none) its first payment's. For `.leftJoin(checkoutDetails, checkoutOfGift)`.
 */
export const checkoutOfGift = eq(
  checkoutDetails.donationId,
  sql`coalesce((select f.id from donations f where f.subscription_id = ${donations.subscriptionId}
    order by f.date, f.rowid limit 1), ${donations.id})`,
);
