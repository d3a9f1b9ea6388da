import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { BATCH_METHODS, type BatchMethod } from '../../../domain/finance';
import { campaignOfGift, donorNameColumns, donorOfGift } from '../../../db/gift-joins';
import { parseId } from '../../../domain/ids';
import { campaigns, donationBatches, donations, organizations, users } from '../../../db/schema';
import type { BatchDto, BatchSummaryDto } from '../../schemas/batches';
import { orgScope } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import type { ViewerContext } from '../../lib/service-context';
import { isoOrNull } from '../../../domain/dates';

const summaryColumns = {
  batch: donationBatches,
  organizationName: organizations.name,
  collectionsDonorId: organizations.collectionsDonorId,
  // A slip may mix methods (a line's own): read over the batch's lines (donations_batch_idx). An
  // older line with no method of its own was paid as the slip.
  lineMethods: sql<
    string | null
  >`(select group_concat(distinct coalesce(${donations.method}, ${donationBatches.method})) from ${donations} where ${donations.batchId} = ${donationBatches.id})`,
};

/** How the batch's gifts were paid: the slip's method first when a gift was, then the others. */
function methodsOf(slip: BatchMethod, lineMethods: string | null): BatchMethod[] {
  const paid = (lineMethods ?? '')
    .split(',')
    .filter((m): m is BatchMethod => (BATCH_METHODS as readonly string[]).includes(m));
  if (!paid.length) return [slip];
  const others = paid.filter((m) => m !== slip).sort();
  return paid.includes(slip) ? [slip, ...others] : others;
}

function toSummary(row: {
  batch: typeof donationBatches.$inferSelect;
  organizationName: string;
  lineMethods: string | null;
}): BatchSummaryDto {
  const b = row.batch;
  return {
    _id: b.id,
    organization_id: b.organizationId,
    organization_name: row.organizationName,
    method: b.method,
    methods: methodsOf(b.method, row.lineMethods),
    banked_on: b.bankedOn,
    reference: b.reference,
    expected_total: b.expectedTotal,
    gift_count: b.giftCount,
    created_by: b.createdBy,
    created_at: b.createdAt.toISOString(),
  };
}

/** Batches of the organizations the viewer reads money in (deny by default). */
function scopeCondition(viewer: AuthUser): SQL | undefined | false {
  const scope = orgScope(viewer);
  if (scope === 'all') return undefined;
  return scope.length ? inArray(donationBatches.organizationId, scope) : false;
}

export async function listBatches(
  ctx: ViewerContext,
  options: { organizationId?: string; limit: number; offset: number },
): Promise<{ rows: BatchSummaryDto[]; total: number }> {
  const { db, viewer } = ctx;
  const scope = scopeCondition(viewer);
  if (scope === false) return { rows: [], total: 0 };
  const where = and(
    scope,
    options.organizationId ? eq(donationBatches.organizationId, options.organizationId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(summaryColumns)
      .from(donationBatches)
      .innerJoin(organizations, eq(organizations.id, donationBatches.organizationId))
      .where(where)
      .orderBy(desc(donationBatches.bankedOn), desc(donationBatches.createdAt), desc(donationBatches.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(donationBatches).where(where),
  ]);
  return { rows: rows.map(toSummary), total: Number(total?.n ?? 0) };
}

/** One batch with its lines in entry order, or null when it does not exist or is outside the viewer's scope. */
export async function getBatch(ctx: ViewerContext, idRef: string): Promise<BatchDto | null> {
  const { db, viewer } = ctx;
  const id = parseId(idRef);
  const scope = scopeCondition(viewer);
  if (!id || scope === false) return null;
  const [row] = await db
    .select(summaryColumns)
    .from(donationBatches)
    .innerJoin(organizations, eq(organizations.id, donationBatches.organizationId))
    .where(and(eq(donationBatches.id, id), scope))
    .limit(1);
  if (!row) return null;
  const lines = await db
    .select({
      gift: donations,
      ...donorNameColumns,
      campaignTitle: campaigns.title,
      campaignKind: campaigns.kind,
    })
    .from(donations)
    .innerJoin(users, donorOfGift)
    .innerJoin(campaigns, campaignOfGift)
    .where(eq(donations.batchId, id))
    .orderBy(asc(donations.createdAt), asc(donations.id));
  return {
    ...toSummary(row),
    gifts: lines.map((line, index) => ({
      _id: line.gift.id,
      line: index + 1,
      donor_id: line.gift.donorId,
      donor_name: `${line.firstName} ${line.lastName}`.trim(),
      amount: line.gift.amount,
      refunded_amount: line.gift.refundedAmount,
      status: line.gift.status,
      campaign_id: line.gift.campaignId,
      campaign_title: line.campaignKind === 'general_fund' ? 'General fund' : line.campaignTitle,
      general_fund: line.campaignKind === 'general_fund',
      appeal_id: line.gift.appealId,
      gift_aid: line.gift.giftAid,
      benefit_exceeds_limit: line.gift.benefitExceedsLimit,
      reference: line.gift.reference,
      method: (line.gift.method ?? row.batch.method) as BatchMethod,
      // A collection is a line of the organization's collections donor (decision 081).
      collection: line.gift.donorId === row.collectionsDonorId,
      receipt_sent_at: isoOrNull(line.gift.receiptSentAt),
    })),
  };
}
