import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { chunks, MAX_BOUND_PARAMS } from '../../../db/chunks';
import { campaignOfGift, donorNameColumns, donorOfGift, giftOf } from '../../../db/gift-joins';
import { campaigns, donations, organizations, payoutLines, payouts, users } from '../../../db/schema';
import { isoOrNull, londonMidnight, nextDay } from '../../../domain/dates';
import { forbidden, notFound } from '../../lib/errors';
import type { PayoutDetailDto, PayoutDto, PayoutFilters, PayoutLineDto } from '../../schemas/payouts';
import { orgCondition, staffScope, type OrgScope } from '../reports/scope';
import type { ViewerContext } from '../../lib/service-context';
import { INCOME_TYPES, REFUND_TYPES } from './payouts-record';

type PayoutRow = typeof payouts.$inferSelect;

/**
 * A payout is an organization's when all its gifts are (organization_id), and any money reader of
 * an organization with a gift in a mixed payout sees that payout too, with only their own lines.
 */
function visibleTo(scope: OrgScope): SQL | undefined {
  if (scope.all) return undefined;
  const own = orgCondition(scope, sql`${payouts.organizationId}`);
  const lineOf = orgCondition(scope, sql`c.organization_id`);
  return sql`(${own} or exists (select 1 from payout_lines l join donations d on d.id = l.donation_id join campaigns c on c.id = d.campaign_id
    where l.payout_id = ${payouts.id} and ${lineOf}))`;
}

/** A payout's figures over some of its lines: what a reader of a mixed payout's organizations may see. */
type Figures = { amount: number; gross: number; fee: number; refund: number; count: number };

const isIncome = (type: string) => (INCOME_TYPES as readonly string[]).includes(type);
const isRefund = (type: string) => (REFUND_TYPES as readonly string[]).includes(type);

/** The same sums payouts-record stores for the whole payout, over the lines given. */
function figuresOf(lines: { type: string; amount: number; fee: number; net: number }[]): Figures {
  return {
    amount: lines.reduce((sum, l) => sum + l.net, 0),
    gross: lines.filter((l) => isIncome(l.type)).reduce((sum, l) => sum + l.amount, 0),
    fee: lines.reduce((sum, l) => sum + l.fee, 0),
    refund: -lines.filter((l) => isRefund(l.type)).reduce((sum, l) => sum + l.amount, 0),
    count: lines.length,
  };
}

/**
 * The whole payout's figures, or, when the viewer sees only their organizations' lines of a mixed
 * payout, the figures of those lines: the whole would give away the other charities' takings by
 * subtraction.
 */
const toDto = (row: PayoutRow, organizationName: string | null, own?: Figures): PayoutDto => ({
  _id: row.id,
  amount: own ? own.amount : row.amount,
  currency: row.currency,
  status: row.status,
  arrival_date: row.arrivalDate.toISOString(),
  failure_code: row.failureCode,
  failure_message: row.failureMessage,
  gross_pence: own ? own.gross : row.grossPence,
  fee_pence: own ? own.fee : row.feePence,
  refund_pence: own ? own.refund : row.refundPence,
  line_count: own ? own.count : row.lineCount,
  organization_id: row.organizationId,
  organization_name: organizationName,
  demo: row.id.startsWith('po_demo'),
  partial: own !== undefined,
});

const seesWhole = (scope: OrgScope, row: PayoutRow) =>
  scope.all || (row.organizationId !== null && scope.orgIds.includes(row.organizationId));

/** Each listed mixed payout's lines of the viewer's organizations, summed (one query for the page). */
async function ownFigures(db: ViewerContext['db'], scope: OrgScope, payoutIds: string[]) {
  const out = new Map<string, Figures>();
  if (!payoutIds.length || scope.all) return out;
  // In pieces: D1 binds at most 100 values, and a page may hold 200 payouts besides the org ids.
  const pieces = chunks(payoutIds, Math.max(1, MAX_BOUND_PARAMS - scope.orgIds.length));
  const lines = (
    await Promise.all(
      pieces.map((ids) =>
        db
          .select({
            payoutId: payoutLines.payoutId,
            type: payoutLines.type,
            amount: payoutLines.amount,
            fee: payoutLines.fee,
            net: payoutLines.net,
          })
          .from(payoutLines)
          .innerJoin(donations, giftOf(payoutLines))
          .innerJoin(campaigns, campaignOfGift)
          .where(and(inArray(payoutLines.payoutId, ids), orgCondition(scope, sql`${campaigns.organizationId}`))),
      ),
    )
  ).flat();
  for (const id of payoutIds) out.set(id, figuresOf(lines.filter((l) => l.payoutId === id)));
  return out;
}

