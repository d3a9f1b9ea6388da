import { and, desc, eq, inArray, gte, lt, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { campaigns, donations, users } from '../../../db/schema';
import { londonMidnight, nextDay } from '../../../domain/dates';
import type { PaymentMethod } from '../../../domain/finance';
import { PAID_DONATION_STATUSES } from '../../../domain/statuses';
import { notFound } from '../../lib/errors';
import { orgScope, readsFinance } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import type { DonationDto } from '../../schemas';
import type { Page } from '../organizations/manage';
import type { DonationFilters } from '../reports/list-filters';
import type { ViewerContext } from '../../lib/service-context';

/** The donations lists: the staff list (scope, filters, sort, paging), a donor's own gifts, one gift. */

export const campaign = alias(campaigns, 'campaign');
export const appeal = alias(campaigns, 'appeal');

export const donationColumns = {
  row: donations,
  donorFirstName: users.firstName,
  donorLastName: users.lastName,
  donorEmail: users.email,
  campaignTitle: campaign.title,
  campaignOrganizationId: campaign.organizationId,
  appealTitle: appeal.title,
};

export type DonationRow = {
  row: typeof donations.$inferSelect;
  donorFirstName: string;
  donorLastName: string;
  donorEmail: string;
  campaignTitle: string;
  campaignOrganizationId: string | null;
  appealTitle: string | null;
};

/**
 * How a gift was paid: the method recorded with it (cheque, cash… for the office's gifts), else the
 * provider's (card for rows from before methods were recorded); null for a hand-recorded gift without one.
 */
export function paidBy(row: Pick<DonationRow['row'], 'method' | 'paymentMethod' | 'source'>): PaymentMethod | null {
  return row.method ?? (row.source === 'manual' ? null : row.paymentMethod);
}

export function toDonationDto(r: DonationRow): DonationDto {
  const name = `${r.donorFirstName} ${r.donorLastName}`.trim();
  return {
    _id: r.row.id,
    amount: r.row.amount,
    refunded_amount: r.row.refundedAmount,
    date: r.row.date.toISOString(),
    status: r.row.status,
    type: r.row.type,
    gift_aid: r.row.giftAid,
    source: r.row.source,
    payment_method: paidBy(r.row),
    bank_last4: r.row.bankLast4,
    subscription_id: r.row.subscriptionId,
    donor: { label: name || r.donorEmail, value: r.row.donorId },
    campaign: { label: r.campaignTitle, value: r.row.campaignId },
    appeal: r.row.appealId ? { label: r.appealTitle ?? '', value: r.row.appealId } : null,
  };
}

function selectDonations(db: Db) {
  return db
    .select(donationColumns)
    .from(donations)
    .innerJoin(users, eq(users.id, donations.donorId))
    .innerJoin(campaign, eq(campaign.id, donations.campaignId))
    .leftJoin(appeal, eq(appeal.id, donations.appealId));
}

/** Admins see every donation, org_admins and finance those to their organizations' campaigns, donors their own. */
function scopeCondition(viewer: AuthUser): SQL | undefined {
  if (!readsFinance(viewer)) return eq(donations.donorId, viewer.id);
  const scope = orgScope(viewer);
  if (scope === 'all') return undefined;
  return scope.length ? inArray(campaign.organizationId, scope) : sql`0`;
}

/** The admin list's filters as one condition (all optional; dates are London days, inclusive). */
export function donationFilterCondition(f: Partial<DonationFilters>): SQL | undefined {
  const term = f.search ? f.search.toLowerCase() : null;
  return and(
    // instr(), not LIKE: D1 refuses LIKE patterns over 50 bytes ("LIKE or GLOB pattern too complex").
    term
      ? or(
          sql`instr(lower(${users.firstName} || ' ' || ${users.lastName}), ${term}) > 0`,
          sql`instr(lower(${users.email}), ${term}) > 0`,
        )
      : undefined,
    f.donor_id ? eq(donations.donorId, f.donor_id) : undefined,
    f.campaign_id ? eq(donations.campaignId, f.campaign_id) : undefined,
    f.appeal_id ? eq(donations.appealId, f.appeal_id) : undefined,
    f.status ? eq(donations.status, f.status) : undefined,
    f.type ? eq(donations.type, f.type) : undefined,
    f.date_from ? gte(donations.date, londonMidnight(f.date_from)) : undefined,
    f.date_to ? lt(donations.date, londonMidnight(nextDay(f.date_to))) : undefined,
    f.amount_min !== undefined ? gte(donations.amount, f.amount_min) : undefined,
    f.amount_max !== undefined ? lte(donations.amount, f.amount_max) : undefined,
  );
}

export function sortParts(f: Partial<DonationFilters>) {
  const ascending =
    (f.order ?? (f.sort === undefined || f.sort === 'date' || f.sort === 'amount' ? 'desc' : 'asc')) === 'asc';
  const key: Record<NonNullable<DonationFilters['sort']>, SQL> = {
    date: sql`${donations.date}`,
    amount: sql`${donations.amount}`,
    donor: sql`lower(${users.firstName} || ' ' || ${users.lastName})`,
    campaign: sql`lower(${campaign.title})`,
    status: sql`${donations.status}`,
  };
  return { key: key[f.sort ?? 'date'], ascending };
}

/**
 * Server-side sort; newest first by default, ties broken by date then rowid (unique and stable) so
 * pages never overlap, and the default order walks donations_date_idx (date, rowid) with no sort step.
 */
export function donationOrder(f: Partial<DonationFilters>): SQL[] {
  const { key, ascending } = sortParts(f);
  const first = ascending ? sql`${key} asc` : sql`${key} desc`;
  return f.sort === undefined || f.sort === 'date'
    ? [first, sql`${donations}.rowid desc`]
    : [first, desc(donations.date), sql`${donations}.rowid desc`];
}

/** One page of rows with everything an export needs (payment references included). */
export function donationRows(
  db: Db,
  where: SQL | undefined,
  filters: Partial<DonationFilters>,
  page: Page,
): Promise<DonationRow[]> {
  return selectDonations(db)
    .where(where)
    .orderBy(...donationOrder(filters))
    .limit(page.limit)
    .offset(page.offset);
}

async function listWhere(
  db: Db,
  where: SQL | undefined,
  page: Page,
  filters: Partial<DonationFilters> = {},
): Promise<{ items: DonationDto[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    donationRows(db, where, filters, page),
    db
      .select({ n: sql<number>`count(*)` })
      .from(donations)
      .innerJoin(users, eq(users.id, donations.donorId))
      .innerJoin(campaign, eq(campaign.id, donations.campaignId))
      .where(where),
  ]);
  return { items: rows.map(toDonationDto), total: Number(count?.n ?? 0) };
}

