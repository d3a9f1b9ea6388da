import { index, integer, primaryKey, sqliteTable } from 'drizzle-orm/sqlite-core';
import { campaignRef } from './campaigns';
import { userRef } from './users';

/**
 * Running totals of one campaign or appeal (docs/decisions/016). Maintained by SQLite triggers on
 * `donations` (migration 0004_speed), so every donation write, in any batch or statement, moves
 * them in the same transaction by exactly the change of that row; readers never rescan donations.
 * A campaign's row counts its appeals' gifts too (a gift to an appeal carries both ids).
 * Read them through api/services/campaigns/totals.ts.
 */
export const campaignTotals = sqliteTable('campaign_totals', {
  campaignId: campaignRef('campaign_id', { onDelete: 'cascade' }).primaryKey(),
  /** Pence raised: succeeded (and partly or fully refunded) gifts, net of refunds. */
  raisedPence: integer('raised_pence').notNull().default(0),
  /** Gifts that still count: status succeeded (a fully refunded gift is out, a partly refunded one stays). */
  giftCount: integer('gift_count').notNull().default(0),
  /** 25% of the net amount of counted gifts that declared Gift Aid, floored per gift. */
  giftAidPence: integer('gift_aid_pence').notNull().default(0),
});

/**
 * Running totals per donor of one campaign or appeal, for the top donors list; kept by the same
 * triggers. A donor whose gifts no longer count keeps a row with gift_count 0 (readers skip it).
 */
export const donorTotals = sqliteTable(
  'donor_totals',
  {
    targetId: campaignRef('target_id', { onDelete: 'cascade' }).notNull(),
    donorId: userRef('donor_id', { onDelete: 'cascade' }).notNull(),
    raisedPence: integer('raised_pence').notNull().default(0),
    giftCount: integer('gift_count').notNull().default(0),
    /**
     * Of those, the gifts from the donor's own checkout (donations.own_checkout). Top Donors names a
     * donor only when this is above 0: a gift the office entered, or one a guest typed their email
     * into, never asked the account's owner (migration 0030, docs/decisions/077).
     */
    ownGiftCount: integer('own_gift_count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.targetId, t.donorId] }),
    index('donor_totals_rank_idx').on(t.targetId, t.raisedPence, t.giftCount),
  ],
);