/** Newest arrival first; ties by id so pages never overlap. */
export async function listPayouts(
  ctx: ViewerContext,
  f: PayoutFilters,
): Promise<{ items: PayoutDto[]; total: number }> {
  const { db, viewer } = ctx;
  const where = and(
    visibleTo(staffScope(viewer, f.organization_id)),
    f.status ? eq(payouts.status, f.status) : undefined,
    f.from ? gte(payouts.arrivalDate, londonMidnight(f.from)) : undefined,
    f.to ? lt(payouts.arrivalDate, londonMidnight(nextDay(f.to))) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select({ payout: payouts, organizationName: organizations.name })
      .from(payouts)
      .leftJoin(organizations, eq(organizations.id, payouts.organizationId))
      .where(where)
      .orderBy(desc(payouts.arrivalDate), asc(payouts.id))
      .limit(f.limit)
      .offset(f.offset),
    db.select({ n: sql<number>`count(*)` }).from(payouts).where(where),
  ]);
  const scope = staffScope(viewer, f.organization_id);
  const mixed = rows.filter((r) => !seesWhole(scope, r.payout)).map((r) => r.payout.id);
  const own = await ownFigures(db, scope, mixed);
  return {
    items: rows.map((r) => toDto(r.payout, r.organizationName, own.get(r.payout.id))),
    total: Number(count?.n ?? 0),
  };
}

/** One payout with its lines: all of them for admins and its own organization, else the viewer's. */
export async function payoutDetail(ctx: ViewerContext, id: string): Promise<PayoutDetailDto> {
  const { db, viewer } = ctx;
  const scope = staffScope(viewer);
  const [found] = await db
    .select({ payout: payouts, organizationName: organizations.name })
    .from(payouts)
    .leftJoin(organizations, eq(organizations.id, payouts.organizationId))
    .where(eq(payouts.id, id))
    .limit(1);
  if (!found) throw notFound('No payout with this id');
  const whole = seesWhole(scope, found.payout);
  const rows = await db
    .select({
      line: payoutLines,
      ...donorNameColumns,
      campaignTitle: campaigns.title,
      organizationId: campaigns.organizationId,
    })
    .from(payoutLines)
    .leftJoin(donations, giftOf(payoutLines))
    .leftJoin(users, donorOfGift)
    .leftJoin(campaigns, campaignOfGift)
    .where(eq(payoutLines.payoutId, id))
    .orderBy(asc(payoutLines.availableOn), asc(payoutLines.balanceTransactionId));
  const shown = whole
    ? rows
    : rows.filter((r) => r.organizationId !== null && !scope.all && scope.orgIds.includes(r.organizationId));
  if (!whole && !shown.length) throw forbidden('This payout holds no gifts of your organizations');
  const lines = shown.map(
    (r): PayoutLineDto => ({
      balance_transaction_id: r.line.balanceTransactionId,
      type: r.line.type,
      source_id: r.line.sourceId,
      donation_id: r.line.donationId,
      donor_name: r.firstName !== null ? `${r.firstName} ${r.lastName ?? ''}`.trim() : null,
      campaign_title: r.campaignTitle,
      amount: r.line.amount,
      fee: r.line.fee,
      net: r.line.net,
      available_on: isoOrNull(r.line.availableOn),
    }),
  );
  return {
    ...toDto(found.payout, found.organizationName, whole ? undefined : figuresOf(lines)),
    lines,
    lines_net: lines.reduce((sum, l) => sum + l.net, 0),
  };
}
