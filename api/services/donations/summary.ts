import { and, eq, inArray, sql } from 'drizzle-orm';
import { donations } from '../../../db/schema';
import { PAID_DONATION_STATUSES } from '../../../domain/statuses';
import type { ViewerContext } from '../../lib/service-context';

export type GivingSummary = {
  /** Pence given, net of refunds. */
  total: number;
  /** Gifts that went through (succeeded, or since refunded). */
  count: number;
  monthly: number;
  last_date: string | null;
};

/** The signed-in user's giving, summed in the database so it covers every gift, not one page. */
export async function myGivingSummary(ctx: ViewerContext): Promise<GivingSummary> {
  const { db, viewer } = ctx;
  const [row] = await db
    .select({
      total: sql<number>`coalesce(sum(${donations.amount} - ${donations.refundedAmount}), 0)`,
      count: sql<number>`count(*)`,
      monthly: sql<number>`coalesce(sum(case when ${donations.type} = 'monthly' then 1 else 0 end), 0)`,
      last: sql<number | null>`max(${donations.date})`,
    })
    .from(donations)
    .where(and(eq(donations.donorId, viewer.id), inArray(donations.status, [...PAID_DONATION_STATUSES])));
  return {
    total: Number(row?.total ?? 0),
    count: Number(row?.count ?? 0),
    monthly: Number(row?.monthly ?? 0),
    last_date: row?.last ? new Date(Number(row.last)).toISOString() : null,
  };
}
