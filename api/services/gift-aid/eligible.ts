import { and, asc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { campaignOfGift } from '../../../db/gift-joins';
import type { Db } from '../../../db/client';
import { chunks } from '../../../db/chunks';
import { campaigns, donations, giftAidClaimedGifts, giftAidDeclarations, organizations } from '../../../db/schema';
import { GIFT_AID_LIMITS, giftAidOn } from '../../../domain';
import type { EligibleList } from '../../schemas/gift-aid';
import { coversGiftSql, type DeclarationRow } from './declarations';
import type { ScheduleGift } from './schedule';
import { claimScope, type DateRange, orgCondition, parseDateRange, resolveScopedOrg } from './scope';
import type { ViewerContext } from '../../lib/service-context';

/** The gift's campaign or appeal is a sponsored event (its gifts say "Yes" and are never aggregated). */
const sponsoredSql = sql<number>`exists (select 1 from ${campaigns} s where s.id in (${donations.campaignId}, ${donations.appealId}) and s.sponsored_event = 1)`;

/**
 * Eligible and not yet claimed: succeeded and not fully refunded, flagged Gift Aid (card gifts
 * given with a declaration, offline gifts an admin verified), no benefit above HMRC's limits, the
 * declaration covering the gift's date (coversGiftSql: an oral one only once confirmed in
 * writing), and no claimed-gifts row. Refunded pence are left out of the amount.
 */
export function eligibleWhere(
  scope: string[] | null,
  organizationId: string | null,
  range: { start: Date | null; end: Date | null },
): SQL {
  return and(
    eq(donations.giftAid, true),
    eq(donations.status, 'succeeded'),
    eq(donations.benefitExceedsLimit, false),
    sql`${donations.amount} > ${donations.refundedAmount}`,
    inArray(donations.source, ['card', 'demo', 'manual', 'batch']),
    coversGiftSql,
    // The declaration is this donor's, to this gift's charity (a gift moved since keeps none: manual.ts).
    sql`${giftAidDeclarations.donorId} = ${donations.donorId}`,
    sql`(${giftAidDeclarations.organizationId} is null or ${giftAidDeclarations.organizationId} = ${campaigns.organizationId})`,
    sql`not exists (select 1 from ${giftAidClaimedGifts} where ${giftAidClaimedGifts.donationId} = ${donations.id})`,
    orgCondition(campaigns.organizationId, scope),
    organizationId ? eq(campaigns.organizationId, organizationId) : sql`${campaigns.organizationId} is not null`,
    range.start ? gte(donations.date, range.start) : undefined,
    range.end ? lt(donations.date, range.end) : undefined,
  )!;
}

export function eligibleQuery(db: Db, where: SQL) {
  return db
    .select({
      donationId: donations.id,
      amount: donations.amount,
      refunded: donations.refundedAmount,
      date: donations.date,
      source: donations.source,
      type: donations.type,
      donorId: donations.donorId,
      organizationId: campaigns.organizationId,
      campaignTitle: campaigns.title,
      sponsored: sponsoredSql,
      declaration: giftAidDeclarations,
    })
    .from(donations)
    .innerJoin(campaigns, campaignOfGift)
    .innerJoin(giftAidDeclarations, eq(giftAidDeclarations.id, donations.giftAidDeclarationId))
    .where(where);
}

export type EligibleRow = Awaited<ReturnType<ReturnType<typeof eligibleQuery>['execute']>>[number];

/** Eligible gifts' totals under the same rule. */
export async function eligibleTotals(db: Db, where: SQL): Promise<{ count: number; total: number }> {
  const [totals] = await db
    .select({
      count: sql<number>`count(*)`,
      total: sql<number>`coalesce(sum(${donations.amount} - ${donations.refundedAmount}), 0)`,
    })
    .from(donations)
    .innerJoin(campaigns, campaignOfGift)
    .innerJoin(giftAidDeclarations, eq(giftAidDeclarations.id, donations.giftAidDeclarationId))
    .where(where);
  return { count: Number(totals?.count ?? 0), total: Number(totals?.total ?? 0) };
}

/**
 * The version of a declaration that was current when the gift was made: a gift keeps the version
 * it was given under, but a renewal paid after an address change (its metadata still naming the
 * old version) is claimed with the new address.
 */
export async function currentVersions(db: Db, rows: EligibleRow[]): Promise<Map<string, DeclarationRow>> {
  const replaced = [...new Set(rows.filter((r) => r.declaration.replacedBy).map((r) => r.donorId))];
  const all = new Map<string, DeclarationRow>();
  for (const ids of chunks(replaced)) {
    for (const row of await db.select().from(giftAidDeclarations).where(inArray(giftAidDeclarations.donorId, ids)))
      all.set(row.id, row);
  }
  const chosen = new Map<string, DeclarationRow>();
  for (const r of rows) {
    let version: DeclarationRow = r.declaration;
    for (let hops = 0; version.replacedBy && hops < 50; hops++) {
      const next = all.get(version.replacedBy);
      if (!next || next.createdAt.getTime() > r.date.getTime()) break;
      version = next;
    }
    chosen.set(r.donationId, version);
  }
  return chosen;
}

/** The schedule's view of eligible rows: net amount, the declaration version's name and address. */
export function toScheduleGifts(rows: EligibleRow[], versions: Map<string, DeclarationRow>): ScheduleGift[] {
  return rows.map((r) => {
    const d = versions.get(r.donationId) ?? r.declaration;
    return {
      donationId: r.donationId,
      declarationId: d.id,
      amount: r.amount - r.refunded,
      date: r.date,
      title: d.title,
      firstName: d.firstName,
      lastName: d.lastName,
      house: d.house,
      address: d.address,
      postcode: d.postcode,
      overseas: d.overseas,
      sponsored: Boolean(Number(r.sponsored)),
    };
  });
}

/** The screen's list: the oldest gifts first (they are claimed first), up to one claim's worth. */
export async function listEligibleGifts(
  ctx: ViewerContext,
  query: DateRange & { organization_id?: string | null },
): Promise<EligibleList> {
  const { db, viewer } = ctx;
  const scope = claimScope(viewer);
  const organizationId = query.organization_id ? resolveScopedOrg(query.organization_id, viewer) : null;
  const where = eligibleWhere(scope, organizationId, parseDateRange(query));
  const rows = await eligibleQuery(db, where)
    .orderBy(asc(donations.date), asc(donations.id))
    .limit(GIFT_AID_LIMITS.claimRowsMax);
  const { count, total } = await eligibleTotals(db, where);
  const versions = await currentVersions(db, rows);
  return {
    items: rows.map((r) => {
      const d = versions.get(r.donationId) ?? r.declaration;
      const net = r.amount - r.refunded;
      return {
        _id: r.donationId,
        date: r.date.toISOString(),
        amount: net,
        gift_aid: giftAidOn(net),
        source: r.source,
        type: r.type,
        organization_id: r.organizationId!,
        campaign: r.campaignTitle,
        donor: {
          title: d.title,
          first_name: d.firstName,
          last_name: d.lastName,
          house: d.house,
          postcode: d.overseas ? 'X' : d.postcode,
        },
        declaration_id: d.id,
        declaration_method: d.method,
      };
    }),
    count,
    total,
    gift_aid: giftAidOn(total),
    shown: rows.length,
  };
}

/** The organization's accounting year end ("MM-DD"). */
export async function accountingYearEndOf(db: Db, organizationId: string): Promise<string> {
  const [row] = await db
    .select({ yearEnd: organizations.accountingYearEnd })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row?.yearEnd ?? '04-05';
}
