import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  donations,
  giftAidAdjustments,
  giftAidClaimedGifts,
  giftAidClaimRows,
  giftAidClaims,
  organizations,
} from '../../../db/schema';
import type { Db } from '../../../db/client';
import { accountingPeriodOf, GIFT_AID_LIMITS, giftAidOn, londonMidnight } from '../../../domain';
import { badRequest, HttpError } from '../../lib/errors';
import type { ClaimDto, NewClaim } from '../../schemas/gift-aid';
import { auditInsert, staffActor } from '../audit/append';
import { getClaim } from './claims';
import { currentVersions, eligibleQuery, eligibleWhere, toScheduleGifts } from './eligible';
import { buildScheduleLines } from './schedule';
import { claimScope, parseDateRange, resolveScopedOrg } from './scope';
import type { AuditedWriteContext, SignedInContext } from '../../lib/service-context';

/**
 * Records are kept six years after the end of the accounting period of the claim's latest gift
 * (HMRC: 6 years from the end of the accounting period the claim relates to). The period ends on
 * the organization's accounting year end (04-05, the tax year, by default).
 */
export function retentionOf(latest: Date, yearEnd = '04-05'): { periodEnd: Date; retainUntil: Date } {
  const period = accountingPeriodOf(latest, yearEnd);
  const sixOn = `${Number(period.endDay.slice(0, 4)) + GIFT_AID_LIMITS.retentionYears}${period.endDay.slice(4)}`;
  return { periodEnd: period.end, retainUntil: accountingPeriodOf(londonMidnight(sixOn), yearEnd).end };
}

function isConstraintError(error: unknown): boolean {
  const text = [error, (error as { cause?: unknown })?.cause]
    .map((e) => (e instanceof Error ? e.message : String(e ?? '')))
    .join(' ');
  return /UNIQUE|PRIMARY KEY|constraint/i.test(text);
}

/**
 * The gifts whose over-claims a new claim reports: HMRC takes an adjustment no larger than the
 * claim it is reported on (it cannot make a credit), so each gift's unreported adjustments go in
 * whole, oldest first, while they fit in the claim's Gift Aid; a gift's that do not fit wait for a
 * later claim (and a smaller one behind it may still fit). Settled by gift, never by row, so a
 * refund and its failed refund are reported together and a gift's unreported adjustments never sum
 * below 0 (giftAidRefundAdjustment); one recorded between this read and the claim's batch joins its
 * gift's figure.
 */
export async function adjustmentsToReport(db: Db, organizationId: string, giftAidPence: number): Promise<string[]> {
  const rows = await db
    .select({ donationId: giftAidAdjustments.donationId, pence: giftAidAdjustments.giftAidPence })
    .from(giftAidAdjustments)
    .where(and(eq(giftAidAdjustments.organizationId, organizationId), isNull(giftAidAdjustments.settledClaimId)))
    .orderBy(asc(giftAidAdjustments.createdAt), asc(giftAidAdjustments.id));
  const byGift = new Map<string, number>();
  for (const row of rows) byGift.set(row.donationId, (byGift.get(row.donationId) ?? 0) + row.pence);
  const reported: string[] = [];
  let room = giftAidPence;
  for (const [donationId, pence] of byGift) {
    if (pence > room) continue;
    room -= pence;
    reported.push(donationId);
  }
  return reported;
}

/**
 * Creates a claim of at most 1,000 schedule lines from the organization's eligible gifts, oldest
 * first. The claim, its lines, its claimed-gift rows, the adjustments it settles and its audit row
 * are one batch: the claimed-gift primary key makes a gift that another claim took first fail the
 * whole batch, so a concurrent "Create claim" either gets different gifts or a 409 and changes nothing.
 */
export async function createClaim(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'>,
  input: NewClaim,
): Promise<ClaimDto> {
  const { db, now } = ctx;
  const actor = staffActor(ctx);
  const viewer = actor.user;
  const scope = claimScope(viewer);
  const organizationId = resolveScopedOrg(input.organization_id, viewer);
  const [org] = await db
    .select({ id: organizations.id, reference: organizations.hmrcReference, yearEnd: organizations.accountingYearEnd })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  if (!org) throw badRequest('organization_id: no such organization');
  if (!org.reference?.trim()) {
    throw badRequest(
      "organization_id: this organization has no HMRC charity reference; add it in the organization's settings first",
    );
  }
  const range = parseDateRange(input);
  const aggregate = input.aggregate === true;
  const rows = await eligibleQuery(db, eligibleWhere(scope, organizationId, range))
    .orderBy(asc(donations.date), asc(donations.id))
    .limit(aggregate ? GIFT_AID_LIMITS.claimRowsMax * 10 : GIFT_AID_LIMITS.claimRowsMax);
  if (!rows.length) throw new HttpError(422, 'No eligible gifts to claim for this organization and dates');

  const gifts = toScheduleGifts(rows, await currentVersions(db, rows));
  const lines = buildScheduleLines(gifts, { aggregate, yearEnd: org.yearEnd });
  const claimed = lines.flatMap((line) => line.gifts.map((gift) => ({ gift, line: line.line })));
  const dates = claimed.map((c) => c.gift.date.getTime());
  const earliest = new Date(Math.min(...dates));
  const latest = new Date(Math.max(...dates));
  const total = lines.reduce((sum, line) => sum + line.amountPence, 0);
  const { periodEnd, retainUntil } = retentionOf(latest, org.yearEnd);
  const reported = await adjustmentsToReport(db, organizationId, giftAidOn(total));
  const claimId = crypto.randomUUID();

  const lineJson = JSON.stringify(
    lines.map((l) => [
      l.line,
      l.title,
      l.firstName,
      l.lastName,
      l.house,
      l.postcode,
      l.aggregated,
      l.sponsored ? 1 : 0,
      l.donationDate.getTime(),
      l.amountPence,
    ]),
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
      .select(
        sql`select ${at(0)}, ${claimId}, ${at(1)}, ${at(2)}, ${at(3)}, ${now.getTime()} from json_each(${giftJson})`,
      ),
    db
      .update(giftAidAdjustments)
      .set({ settledClaimId: claimId })
      .where(
        and(
          eq(giftAidAdjustments.organizationId, organizationId),
          isNull(giftAidAdjustments.settledClaimId),
          sql`${giftAidAdjustments.donationId} in (select value from json_each(${JSON.stringify(reported)}))`,
        ),
      ),
    db
      .update(giftAidClaims)
      .set({
        adjustmentPence: sql`(select coalesce(sum(${giftAidAdjustments.giftAidPence}), 0) from ${giftAidAdjustments} where ${giftAidAdjustments.settledClaimId} = ${claimId})`,
      })
      .where(eq(giftAidClaims.id, claimId)),
    auditInsert(
      db,
      actor,
      {
        action: 'claim.create',
        targetType: 'claim',
        targetId: claimId,
        organizationId,
        changes: { status: [null, 'draft'], gift_count: [null, claimed.length], total: [null, total] },
      },
      now,
    ),
  ];
  try {
    await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  } catch (error) {
    if (isConstraintError(error)) {
      throw new HttpError(
        409,
        'Some of these gifts were claimed by another claim a moment ago; reload the list and try again',
      );
    }
    throw error;
  }
  return getClaim({ db, viewer }, claimId);
}
