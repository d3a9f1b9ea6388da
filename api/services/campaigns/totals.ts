import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { chunks } from '../../../db/chunks';
import { campaigns, campaignTotals, donorTotals } from '../../../db/schema';

/**
 * The one place that reads what a campaign or appeal has raised (docs/decisions/016).
 *
 * Totals are stored in `campaign_totals`, one row per campaign or appeal, and kept current by the
 * triggers of migration 0004_speed: every write to `donations` (webhook recording, refunds, failures,
 * manual gifts and their edits, the seed) adds the difference between the row's old and new
 * contribution, inside the same statement, so they can never drift from the gifts and a webhook
 * replay (which changes no row) changes no total. Readers join one row by primary key instead of
 * summing donations, so a page costs the same at 300 gifts or 30,000.
 *
 * A gift's contribution: status succeeded or refunded counts `amount - refunded_amount` pence;
 * status succeeded counts one gift; a counted gift that declared Gift Aid adds
 * floor(net * GIFT_AID_RATE_PERCENT / 100) pence of Gift Aid. A gift to an appeal counts for the
 * appeal and for its parent campaign.
 */

/** Gift Aid adds 25p for every £1 donated (basic rate); the trigger uses the same figure. */
export const GIFT_AID_RATE_PERCENT = 25;

export type Totals = {
  /** Pence raised, net of refunds. */
  raised: number;
  /** Gifts that still count (succeeded). */
  count: number;
  /** Pence of Gift Aid on the counted gifts that declared it. */
  giftAid: number;
};

export const EMPTY_TOTALS: Totals = { raised: 0, count: 0, giftAid: 0 };

/**
 * Columns for a query over `campaigns` that has joined `campaign_totals` with `joinTotals`:
 * a campaign or appeal without any counted gift has no row yet, hence the coalesce.
 */
export const totalsColumns = {
  totalDonations: sql<number>`coalesce(${campaignTotals.raisedPence}, 0)`,
  donationCount: sql<number>`coalesce(${campaignTotals.giftCount}, 0)`,
  giftAidTotal: sql<number>`coalesce(${campaignTotals.giftAidPence}, 0)`,
};

/** The join condition for `.leftJoin(campaignTotals, totalsJoin)`. */
export const totalsJoin = eq(campaignTotals.campaignId, campaigns.id);

/** Stored totals of some campaigns or appeals by id (missing ids have raised nothing). */
export async function readTotals(db: Db, ids: readonly string[]): Promise<Map<string, Totals>> {
  const out = new Map<string, Totals>(ids.map((id) => [id, { ...EMPTY_TOTALS }]));
  if (!ids.length) return out;
  for (const piece of chunks([...new Set(ids)])) {
    const rows = await db.select().from(campaignTotals).where(inArray(campaignTotals.campaignId, piece));
    for (const row of rows)
      out.set(row.campaignId, { raised: row.raisedPence, count: row.giftCount, giftAid: row.giftAidPence });
  }
  return out;
}

/** One campaign's or appeal's stored totals. */
export async function totalsOf(db: Db, id: string): Promise<Totals> {
  return (await readTotals(db, [id])).get(id) ?? { ...EMPTY_TOTALS };
}

/** Per-target sums over every counted gift: the migration's backfill and recomputeTotals share it. */
const RECOMPUTE = sql`
    select target, sum(net) as raised, sum(status = 'succeeded') as count,
      sum(case when gift_aid then net * ${sql.raw(String(GIFT_AID_RATE_PERCENT))} / 100 else 0 end) as gift_aid
    from (
      select campaign_id as target, amount - refunded_amount as net, status, gift_aid from donations
        where status in ('succeeded', 'refunded')
      union all
      select appeal_id, amount - refunded_amount, status, gift_aid from donations
        where appeal_id is not null and status in ('succeeded', 'refunded')
    )
    group by target`;

/**
 * Rewrites every stored total from the gifts in one batch (an operator's repair; the triggers keep
 * them right otherwise). Safe to run at any time: the batch is one transaction.
 */
export async function rebuildTotals(db: Db): Promise<void> {
  await db.batch([
    db.delete(campaignTotals),
    db.insert(campaignTotals).select(sql`select target, raised, count, gift_aid from (${RECOMPUTE})`),
    db.delete(donorTotals),
    db.insert(donorTotals).select(sql`select target, donor_id, raised, count, own from (${RECOMPUTE_BY_DONOR})`),
  ]);
}

/** Per-target, per-donor sums (the top donors' source); `own` counts gifts from the donor's own checkout. */
const RECOMPUTE_BY_DONOR = sql`
    select target, donor_id, sum(net) as raised, sum(status = 'succeeded') as count,
      sum(status = 'succeeded' and own_checkout = 1) as own
    from (
      select campaign_id as target, donor_id, amount - refunded_amount as net, status, own_checkout from donations
        where status in ('succeeded', 'refunded')
      union all
      select appeal_id, donor_id, amount - refunded_amount, status, own_checkout from donations
        where appeal_id is not null and status in ('succeeded', 'refunded')
    )
    group by target, donor_id`;

export type DonorTotals = { raised: number; count: number; own: number };

/** Per-donor totals summed from every donation, keyed "target|donor" (non-zero ones only). */
export async function recomputeDonorTotals(db: Db): Promise<Map<string, DonorTotals>> {
  const rows = await db.all<{ target: string; donor_id: string; raised: number; count: number; own: number }>(
    RECOMPUTE_BY_DONOR,
  );
  return new Map(
    rows
      .filter((r) => Number(r.raised) !== 0 || Number(r.count) !== 0)
      .map((r) => [
        `${r.target}|${r.donor_id}`,
        { raised: Number(r.raised), count: Number(r.count), own: Number(r.own) },
      ]),
  );
}

/** Stored per-donor totals keyed "target|donor" (non-zero ones only). */
export async function storedDonorTotals(db: Db): Promise<Map<string, DonorTotals>> {
  const rows = await db.select().from(donorTotals);
  return new Map(
    rows
      .filter((r) => r.raisedPence !== 0 || r.giftCount !== 0)
      .map((r) => [`${r.targetId}|${r.donorId}`, { raised: r.raisedPence, count: r.giftCount, own: r.ownGiftCount }]),
  );
}

/**
 * The same figures summed from every donation: the reference the stored totals must equal (tests,
 * and a check an operator can run). Only campaigns or appeals with counted gifts appear.
 */
export async function recomputeTotals(db: Db): Promise<Map<string, Totals>> {
  const rows = await db.all<{ target: string; raised: number; count: number; gift_aid: number }>(RECOMPUTE);
  return new Map(
    rows.map((r) => [r.target, { raised: Number(r.raised), count: Number(r.count), giftAid: Number(r.gift_aid) }]),
  );
}

/** Every stored totals row (rows that fell back to zero included, for comparing with recomputeTotals). */
export async function storedTotals(db: Db): Promise<Map<string, Totals>> {
  const rows = await db.select().from(campaignTotals);
  return new Map(
    rows
      .filter((r) => r.raisedPence !== 0 || r.giftCount !== 0 || r.giftAidPence !== 0)
      .map((r) => [r.campaignId, { raised: r.raisedPence, count: r.giftCount, giftAid: r.giftAidPence }]),
  );
}
