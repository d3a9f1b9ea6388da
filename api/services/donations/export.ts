import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { donations, users } from '../../../db/schema';
import type { DonationFilters } from '../reports/list-filters';
import { appeal, campaign, donationColumns, donationOrder, type DonationRow, sortParts } from './list';

/** Where the last page ended: its sort value, date and rowid. */
export type DonationCursor = { key: string | number; date: number; rowid: number };

/**
 * Keyset paging for exports: each page starts after the previous page's last row, so a 30,000-row
 * export reads each row once instead of walking every earlier page again (OFFSET).
 */
export async function donationRowsAfter(
  db: Db,
  where: SQL | undefined,
  filters: Partial<DonationFilters>,
  cursor: DonationCursor | null,
  limit: number,
): Promise<{ rows: DonationRow[]; cursor: DonationCursor | null }> {
  const { key, ascending } = sortParts(filters);
  const rowid = sql`${donations}.rowid`;
  let after: SQL | undefined;
  if (cursor) {
    // Written as a range plus a filter (not one OR), so the index on the sort key can seek to the cursor.
    if (filters.sort === undefined || filters.sort === 'date') {
      after = sql`${donations.date} <= ${cursor.date} and (${donations.date} < ${cursor.date} or ${rowid} < ${cursor.rowid})`;
    } else {
      const range = ascending ? sql`${key} >= ${cursor.key}` : sql`${key} <= ${cursor.key}`;
      after = sql`${range} and (${key} <> ${cursor.key} or ${donations.date} < ${cursor.date} or (${donations.date} = ${cursor.date} and ${rowid} < ${cursor.rowid}))`;
    }
  }
  const rows = await db
    .select({ ...donationColumns, sortKey: sql<string | number>`${key}`, rid: sql<number>`${rowid}` })
    .from(donations)
    .innerJoin(users, eq(users.id, donations.donorId))
    .innerJoin(campaign, eq(campaign.id, donations.campaignId))
    .leftJoin(appeal, eq(appeal.id, donations.appealId))
    .where(and(where, after))
    .orderBy(...donationOrder(filters))
    .limit(limit);
  const last = rows.at(-1);
  return { rows, cursor: last ? { key: last.sortKey, date: last.row.date.getTime(), rowid: Number(last.rid) } : null };
}
