import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { donorNameColumns, donorOfGift, giftOf } from '../../../db/gift-joins';
import { donations, giftAidAdjustments, giftAidClaims, users } from '../../../db/schema';
import { giftAidOn } from '../../../domain';
import type { AdjustmentDto, GiftAidSummary } from '../../schemas/gift-aid';
import { eligibleTotals, eligibleWhere } from './eligible';
import { claimScope, orgCondition, resolveScopedOrg } from './scope';
import type { ViewerContext } from '../../lib/service-context';
import { isoOrNull } from '../../../domain/dates';

export async function listAdjustments(ctx: ViewerContext, organizationRef?: string | null): Promise<AdjustmentDto[]> {
  const { db, viewer } = ctx;
  const scope = claimScope(viewer);
  const organizationId = organizationRef ? resolveScopedOrg(organizationRef, viewer) : null;
  // The gift's donor and day beside each adjustment: the office knows a refund by them, not by an id.
  const rows = await db
    .select({ a: giftAidAdjustments, giftDate: donations.date, ...donorNameColumns })
    .from(giftAidAdjustments)
    .leftJoin(donations, giftOf(giftAidAdjustments))
    .leftJoin(users, donorOfGift)
    .where(
      and(
        orgCondition(giftAidAdjustments.organizationId, scope),
        organizationId ? eq(giftAidAdjustments.organizationId, organizationId) : undefined,
      ),
    )
    .orderBy(desc(giftAidAdjustments.createdAt))
    .limit(500);
  return rows.map(({ a, giftDate, firstName, lastName }) => ({
    _id: a.id,
    donation_id: a.donationId,
    donor_name: [firstName, lastName].filter(Boolean).join(' ') || null,
    donation_date: isoOrNull(giftDate),
    claim_id: a.claimId,
    organization_id: a.organizationId,
    gift_aid: a.giftAidPence,
    reason: a.reason,
    settled_claim_id: a.settledClaimId,
    created_at: a.createdAt.toISOString(),
  }));
}

/** The dashboard overview's figures for the viewer's organizations (void claims claimed nothing). */
export async function giftAidSummary(ctx: ViewerContext): Promise<GiftAidSummary> {
  const { db, viewer } = ctx;
  const scope = claimScope(viewer);
  const [claims] = await db
    .select({
      claimed: sql<number>`coalesce(sum(${giftAidClaims.giftAidPence}), 0)`,
      paid: sql<number>`coalesce(sum(case when ${giftAidClaims.status} = 'paid' then ${giftAidClaims.giftAidPence} else 0 end), 0)`,
    })
    .from(giftAidClaims)
    .where(and(orgCondition(giftAidClaims.organizationId, scope), ne(giftAidClaims.status, 'void')));
  const eligible = await eligibleTotals(db, eligibleWhere(scope, null, { start: null, end: null }));
  const [due] = await db
    .select({ total: sql<number>`coalesce(sum(${giftAidAdjustments.giftAidPence}), 0)` })
    .from(giftAidAdjustments)
    .where(and(isNull(giftAidAdjustments.settledClaimId), orgCondition(giftAidAdjustments.organizationId, scope)));
  return {
    claimed: Number(claims?.claimed ?? 0),
    paid: Number(claims?.paid ?? 0),
    to_claim: giftAidOn(eligible.total),
    adjustments_due: Number(due?.total ?? 0),
    eligible_gifts: eligible.count,
  };
}
