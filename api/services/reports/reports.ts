import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { lastMonths, lastWeeks, londonLocalMs, londonStart, MONDAY_EPOCH_MS, WEEK_MS } from './london-buckets';
import { orgCondition, type OrgScope } from './scope';

/**
 * The dashboard overview's charts. One aggregate query per chart, bounded to the last year and
 * answered from the covering index donations_insight_idx (status, date, type, amount, ...), so the
 * cost follows a year of gifts in scope, not the whole table. Totals count succeeded gifts net of
 * refunds, like every other total (a fully refunded gift is `refunded` and counts nothing).
 */

export const CHART_WEEKS = 52;
export const CHART_MONTHS = 12;
export const CHART_CAMPAIGNS = 10;

export type WeekBucket = {
  week_start: string;
  once_count: number;
  once_amount: number;
  monthly_count: number;
  monthly_amount: number;
};
export type CampaignProgress = { _id: string; title: string; goal: number; raised: number };
export type RecurringMonth = { month: string; income: number; donors: number };
export type DonorMonth = { month: string; new_donors: number; returning_donors: number };
export type GiftAidMonth = { month: string; total_amount: number; eligible_amount: number; gift_aid: number };

const num = (v: unknown) => Number(v ?? 0);

/** `from donations d [join campaigns c]` with the viewer's scope; the join only when scoped. */
function fromDonations(scope: OrgScope): { from: SQL; where: SQL } {
  const condition = orgCondition(scope, sql`c.organization_id`);
  if (!condition) return { from: sql`donations d`, where: sql`1` };
  return { from: sql`donations d join campaigns c on c.id = d.campaign_id`, where: condition };
}

function yearsOf(since: Date, now: Date): [number, number] {
  return [since.getUTCFullYear() - 1, now.getUTCFullYear() + 1];
}

/** Gifts per London week (Monday start) over the last 52 weeks, one-off and monthly apart. */
export async function giftsPerWeek(db: Db, scope: OrgScope, now = new Date()): Promise<WeekBucket[]> {
  const weeks = lastWeeks(now, CHART_WEEKS);
  const since = londonStart(weeks[0].start);
  const [y0, y1] = yearsOf(since, now);
  const local = londonLocalMs(sql`d.date`, y0, y1);
  const { from, where } = fromDonations(scope);
  const rows = await db.all<{ w: number; type: string; n: number; net: number }>(sql`
    select (${local} - ${sql.raw(String(MONDAY_EPOCH_MS))}) / ${sql.raw(String(WEEK_MS))} as w, d.type as type,
      count(*) as n, sum(d.amount - d.refunded_amount) as net
    from ${from}
    where d.status = 'succeeded' and d.date >= ${since.getTime()} and d.date <= ${now.getTime()} and ${where}
    group by 1, 2`);
  const byWeek = new Map(
    weeks.map((w) => [
      w.index,
      { week_start: w.start, once_count: 0, once_amount: 0, monthly_count: 0, monthly_amount: 0 },
    ]),
  );
  for (const row of rows) {
    const bucket = byWeek.get(num(row.w));
    if (!bucket) continue;
    if (row.type === 'monthly') {
      bucket.monthly_count += num(row.n);
      bucket.monthly_amount += num(row.net);
    } else {
      bucket.once_count += num(row.n);
      bucket.once_amount += num(row.net);
    }
  }
  return [...byWeek.values()];
}

/** Live campaigns in scope, most raised first, with their goals (appeals' gifts count toward their campaign). */
export async function campaignProgress(db: Db, scope: OrgScope): Promise<CampaignProgress[]> {
  const condition = orgCondition(scope, sql`c.organization_id`) ?? sql`1`;
  const rows = await db.all<{ id: string; title: string; goal: number; raised: number }>(sql`
    select c.id as id, c.title as title, c.goal as goal,
      coalesce((select sum(d.amount - d.refunded_amount) from donations d where d.campaign_id = c.id and d.status = 'succeeded'), 0) as raised
    from campaigns c
    where c.campaign_id is null and c.status = 'approved' and ${condition}
    order by raised desc, c.created_at desc, c.id
    limit ${CHART_CAMPAIGNS}`);
  return rows.map((r) => ({ _id: r.id, title: r.title, goal: num(r.goal), raised: num(r.raised) }));
}

function monthExpr(column: SQL, since: Date, now: Date): SQL {
  const [y0, y1] = yearsOf(since, now);
  return sql`strftime('%Y-%m', ${londonLocalMs(column, y0, y1)} / 1000, 'unixepoch')`;
}

