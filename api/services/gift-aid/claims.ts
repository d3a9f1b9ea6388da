import { and, asc, desc, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { chunks } from '../../../db/chunks';
import { parseId } from '../../../db/ids';
import {
  campaigns,
  donations,
  giftAidAdjustments,
  giftAidClaimedGifts,
  giftAidClaimRows,
  giftAidClaims,
  giftAidDeclarations,
  organizations,
} from '../../../db/schema';
import {
  GIFT_AID_LIMITS,
  type GiftAidClaimStatus,
  giftAidOn,
  isIsoDay,
  londonMidnight,
  ukTaxYear,
  ukTaxYearOf,
} from '../../../domain';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import { orgScope, readsFinance } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import { canManageOrganization } from '../organizations';
import { coversGiftSql, type DeclarationRow } from './declarations';
import { auditLog } from '../../../db/schema';
import { actorOf, auditInsert } from '../audit/append';
import { buildScheduleLines, type CsvRow, type ScheduleGift, scheduleCsv } from './schedule';

/** The organizations a viewer may claim for: null means every one (admins). */
export function claimScope(viewer: AuthUser): string[] | null {
  if (!readsFinance(viewer)) throw new HttpError(403, 'Only admins, organization admins and finance users can see Gift Aid claims');
  const scope = orgScope(viewer);
  return scope === 'all' ? null : scope;
}

function orgCondition(column: SQL.Aliased | typeof campaigns.organizationId | typeof giftAidClaims.organizationId | typeof giftAidAdjustments.organizationId, scope: string[] | null): SQL | undefined {
  if (scope === null) return undefined;
  return scope.length ? inArray(column as typeof campaigns.organizationId, scope) : sql`0`;
}

export type DateRange = { from?: string | null; to?: string | null };

function nextDay(isoDay: string): string {
  const [y, m, d] = isoDay.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** London calendar days, inclusive; each a 400 naming its field when it is not a real day. */
export function parseDateRange(range: DateRange): { start: Date | null; end: Date | null } {
  for (const key of ['from', 'to'] as const) {
    const value = range[key];
    if (value && !isIsoDay(value)) throw badRequest(`${key}: enter a date like 2026-04-06`);
  }
  if (range.from && range.to && range.from > range.to) throw badRequest('to: must be on or after from');
  return {
    start: range.from ? londonMidnight(range.from) : null,
    end: range.to ? londonMidnight(nextDay(range.to)) : null,
  };
}

/**
 * Eligible and not yet claimed: succeeded and not fully refunded, flagged Gift Aid (card gifts
 * given with a declaration, offline gifts an admin verified), the declaration covering the gift's
 * date (coversGiftSql), and no claimed-gifts row. Refunded pence are left out of the amount.
 */
function eligibleWhere(scope: string[] | null, organizationId: string | null, range: { start: Date | null; end: Date | null }): SQL {
  return and(
    eq(donations.giftAid, true),
    eq(donations.status, 'succeeded'),
    sql`${donations.amount} > ${donations.refundedAmount}`,
    inArray(donations.source, ['card', 'demo', 'manual']),
    coversGiftSql,
    sql`not exists (select 1 from ${giftAidClaimedGifts} where ${giftAidClaimedGifts.donationId} = ${donations.id})`,
    orgCondition(campaigns.organizationId, scope),
    organizationId ? eq(campaigns.organizationId, organizationId) : sql`${campaigns.organizationId} is not null`,
    range.start ? gte(donations.date, range.start) : undefined,
    range.end ? lt(donations.date, range.end) : undefined,
  )!;
}

function eligibleQuery(db: Db, where: SQL) {
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
      declaration: giftAidDeclarations,
    })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(giftAidDeclarations, eq(giftAidDeclarations.id, donations.giftAidDeclarationId))
    .where(where);
}

type EligibleRow = Awaited<ReturnType<ReturnType<typeof eligibleQuery>['execute']>>[number];

/**
 * The version of a declaration that was current when the gift was made: a gift keeps the version
 * it was given under, but a renewal paid after an address change (its metadata still naming the
 * old version) is claimed with the new address.
 */