/** The admin list's scope and filters together: what the list, its total and its export read. */
export function adminDonationsWhere(viewer: AuthUser, filters: Partial<DonationFilters>): SQL | undefined {
  return and(scopeCondition(viewer), donationFilterCondition(filters));
}

/** What the gifts a staff list shows add up to, over every page: only paid gifts count (pence). */
export type DonationSums = { paid: number; received: number; refunded: number };

/**
 * The dashboard's admin list, newest first unless sorted, with the sums of the whole filtered list
 * (a finance officer checks a month's gifts against the bank without exporting them). The caller
 * has already refused donors.
 */
export async function listDonations(
  ctx: ViewerContext,
  page: Page,
  filters: Partial<DonationFilters> = {},
): Promise<{ items: DonationDto[]; total: number; sums: DonationSums }> {
  const { db, viewer } = ctx;
  const where = adminDonationsWhere(viewer, filters);
  const isPaid = inArray(donations.status, [...PAID_DONATION_STATUSES]);
  const [rows, [count]] = await Promise.all([
    donationRows(db, where, filters, page),
    db
      .select({
        n: sql<number>`count(*)`,
        paid: sql<number>`coalesce(sum(case when ${isPaid} then 1 else 0 end), 0)`,
        received: sql<number>`coalesce(sum(case when ${isPaid} then ${donations.amount} else 0 end), 0)`,
        refunded: sql<number>`coalesce(sum(case when ${isPaid} then ${donations.refundedAmount} else 0 end), 0)`,
      })
      .from(donations)
      .innerJoin(users, eq(users.id, donations.donorId))
      .innerJoin(campaign, eq(campaign.id, donations.campaignId))
      .where(where),
  ]);
  return {
    items: rows.map(toDonationDto),
    total: Number(count?.n ?? 0),
    sums: {
      paid: Number(count?.paid ?? 0),
      received: Number(count?.received ?? 0),
      refunded: Number(count?.refunded ?? 0),
    },
  };
}

/** The signed-in user's own gifts; checkouts still open (pending) or abandoned are left out. */
export function listMyDonations(ctx: ViewerContext, page: Page) {
  const { db, viewer } = ctx;
  return listWhere(
    db,
    and(eq(donations.donorId, viewer.id), notInArray(donations.status, ['pending', 'abandoned'])),
    page,
  );
}

/** One gift the viewer may see (staff in their scope, a donor their own), or 404. */
export async function findVisibleDonation(db: Db, idParam: string, viewer: AuthUser): Promise<DonationRow> {
  const id = parseId(idParam);
  if (!id) throw notFound('Donation Not Found');
  const [row] = await selectDonations(db)
    .where(and(eq(donations.id, id), scopeCondition(viewer)))
    .limit(1);
  if (!row) throw notFound('Donation Not Found');
  return row;
}

/** A gift and its campaign's organization, or null: whoever asks decides whether the viewer may act on it. */
export async function findGiftWithOrganization(db: Db, idParam: string) {
  const id = parseId(idParam);
  if (!id) return null;
  const [row] = await db
    .select({ gift: donations, organizationId: campaigns.organizationId })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(eq(donations.id, id))
    .limit(1);
  return row ?? null;
}

export async function getDonation(ctx: ViewerContext, idParam: string): Promise<DonationDto> {
  return toDonationDto(await findVisibleDonation(ctx.db, idParam, ctx.viewer));
}