/** Monthly gifts per London month: income (net) and how many donors gave monthly that month. */
export async function monthlyRecurring(db: Db, scope: OrgScope, now = new Date()): Promise<RecurringMonth[]> {
  const months = lastMonths(now, CHART_MONTHS);
  const since = londonStart(months[0]);
  const { from, where } = fromDonations(scope);
  const rows = await db.all<{ m: string; income: number; donors: number }>(sql`
    select ${monthExpr(sql`d.date`, since, now)} as m, sum(d.amount - d.refunded_amount) as income, count(distinct d.donor_id) as donors
    from ${from}
    where d.status = 'succeeded' and d.type = 'monthly' and d.date >= ${since.getTime()} and d.date <= ${now.getTime()} and ${where}
    group by 1`);
  const byMonth = new Map(rows.map((r) => [r.m, r]));
  return months.map((month) => ({
    month,
    income: num(byMonth.get(month)?.income),
    donors: num(byMonth.get(month)?.donors),
  }));
}

/**
 * Donors who gave each month: new (their first gift in scope was that month) or returning (they
 * had given before). A donor counts once per month.
 */
export async function newVsReturning(db: Db, scope: OrgScope, now = new Date()): Promise<DonorMonth[]> {
  const months = lastMonths(now, CHART_MONTHS);
  const since = londonStart(months[0]);
  const { from, where } = fromDonations(scope);
  const condition = orgCondition(scope, sql`c2.organization_id`);
  // A donor who gave in month m is new when their first gift ever (in scope) is on or after m's start.
  const monthStart = sql`case x.m ${sql.join(
    months.map((m) => sql`when ${sql.raw(`'${m}'`)} then ${sql.raw(String(londonStart(m).getTime()))}`),
    sql` `,
  )} end`;
  // One row per donor and month, then each donor's first gift through donations_donor_idx (donor_id, date);
  // the unary + keeps the planner off the status-led insight index, which would scan every paid gift per donor.
  const firstGift = condition
    ? sql`(select min(d2.date) from donations d2 join campaigns c2 on c2.id = d2.campaign_id
        where d2.donor_id = g.donor_id and +d2.status = 'succeeded' and ${condition})`
    : sql`(select min(d2.date) from donations d2 where d2.donor_id = g.donor_id and +d2.status = 'succeeded')`;
  const rows = await db.all<{ m: string; fresh: number; again: number }>(sql`
    select x.m as m,
      sum(case when x.first_date >= ${monthStart} then 1 else 0 end) as fresh,
      sum(case when x.first_date < ${monthStart} then 1 else 0 end) as again
    from (
      select g.m as m, ${firstGift} as first_date
      from (
        select distinct d.donor_id as donor_id, ${monthExpr(sql`d.date`, since, now)} as m from ${from}
        where d.status = 'succeeded' and d.date >= ${since.getTime()} and d.date <= ${now.getTime()} and ${where}
      ) g
    ) x
    group by x.m`);
  const byMonth = new Map(rows.map((r) => [r.m, r]));
  return months.map((m) => ({
    month: m,
    new_donors: num(byMonth.get(m)?.fresh),
    returning_donors: num(byMonth.get(m)?.again),
  }));
}

/** Per month: all gifts, the part with a Gift Aid declaration, and the Gift Aid it brings (25%, per gift, rounded down). */
export async function giftAidByMonth(db: Db, scope: OrgScope, now = new Date()): Promise<GiftAidMonth[]> {
  const months = lastMonths(now, CHART_MONTHS);
  const since = londonStart(months[0]);
  const { from, where } = fromDonations(scope);
  const rows = await db.all<{ m: string; total: number; eligible: number; aid: number }>(sql`
    select ${monthExpr(sql`d.date`, since, now)} as m,
      sum(d.amount - d.refunded_amount) as total,
      sum(case when d.gift_aid then d.amount - d.refunded_amount else 0 end) as eligible,
      sum(case when d.gift_aid then (d.amount - d.refunded_amount) / 4 else 0 end) as aid
    from ${from}
    where d.status = 'succeeded' and d.date >= ${since.getTime()} and d.date <= ${now.getTime()} and ${where}
    group by 1`);
  const byMonth = new Map(rows.map((r) => [r.m, r]));
  return months.map((m) => {
    const r = byMonth.get(m);
    return { month: m, total_amount: num(r?.total), eligible_amount: num(r?.eligible), gift_aid: num(r?.aid) };
  });
}
