import { and, asc, desc, eq } from 'drizzle-orm';
import { campaignOfGift, giftOf } from '../../../db/gift-joins';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import {
  campaigns,
  donations,
  giftAidClaimedGifts,
  giftAidClaimRows,
  giftAidClaims,
  giftAidDeclarations,
  organizations,
} from '../../../db/schema';
import { giftAidOn } from '../../../domain';
import { notFound } from '../../lib/errors';
import type { ClaimDto, ClaimGiftDto } from '../../schemas/gift-aid';
import { type CsvRow, scheduleCsv } from './schedule';
import { scheduleOds } from './schedule-ods';
import { claimScope, orgCondition, resolveScopedOrg } from './scope';
import type { ViewerContext } from '../../lib/service-context';
import { isoOrNull } from '../../../domain/dates';

/** Reading claims: the list, one claim, its gifts and its stored schedule. */

const claimColumns = { claim: giftAidClaims, organizationName: organizations.name };
type ClaimJoin = { claim: typeof giftAidClaims.$inferSelect; organizationName: string };

function toClaimDto(r: ClaimJoin): ClaimDto {
  const c = r.claim;
  const net = c.giftAidPence - c.adjustmentPence;
  return {
    _id: c.id,
    organization: { label: r.organizationName, value: c.organizationId },
    charity_reference: c.charityReference,
    status: c.status,
    hmrc_reference: c.hmrcReference,
    aggregated: c.aggregated,
    date_from: c.dateFrom,
    date_to: c.dateTo,
    earliest_date: c.earliestDate.toISOString(),
    latest_date: c.latestDate.toISOString(),
    row_count: c.rowCount,
    gift_count: c.giftCount,
    total: c.totalPence,
    gift_aid: c.giftAidPence,
    adjustment: c.adjustmentPence,
    net_claim: net,
    accounting_period_end: c.accountingPeriodEnd.toISOString(),
    retain_until: c.retainUntil.toISOString(),
    created_at: c.createdAt.toISOString(),
    submitted_at: isoOrNull(c.submittedAt),
    paid_at: isoOrNull(c.paidAt),
    paid_amount: c.paidAmountPence,
    paid_on: c.paidOn,
    payment_note: c.paymentNote,
    payment_difference: c.paidAmountPence !== null && c.paidAmountPence !== net ? c.paidAmountPence - net : null,
    rejected_at: isoOrNull(c.rejectedAt),
    rejection_reason: c.rejectionReason,
    voided_at: isoOrNull(c.voidedAt),
    void_reason: c.voidReason,
  };
}

export async function listClaims(ctx: ViewerContext, organizationRef?: string | null): Promise<ClaimDto[]> {
  const { db, viewer } = ctx;
  const scope = claimScope(viewer);
  const organizationId = organizationRef ? resolveScopedOrg(organizationRef, viewer) : null;
  const rows = await db
    .select(claimColumns)
    .from(giftAidClaims)
    .innerJoin(organizations, eq(organizations.id, giftAidClaims.organizationId))
    .where(
      and(
        orgCondition(giftAidClaims.organizationId, scope),
        organizationId ? eq(giftAidClaims.organizationId, organizationId) : undefined,
      ),
    )
    .orderBy(desc(giftAidClaims.createdAt), desc(giftAidClaims.id))
    .limit(200);
  return rows.map(toClaimDto);
}

/** A claim the viewer may see; anything else is a 404 (a claim id reveals nothing). */
export async function getClaim(ctx: ViewerContext, idRef: string): Promise<ClaimDto> {
  const { db, viewer } = ctx;
  const scope = claimScope(viewer);
  const id = parseId(idRef);
  const [row] = id
    ? await db
        .select(claimColumns)
        .from(giftAidClaims)
        .innerJoin(organizations, eq(organizations.id, giftAidClaims.organizationId))
        .where(and(eq(giftAidClaims.id, id), orgCondition(giftAidClaims.organizationId, scope)))
        .limit(1)
    : [];
  if (!row) throw notFound('Gift Aid claim not found');
  return toClaimDto(row);
}

