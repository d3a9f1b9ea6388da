import { and, asc, eq, gte, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import { campaignOfGift, giftOf } from '../../../db/gift-joins';
import type { Db } from '../../../db/client';
import { campaigns, donations, gasdsClaims, giftAidClaimedGifts, giftAidClaims } from '../../../db/schema';
import { formatPence, GASDS_LIMITS, GASDS_METHODS, londonIsoDate, ukTaxYear } from '../../../domain';
import { badRequest, HttpError } from '../../lib/errors';
import type { GasdsDto } from '../../schemas/gift-aid';
import { auditInsertIf, staffActor } from '../audit/append';
import { claimScope, resolveScopedOrg } from './scope';
import type { AuditedWriteContext, SignedInContext, ViewerContext } from '../../lib/service-context';

/**
 * Gift Aid Small Donations Scheme (docs/decisions/032): small cash and contactless gifts recorded by
 * hand, without a declaration, counted per organization and tax year, capped at £8,000 of donations
 * a year and at 10 times the Gift Aid donations claimed for the same tax year.
 */

/** HMRC takes a GASDS claim up to two years after the end of the tax year the gifts were collected in. */
const CLAIM_WINDOW_YEARS = 2;

function smallGiftsWhere(organizationId: string, year: ReturnType<typeof ukTaxYear>) {
  return and(
    eq(campaigns.organizationId, organizationId),
    eq(donations.status, 'succeeded'),
    inArray(donations.source, ['manual', 'batch']),
    inArray(donations.method, [...GASDS_METHODS]),
    eq(donations.giftAid, false),
    isNull(donations.giftAidDeclarationId),
    isNull(donations.gasdsClaimId),
    // A collection's total counts whole: the £30 limit is each coin's and note's in it (decision 081).
    sql`(${donations.amount} <= ${GASDS_LIMITS.smallDonationMaxPence} or ${donations.donorId} = (select collections_donor_id from organizations where id = ${organizationId}))`,
    sql`${donations.amount} > ${donations.refundedAmount}`,
    gte(donations.date, year.start),
    lt(donations.date, year.end),
  );
}

type Position = GasdsDto & { giftIds: { id: string; amount: number }[] };

async function position(db: Db, organizationId: string, taxYear: number): Promise<Position> {
  const year = ukTaxYear(taxYear);
  const gifts = await db
    .select({ id: donations.id, amount: sql<number>`${donations.amount} - ${donations.refundedAmount}` })
    .from(donations)
    .innerJoin(campaigns, campaignOfGift)
    .where(smallGiftsWhere(organizationId, year))
    .orderBy(asc(donations.date), asc(donations.id))
    .limit(50_000);
  const smallDonations = gifts.reduce((sum, g) => sum + Number(g.amount), 0);
  // Gift Aid donations of the same tax year in claims that were not voided (the matching rule).
  const [giftAid] = await db
    .select({ total: sql<number>`coalesce(sum(${giftAidClaimedGifts.amountPence}), 0)` })
    .from(giftAidClaimedGifts)
    .innerJoin(giftAidClaims, eq(giftAidClaims.id, giftAidClaimedGifts.claimId))
    .innerJoin(donations, giftOf(giftAidClaimedGifts))
    .where(
      and(
        eq(giftAidClaims.organizationId, organizationId),
        ne(giftAidClaims.status, 'void'),
        gte(donations.date, year.start),
        lt(donations.date, year.end),
      ),
    );
  const claims = await db
    .select()
    .from(gasdsClaims)
    .where(and(eq(gasdsClaims.organizationId, organizationId), eq(gasdsClaims.taxYear, taxYear)))
    .orderBy(asc(gasdsClaims.createdAt));
  const alreadyClaimed = claims.filter((c) => c.status !== 'void').reduce((sum, c) => sum + c.donationsPence, 0);
  const giftAidDonations = Number(giftAid?.total ?? 0);
  const annualLeft = Math.max(0, GASDS_LIMITS.annualDonationsMaxPence - alreadyClaimed);
  const matchingLeft = Math.max(0, GASDS_LIMITS.matchingMultiple * giftAidDonations - alreadyClaimed);
  const claimable = Math.min(smallDonations, annualLeft, matchingLeft);
  const limitedBy =
    claimable === smallDonations ? 'small_donations' : claimable === matchingLeft ? 'matching_rule' : 'annual_limit';
  return {
    organization_id: organizationId,
    tax_year: taxYear,
    label: year.label,
    small_gifts: gifts.length,
    small_donations: smallDonations,
    gift_aid_donations: giftAidDonations,
    already_claimed: alreadyClaimed,
    annual_cap_left: annualLeft,
    matching_cap_left: matchingLeft,
    claimable,
    top_up: Math.floor(claimable / 4),
    limited_by: limitedBy,
    claims: claims.map((c) => ({
      _id: c.id,
      donations: c.donationsPence,
      top_up: c.topUpPence,
      gift_count: c.giftCount,
      status: c.status,
      created_at: c.createdAt.toISOString(),
    })),
    giftIds: gifts.map((g) => ({ id: g.id, amount: Number(g.amount) })),
  };
}

function strip({ giftIds: _gifts, ...dto }: Position): GasdsDto {
  return dto;
}

export async function gasdsPosition(
  ctx: ViewerContext,
  query: { organization_id: string; tax_year: number },
): Promise<GasdsDto> {
  const { db, viewer } = ctx;
  claimScope(viewer);
  return strip(await position(db, resolveScopedOrg(query.organization_id, viewer), query.tax_year));
}

function limitMessage(p: Position, amount: number): string {
  // In pounds as people write them (£1,000.00), like the £8,000 beside them.
  const pounds = formatPence;
  if (amount > p.annual_cap_left && p.annual_cap_left <= p.matching_cap_left) {
    return `amount: at most ${pounds(p.annual_cap_left)} can be claimed for ${p.label}: HMRC allows £8,000 of small donations a tax year and ${pounds(p.already_claimed)} is claimed already`;
  }
  if (amount > p.matching_cap_left) {
    return `amount: at most ${pounds(p.matching_cap_left)} can be claimed for ${p.label}: small donations can be at most 10 times the Gift Aid donations claimed for the same tax year (${pounds(p.gift_aid_donations)})`;
  }
  return `amount: only ${pounds(p.small_donations)} of small cash and contactless gifts without a declaration are recorded for ${p.label}`;
}

/**
 * Records a GASDS claim for a tax year: the small gifts it covers (oldest first, whole gifts up to
 * the amount) are marked with the claim, in the same batch as the claim row and its audit row.
 * An amount over what the caps allow is refused with the limit that applies.
 */
export async function createGasdsClaim(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'>,
  input: { organization_id: string; tax_year: number; amount?: number },
): Promise<GasdsDto> {
  const { db, now } = ctx;
  const actor = staffActor(ctx);
  claimScope(actor.user);
  const organizationId = resolveScopedOrg(input.organization_id, actor.user);
  const year = ukTaxYear(input.tax_year);
  if (year.start.getTime() > now.getTime()) throw badRequest(`tax_year: ${year.label} has not started yet`);
  const lastDay = ukTaxYear(input.tax_year + CLAIM_WINDOW_YEARS).start;
  if (now.getTime() >= lastDay.getTime()) {
    throw badRequest(
      `tax_year: HMRC takes GASDS claims up to 2 years after the end of the tax year; ${year.label} closed on ${londonIsoDate(new Date(lastDay.getTime() - 1))}`,
    );
  }
  const p = await position(db, organizationId, input.tax_year);
  const amount = input.amount ?? p.claimable;
  if (amount > p.claimable) throw badRequest(limitMessage(p, amount));
  if (amount <= 0)
    throw new HttpError(
      422,
      `Nothing to claim for ${p.label}: ${p.small_donations ? 'the caps are reached' : 'no small cash or contactless gifts without a declaration are recorded'}`,
    );
  const chosen: string[] = [];
  let total = 0;
  for (const gift of p.giftIds) {
    if (total + gift.amount > amount) continue;
    chosen.push(gift.id);
    total += gift.amount;
  }
  // Whole gifts only: an amount below the smallest gift would be a claim of £0 on no gift.
  if (!chosen.length)
    throw new HttpError(
      422,
      `amount: no whole gift fits in ${formatPence(amount)}; the smallest unclaimed small gift for ${p.label} is ${formatPence(Math.min(...p.giftIds.map((g) => g.amount)))}`,
    );
  const id = crypto.randomUUID();
  const chosenIds = sql`(select value from json_each(${JSON.stringify(chosen)}))`;
  // Guarded by what was read: the chosen gifts all still unclaimed, and the year's claims as they
  // were. Of two claims sent at once, one is recorded; the other stores nothing (409 below), so no
  // gift is counted twice and the caps are never passed together.
  const asRead = sql`(select count(*) from ${donations} where ${donations.id} in ${chosenIds} and ${donations.gasdsClaimId} is null) = ${chosen.length}
    and (select coalesce(sum(${gasdsClaims.donationsPence}), 0) from ${gasdsClaims} where ${gasdsClaims.organizationId} = ${organizationId}
      and ${gasdsClaims.taxYear} = ${input.tax_year} and ${gasdsClaims.status} <> 'void') = ${p.already_claimed}`;
  const recorded = sql`exists (select 1 from ${gasdsClaims} where ${gasdsClaims.id} = ${id})`;
  const statements = [
    db.insert(gasdsClaims).select(
      sql`select ${id}, ${organizationId}, ${input.tax_year}, ${total}, ${Math.floor(total / 4)}, ${chosen.length},
        'claimed', null, ${actor.user.id}, ${now.getTime()}, ${now.getTime()} where ${asRead}`,
    ),
    db
      .update(donations)
      .set({ gasdsClaimId: id })
      .where(and(inArray(donations.id, chosenIds), isNull(donations.gasdsClaimId), recorded)),
    auditInsertIf(
      db,
      actor,
      recorded,
      {
        action: 'gasds_claim.create',
        targetType: 'gasds_claim',
        targetId: id,
        organizationId,
        changes: { tax_year: [null, input.tax_year], donations: [null, total], gift_count: [null, chosen.length] },
      },
      now,
    ),
  ];
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  const [stored] = await db.select({ id: gasdsClaims.id }).from(gasdsClaims).where(eq(gasdsClaims.id, id));
  if (!stored)
    throw new HttpError(
      409,
      `Another claim for ${p.label} was recorded a moment ago; reload to see what is left to claim`,
    );
  return strip(await position(db, organizationId, input.tax_year));
}