async function currentVersions(db: Db, rows: EligibleRow[]): Promise<Map<string, DeclarationRow>> {
  const replaced = [...new Set(rows.filter((r) => r.declaration.replacedBy).map((r) => r.donorId))];
  const all = new Map<string, DeclarationRow>();
  for (const ids of chunks(replaced)) {
    for (const row of await db.select().from(giftAidDeclarations).where(inArray(giftAidDeclarations.donorId, ids))) all.set(row.id, row);
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

export type EligibleGiftDto = {
  _id: string;
  date: string;
  /** Net pence (amount less refunds). */
  amount: number;
  gift_aid: number;
  source: string;
  type: string;
  organization_id: string;
  campaign: string;
  donor: { title: string | null; first_name: string; last_name: string; house: string; postcode: string };
  declaration_id: string;
  declaration_method: string;
};

export type EligibleList = { items: EligibleGiftDto[]; count: number; total: number; gift_aid: number; shown: number };

/** The screen's list: the oldest gifts first (they are claimed first), up to one claim's worth. */
export async function listEligibleGifts(db: Db, viewer: AuthUser, query: DateRange & { organization_id?: string | null }): Promise<EligibleList> {
  const scope = claimScope(viewer);
  const organizationId = query.organization_id ? resolveScopedOrg(query.organization_id, viewer) : null;
  const where = eligibleWhere(scope, organizationId, parseDateRange(query));
  const rows = await eligibleQuery(db, where).orderBy(asc(donations.date), asc(donations.id)).limit(GIFT_AID_LIMITS.claimRowsMax);
  const [totals] = await db
    .select({ count: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${donations.amount} - ${donations.refundedAmount}), 0)` })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(giftAidDeclarations, eq(giftAidDeclarations.id, donations.giftAidDeclarationId))
    .where(where);
  const versions = await currentVersions(db, rows);
  const total = Number(totals?.total ?? 0);
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
        donor: { title: d.title, first_name: d.firstName, last_name: d.lastName, house: d.house, postcode: d.postcode },
        declaration_id: d.id,
        declaration_method: d.method,
      };
    }),
    count: Number(totals?.count ?? 0),
    total,
    gift_aid: giftAidOn(total),
    shown: rows.length,
  };
}

function resolveScopedOrg(ref: string, viewer: AuthUser): string {
  const id = parseId(ref);
  if (!id) throw badRequest('organization_id: must be an organization id');
  if (!canManageOrganization(viewer, id)) throw new HttpError(403, 'You can only see Gift Aid for your own organizations');
  return id;
}

export type ClaimDto = {
  _id: string;
  organization: { label: string; value: string };
  charity_reference: string;
  status: GiftAidClaimStatus;
  hmrc_reference: string | null;
  aggregated: boolean;
  date_from: string | null;
  date_to: string | null;
  earliest_date: string;
  latest_date: string;
  row_count: number;
  gift_count: number;
  /** Pence donated on the schedule. */
  total: number;
  /** Gift Aid claimed, pence. */
  gift_aid: number;
  /** Over-claimed Gift Aid from earlier claims set against this one, pence. */
  adjustment: number;
  /** What HMRC should pay: gift_aid less adjustment, pence. */
  net_claim: number;
  accounting_period_end: string;
  retain_until: string;
  created_at: string;
  submitted_at: string | null;
  paid_at: string | null;
};

const claimColumns = { claim: giftAidClaims, organizationName: organizations.name };

function toClaimDto(r: { claim: typeof giftAidClaims.$inferSelect; organizationName: string }): ClaimDto {
  const c = r.claim;
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
    net_claim: c.giftAidPence - c.adjustmentPence,
    accounting_period_end: c.accountingPeriodEnd.toISOString(),
    retain_until: c.retainUntil.toISOString(),
    created_at: c.createdAt.toISOString(),
    submitted_at: c.submittedAt ? c.submittedAt.toISOString() : null,
    paid_at: c.paidAt ? c.paidAt.toISOString() : null,
  };
}

export async function listClaims(db: Db, viewer: AuthUser, organizationRef?: string | null): Promise<ClaimDto[]> {
  const scope = claimScope(viewer);
  const organizationId = organizationRef ? resolveScopedOrg(organizationRef, viewer) : null;
  const rows = await db
    .select(claimColumns)
    .from(giftAidClaims)
    .innerJoin(organizations, eq(organizations.id, giftAidClaims.organizationId))
    .where(and(orgCondition(giftAidClaims.organizationId, scope), organizationId ? eq(giftAidClaims.organizationId, organizationId) : undefined))
    .orderBy(desc(giftAidClaims.createdAt), desc(giftAidClaims.id))
    .limit(200);
  return rows.map(toClaimDto);
}

/** A claim the viewer may see; anything else is a 404 (a claim id reveals nothing). */
export async function getClaim(db: Db, viewer: AuthUser, idRef: string): Promise<ClaimDto> {
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

export type NewClaim = DateRange & { organization_id: string; aggregate?: boolean };

/** Six years after the end of the accounting period, taken as the tax year of the latest gift (ADR 017). */
export function retentionOf(latest: Date): { periodEnd: Date; retainUntil: Date } {
  const year = ukTaxYearOf(latest);
  return { periodEnd: year.end, retainUntil: ukTaxYear(year.startYear + GIFT_AID_LIMITS.retentionYears).end };
}

/**
 * Creates a claim of at most 1,000 schedule lines from the organization's eligible gifts, oldest
 * first. The claim, its lines, its claimed-gift rows and the adjustments it settles are one batch:
 * the claimed-gift primary key makes a gift that another claim took first fail the whole batch,
 * so a concurrent "Create claim" either gets different gifts or a 409 and changes nothing.
 */
export async function createClaim(db: Db, viewer: AuthUser, input: NewClaim, now = new Date(), requestId: string | null = null): Promise<ClaimDto> {
  const scope = claimScope(viewer);
  const organizationId = resolveScopedOrg(input.organization_id, viewer);
  const [org] = await db
    .select({ id: organizations.id, reference: organizations.hmrcReference })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  if (!org) throw badRequest('organization_id: no such organization');
  if (!org.reference?.trim()) {
    throw badRequest("organization_id: this organization has no HMRC charity reference; add it in the organization's settings first");
  }
  const range = parseDateRange(input);
  const aggregate = input.aggregate === true;
  const rows = await eligibleQuery(db, eligibleWhere(scope, organizationId, range))
    .orderBy(asc(donations.date), asc(donations.id))
    .limit(aggregate ? GIFT_AID_LIMITS.claimRowsMax * 10 : GIFT_AID_LIMITS.claimRowsMax);
  if (!rows.length) throw new HttpError(422, 'No eligible gifts to claim for this organization and dates');

  const versions = await currentVersions(db, rows);
  const gifts: ScheduleGift[] = rows.map((r) => {
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
      postcode: d.postcode,
    };
  });
  const lines = buildScheduleLines(gifts, { aggregate });
  const claimed = lines.flatMap((line) => line.gifts.map((gift) => ({ gift, line: line.line })));
  const dates = claimed.map((c) => c.gift.date.getTime());
  const earliest = new Date(Math.min(...dates));
  const latest = new Date(Math.max(...dates));
  const total = lines.reduce((sum, line) => sum + line.amountPence, 0);
  const { periodEnd, retainUntil } = retentionOf(latest);
  const claimId = crypto.randomUUID();

  const lineJson = JSON.stringify(
    lines.map((l) => [l.line, l.title, l.firstName, l.lastName, l.house, l.postcode, l.aggregated, l.sponsored ? 1 : 0, l.donationDate.getTime(), l.amountPence]),
  );
  const giftJson = JSON.stringify(claimed.map((c) => [c.gift.donationId, c.line, c.gift.amount, c.gift.declarationId]));
  const at = (i: number) => sql.raw(`json_extract(value, '$[${i}]')`);

  const statements = [
    db.insert(giftAidClaims).values({
      id: claimId,
      organizationId,
      charityReference: org.reference.trim(),
      status: 'draft',
      aggregated: aggregate,
      dateFrom: input.from || null,
      dateTo: input.to || null,
      earliestDate: earliest,
      latestDate: latest,
      rowCount: lines.length,
      giftCount: claimed.length,
      totalPence: total,
      giftAidPence: giftAidOn(total),
      accountingPeriodEnd: periodEnd,
      retainUntil,
      createdBy: viewer.id,
      createdAt: now,
      updatedAt: now,
    }),
    // One statement each however many lines: the rows travel as one JSON parameter (D1 allows 100 parameters).
    db
      .insert(giftAidClaimRows)
      .select(
        sql`select ${claimId}, ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)}, ${at(4)}, ${at(5)}, ${at(6)}, ${at(7)}, ${at(8)}, ${at(9)} from json_each(${lineJson})`,
      ),
    db
      .insert(giftAidClaimedGifts)
      .select(sql`select ${at(0)}, ${claimId}, ${at(1)}, ${at(2)}, ${at(3)}, ${now.getTime()} from json_each(${giftJson})`),
    db
      .update(giftAidAdjustments)
      .set({ settledClaimId: claimId })
      .where(and(eq(giftAidAdjustments.organizationId, organizationId), isNull(giftAidAdjustments.settledClaimId))),
    db
      .update(giftAidClaims)
      .set({
        adjustmentPence: sql`(select coalesce(sum(${giftAidAdjustments.giftAidPence}), 0) from ${giftAidAdjustments} where ${giftAidAdjustments.settledClaimId} = ${claimId})`,
      })
      .where(eq(giftAidClaims.id, claimId)),
    auditInsert(db, actorOf(viewer, requestId), {
      action: 'claim.create',
      targetType: 'claim',
      targetId: claimId,
      organizationId,
      changes: { status: [null, 'draft'], total_pence: [null, total] },
    }),
  ];
  try {
    await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  } catch (error) {
    if (isConstraintError(error)) {
      throw new HttpError(409, 'Some of these gifts were claimed by another claim a moment ago; reload the list and try again');
    }
    throw error;
  }
  return getClaim(db, viewer, claimId);
}

function isConstraintError(error: unknown): boolean {
  const text = [error, (error as { cause?: unknown })?.cause]
    .map((e) => (e instanceof Error ? e.message : String(e ?? '')))
    .join(' ');
  return /UNIQUE|PRIMARY KEY|constraint/i.test(text);
}

/** Whether a gift is in a claim (it then keeps what the claim says). */
export async function isGiftAidClaimed(db: Db, donationId: string): Promise<boolean> {
  const [row] = await db.select({ id: giftAidClaimedGifts.donationId }).from(giftAidClaimedGifts).where(eq(giftAidClaimedGifts.donationId, donationId)).limit(1);
  return Boolean(row);
}

export async function claimRows(db: Db, claimId: string): Promise<CsvRow[]> {
  const rows = await db.select().from(giftAidClaimRows).where(eq(giftAidClaimRows.claimId, claimId)).orderBy(asc(giftAidClaimRows.line));
  return rows;
}

/** The schedule CSV, the same bytes on every download (rows are stored, never rebuilt). */
export async function claimSchedule(db: Db, viewer: AuthUser, idRef: string): Promise<{ claim: ClaimDto; csv: string }> {
  const claim = await getClaim(db, viewer, idRef);
  return { claim, csv: scheduleCsv(await claimRows(db, claim._id)) };
}

export type ClaimUpdate = { status: GiftAidClaimStatus; hmrc_reference?: string | null };

const NEXT_STATUS: Record<GiftAidClaimStatus, GiftAidClaimStatus[]> = {
  draft: ['submitted'],
  submitted: ['paid'],
  paid: [],
  // Rejection, resubmission and void have their own operations; a status update never reaches them.
  rejected: [],
  void: [],
};

/** draft → submitted (with HMRC's reference) → paid; never backwards. */
export async function updateClaim(db: Db, viewer: AuthUser, idRef: string, input: ClaimUpdate, now = new Date(), requestId: string | null = null): Promise<ClaimDto> {
  const claim = await getClaim(db, viewer, idRef);
  if (input.status === claim.status) {
    if (input.hmrc_reference && input.status === 'submitted') {
      await db.update(giftAidClaims).set({ hmrcReference: input.hmrc_reference, updatedAt: now }).where(eq(giftAidClaims.id, claim._id));
    }
    return getClaim(db, viewer, claim._id);
  }
  if (!NEXT_STATUS[claim.status].includes(input.status)) {
    throw badRequest(`status: a ${claim.status} claim can only become ${NEXT_STATUS[claim.status].join(' or ') || 'nothing else'}`);
  }
  // The audit row is written only if the status really moved (same guard as the update).
  const from = input.status === 'submitted' ? 'draft' : 'submitted';
  const audit = db.insert(auditLog).select(
    sql`select ${crypto.randomUUID()}, ${now.getTime()}, ${viewer.id}, ${viewer.email}, ${viewer.type}, 'claim.status', 'claim', ${claim._id},
      ${claim.organization.value}, ${JSON.stringify({ status: [from, input.status], ...(input.hmrc_reference ? { hmrc_reference: [null, input.hmrc_reference] } : {}) })},
      ${requestId}, null where exists (select 1 from gift_aid_claims where id = ${claim._id} and status = ${from})`,
  );
  if (input.status === 'submitted') {
    if (!input.hmrc_reference) throw badRequest("hmrc_reference: enter HMRC's reference for the submitted claim");
    await db.batch([
      audit,
      db
        .update(giftAidClaims)
        .set({ status: 'submitted', hmrcReference: input.hmrc_reference, submittedAt: now, updatedAt: now })
        .where(and(eq(giftAidClaims.id, claim._id), eq(giftAidClaims.status, 'draft'))),
    ]);
  } else {
    await db.batch([
      audit,
      db
        .update(giftAidClaims)
        .set({ status: 'paid', paidAt: now, updatedAt: now })
        .where(and(eq(giftAidClaims.id, claim._id), eq(giftAidClaims.status, 'submitted'))),
    ]);
  }
  return getClaim(db, viewer, claim._id);
}

export type AdjustmentDto = {
  _id: string;
  donation_id: string;
  claim_id: string;
  organization_id: string;
  gift_aid: number;
  reason: string;
  settled_claim_id: string | null;
  created_at: string;
};

export async function listAdjustments(db: Db, viewer: AuthUser, organizationRef?: string | null): Promise<AdjustmentDto[]> {
  const scope = claimScope(viewer);
  const organizationId = organizationRef ? resolveScopedOrg(organizationRef, viewer) : null;
  const rows = await db
    .select()
    .from(giftAidAdjustments)
    .where(and(orgCondition(giftAidAdjustments.organizationId, scope), organizationId ? eq(giftAidAdjustments.organizationId, organizationId) : undefined))
    .orderBy(desc(giftAidAdjustments.createdAt))
    .limit(500);
  return rows.map((a) => ({
    _id: a.id,
    donation_id: a.donationId,
    claim_id: a.claimId,
    organization_id: a.organizationId,
    gift_aid: a.giftAidPence,
    reason: a.reason,
    settled_claim_id: a.settledClaimId,
    created_at: a.createdAt.toISOString(),
  }));
}

export type GiftAidSummary = {
  /** Gift Aid on every claim made (draft, submitted or paid), pence. */
  claimed: number;
  /** Of which HMRC has paid. */
  paid: number;
  /** Gift Aid on eligible gifts not claimed yet. */
  to_claim: number;
  /** Over-claimed Gift Aid not yet set against a claim. */
  adjustments_due: number;
  eligible_gifts: number;
};

/** The dashboard overview's figures for the viewer's organizations. */
export async function giftAidSummary(db: Db, viewer: AuthUser): Promise<GiftAidSummary> {
  const scope = claimScope(viewer);
  const [claims] = await db
    .select({
      claimed: sql<number>`coalesce(sum(${giftAidClaims.giftAidPence}), 0)`,
      paid: sql<number>`coalesce(sum(case when ${giftAidClaims.status} = 'paid' then ${giftAidClaims.giftAidPence} else 0 end), 0)`,
    })
    .from(giftAidClaims)
    .where(orgCondition(giftAidClaims.organizationId, scope));
  const [eligible] = await db
    .select({ count: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${donations.amount} - ${donations.refundedAmount}), 0)` })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(giftAidDeclarations, eq(giftAidDeclarations.id, donations.giftAidDeclarationId))
    .where(eligibleWhere(scope, null, { start: null, end: null }));
  const [due] = await db
    .select({ total: sql<number>`coalesce(sum(${giftAidAdjustments.giftAidPence}), 0)` })
    .from(giftAidAdjustments)
    .where(and(isNull(giftAidAdjustments.settledClaimId), orgCondition(giftAidAdjustments.organizationId, scope)));
  return {
    claimed: Number(claims?.claimed ?? 0),
    paid: Number(claims?.paid ?? 0),
    to_claim: giftAidOn(Number(eligible?.total ?? 0)),
    adjustments_due: Number(due?.total ?? 0),
    eligible_gifts: Number(eligible?.count ?? 0),
  };
}