/** Whether a gift is in a claim (it then keeps what the claim says). */
export async function isGiftAidClaimed(db: Db, donationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: giftAidClaimedGifts.donationId })
    .from(giftAidClaimedGifts)
    .where(eq(giftAidClaimedGifts.donationId, donationId))
    .limit(1);
  return Boolean(row);
}

export async function claimRows(db: Db, claimId: string): Promise<CsvRow[]> {
  return db
    .select()
    .from(giftAidClaimRows)
    .where(eq(giftAidClaimRows.claimId, claimId))
    .orderBy(asc(giftAidClaimRows.line));
}

/** The schedule CSV, the same bytes on every download (rows are stored, never rebuilt). */
export async function claimSchedule(ctx: ViewerContext, idRef: string): Promise<{ claim: ClaimDto; csv: string }> {
  const { db } = ctx;
  const claim = await getClaim(ctx, idRef);
  return { claim, csv: scheduleCsv(await claimRows(db, claim._id)) };
}

/** The schedule as an OpenDocument spreadsheet (typed date and number cells), the same bytes on every download. */
export async function claimScheduleOds(
  ctx: ViewerContext,
  idRef: string,
): Promise<{ claim: ClaimDto; ods: Uint8Array }> {
  const { db } = ctx;
  const claim = await getClaim(ctx, idRef);
  const rows = await claimRows(db, claim._id);
  return {
    claim,
    ods: scheduleOds(rows, {
      earliest: new Date(claim.earliest_date),
      totalPence: claim.total,
      createdAt: new Date(claim.created_at),
    }),
  };
}

/**
 * The gifts a claim holds, by schedule line. A void claim released its gifts (its claimed rows are
 * gone), so it lists none; its schedule snapshot still shows what it would have claimed.
 */
export async function claimGifts(
  ctx: ViewerContext,
  idRef: string,
): Promise<{ claim: ClaimDto; gifts: ClaimGiftDto[] }> {
  const { db } = ctx;
  const claim = await getClaim(ctx, idRef);
  const rows = await db
    .select({
      donationId: giftAidClaimedGifts.donationId,
      line: giftAidClaimedGifts.line,
      amount: giftAidClaimedGifts.amountPence,
      declarationId: giftAidClaimedGifts.declarationId,
      date: donations.date,
      donorId: donations.donorId,
      campaign: campaigns.title,
      firstName: giftAidDeclarations.firstName,
      lastName: giftAidDeclarations.lastName,
      aggregated: giftAidClaimRows.aggregated,
      sponsored: giftAidClaimRows.sponsored,
    })
    .from(giftAidClaimedGifts)
    .innerJoin(donations, giftOf(giftAidClaimedGifts))
    .innerJoin(campaigns, campaignOfGift)
    .leftJoin(giftAidDeclarations, eq(giftAidDeclarations.id, giftAidClaimedGifts.declarationId))
    .leftJoin(
      giftAidClaimRows,
      and(
        eq(giftAidClaimRows.claimId, giftAidClaimedGifts.claimId),
        eq(giftAidClaimRows.line, giftAidClaimedGifts.line),
      ),
    )
    .where(eq(giftAidClaimedGifts.claimId, claim._id))
    .orderBy(asc(giftAidClaimedGifts.line), asc(donations.date))
    .limit(20_000);
  return {
    claim,
    gifts: rows.map((r) => ({
      donation_id: r.donationId,
      line: r.line,
      date: r.date.toISOString(),
      amount: r.amount,
      gift_aid: giftAidOn(r.amount),
      campaign: r.campaign,
      donor_id: r.donorId,
      donor_name: [r.firstName, r.lastName].filter(Boolean).join(' '),
      declaration_id: r.declarationId,
      aggregated: Boolean(r.aggregated),
      sponsored: r.sponsored === true,
    })),
  };
}
