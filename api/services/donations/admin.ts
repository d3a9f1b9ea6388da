import { and, desc, eq, gte, inArray, isNull, lt, lte, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { parseId } from '../../../db/ids';
import { campaigns, donations, users } from '../../../db/schema';
import { badRequest, forbidden, HttpError, notFound } from '../../lib/errors';
import { isDonor, orgScope, readsFinance } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import { canManageOrganization, type Page } from '../organizations/manage';
import type { DonationFilters } from '../reports/list-filters';
import { londonMidnight, nextDay } from '../../../domain/dates';
import { MAX_DONATION_PENCE, MIN_DONATION_PENCE } from '../../../domain';
import { isGiftAidClaimed } from '../gift-aid/claims';
import { getUser } from '../users/manage';
import { actorOf, auditInsert, changedFields } from '../audit/append';
import type { OfflineGiftInput } from '../../schemas/gift-aid';
import type { DonationDto } from '../../schemas';
import { PAID_DONATION_STATUSES } from '../../../domain/statuses';

/** Manual gifts follow the same bounds as card gifts. */
const MANUAL_MIN_PENCE = MIN_DONATION_PENCE;
const MANUAL_MAX_PENCE = MAX_DONATION_PENCE;

export type DonationInput = {
  donor?: string;
  amount?: number;
  /** `YYYY-MM-DD` or a full ISO timestamp. */
  date?: string;
  campaign?: string;
  appeal?: string | null;
} & OfflineGiftInput;

const campaign = alias(campaigns, 'campaign');
const appeal = alias(campaigns, 'appeal');

const donationColumns = {
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

function toDonationDto(r: DonationRow): DonationDto {
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
    payment_method: r.row.paymentMethod,
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

function sortParts(f: Partial<DonationFilters>) {
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

/** Where the last page ended: its sort value, date and rowid. */
export type DonationCursor = { key: string | number; date: number; rowid: number };

/**
 * Keyset paging for exports: each page starts after the previous page's last row, so a 30,000-row
 * export reads each row once instead of walking every earlier page again (OFFSET).
 */
export async function donationRowsAfter(
  db: Db,
  where: SQL | undefined,
  filters: Partial<DonationFilters>,
  cursor: DonationCursor | null,
  limit: number,
): Promise<{ rows: DonationRow[]; cursor: DonationCursor | null }> {
  const { key, ascending } = sortParts(filters);
  const rowid = sql`${donations}.rowid`;
  let after: SQL | undefined;
  if (cursor) {
    // Written as a range plus a filter (not one OR), so the index on the sort key can seek to the cursor.
    if (filters.sort === undefined || filters.sort === 'date') {
      after = sql`${donations.date} <= ${cursor.date} and (${donations.date} < ${cursor.date} or ${rowid} < ${cursor.rowid})`;
    } else {
      const range = ascending ? sql`${key} >= ${cursor.key}` : sql`${key} <= ${cursor.key}`;
      after = sql`${range} and (${key} <> ${cursor.key} or ${donations.date} < ${cursor.date} or (${donations.date} = ${cursor.date} and ${rowid} < ${cursor.rowid}))`;
    }
  }
  const rows = await db
    .select({ ...donationColumns, sortKey: sql<string | number>`${key}`, rid: sql<number>`${rowid}` })
    .from(donations)
    .innerJoin(users, eq(users.id, donations.donorId))
    .innerJoin(campaign, eq(campaign.id, donations.campaignId))
    .leftJoin(appeal, eq(appeal.id, donations.appealId))
    .where(and(where, after))
    .orderBy(...donationOrder(filters))
    .limit(limit);
  const last = rows.at(-1);
  return { rows, cursor: last ? { key: last.sortKey, date: last.row.date.getTime(), rowid: Number(last.rid) } : null };
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

/** The dashboard's admin list, newest first unless sorted. The caller has already refused donors. */
export function listDonations(db: Db, viewer: AuthUser, page: Page, filters: Partial<DonationFilters> = {}) {
  return listWhere(db, adminDonationsWhere(viewer, filters), page, filters);
}

/** The signed-in user's own gifts; checkouts still open (pending) or abandoned are left out. */
export function listMyDonations(db: Db, viewer: AuthUser, page: Page) {
  return listWhere(
    db,
    and(eq(donations.donorId, viewer.id), notInArray(donations.status, ['pending', 'abandoned'])),
    page,
  );
}

export type GivingSummary = {
  /** Pence given, net of refunds. */
  total: number;
  /** Gifts that went through (succeeded, or since refunded). */
  count: number;
  monthly: number;
  last_date: string | null;
};

/** The signed-in user's giving, summed in the database so it covers every gift, not one page. */
export async function myGivingSummary(db: Db, viewer: AuthUser): Promise<GivingSummary> {
  const [row] = await db
    .select({
      total: sql<number>`coalesce(sum(${donations.amount} - ${donations.refundedAmount}), 0)`,
      count: sql<number>`count(*)`,
      monthly: sql<number>`coalesce(sum(case when ${donations.type} = 'monthly' then 1 else 0 end), 0)`,
      last: sql<number | null>`max(${donations.date})`,
    })
    .from(donations)
    .where(and(eq(donations.donorId, viewer.id), inArray(donations.status, [...PAID_DONATION_STATUSES])));
  return {
    total: Number(row?.total ?? 0),
    count: Number(row?.count ?? 0),
    monthly: Number(row?.monthly ?? 0),
    last_date: row?.last ? new Date(Number(row.last)).toISOString() : null,
  };
}

async function findVisibleDonation(db: Db, idParam: string, viewer: AuthUser): Promise<DonationRow> {
  const id = parseId(idParam);
  if (!id) throw notFound('Donation Not Found');
  const [row] = await selectDonations(db)
    .where(and(eq(donations.id, id), scopeCondition(viewer)))
    .limit(1);
  if (!row) throw notFound('Donation Not Found');
  return row;
}

export async function getDonation(db: Db, idParam: string, viewer: AuthUser): Promise<DonationDto> {
  return toDonationDto(await findVisibleDonation(db, idParam, viewer));
}

/** A parent campaign (not an appeal, not deleted) inside the viewer's scope. */
async function resolveCampaign(
  db: Db,
  ref: string,
  viewer: AuthUser,
): Promise<{ id: string; organizationId: string | null }> {
  const id = parseId(ref);
  const [row] = id
    ? await db
        .select({ id: campaigns.id, organizationId: campaigns.organizationId })
        .from(campaigns)
        .where(and(eq(campaigns.id, id), isNull(campaigns.campaignId), ne(campaigns.status, 'deleted')))
        .limit(1)
    : [];
  if (!row || !canManageOrganization(viewer, row.organizationId)) {
    throw badRequest('campaign: No campaign with this id that you can record donations for');
  }
  return row;
}

async function resolveAppeal(db: Db, ref: string, campaignId: string): Promise<string> {
  const id = parseId(ref);
  const [row] = id
    ? await db
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(and(eq(campaigns.id, id), eq(campaigns.campaignId, campaignId), ne(campaigns.status, 'deleted')))
        .limit(1)
    : [];
  if (!row) throw badRequest('appeal: Choose an appeal of the selected campaign');
  return row.id;
}

async function resolveDonor(db: Db, ref: string, viewer: AuthUser): Promise<string> {
  try {
    return (await getUser(db, ref, viewer))._id;
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw badRequest('donor: No donor with this id');
    throw error;
  }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const EARLIEST = Date.UTC(2000, 0, 1);
const londonDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** A gift's date: a day (stored at 00:00 UTC) or an instant, not before 2000 nor in the future. */
export function parseDonationDate(value: string, now = new Date()): Date {
  const date = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) throw badRequest('date: Enter a date like 2025-03-31');
  // Date.parse rolls 2025-02-31 over to March 3rd; a day must name itself.
  if (DATE_ONLY.test(value) && date.toISOString().slice(0, 10) !== value) {
    throw badRequest(`date: ${value} is not a real calendar date; enter a date like 2025-03-31`);
  }
  // A day's grace so a gift dated "today" anywhere in the world is accepted.
  if (date.getTime() < EARLIEST || date.getTime() > now.getTime() + 24 * 60 * 60 * 1000) {
    throw badRequest('date: Enter a date between 2000-01-01 and today');
  }
  return date;
}

/** Whether a submitted date names the stored one (same instant, or the same day in UTC or London). */
function sameDate(value: string, stored: Date): boolean {
  if (DATE_ONLY.test(value)) return value === stored.toISOString().slice(0, 10) || value === londonDay.format(stored);
  const parsed = new Date(value);
  return !Number.isNaN(parsed.getTime()) && parsed.getTime() === stored.getTime();
}

function checkAmount(amount: number) {
  if (!Number.isInteger(amount) || amount < MANUAL_MIN_PENCE || amount > MANUAL_MAX_PENCE) {
    throw badRequest(`amount: Enter a whole number of pence from ${MANUAL_MIN_PENCE} to ${MANUAL_MAX_PENCE}`);
  }
}

export type NewManualDonation = {
  donor: string;
  amount: number;
  date: string;
  campaign: string;
  appeal: string;
} & OfflineGiftInput;

/** A gift recorded by hand (cheque, cash): source 'manual', already succeeded. */
export async function createManualDonation(
  db: Db,
  input: NewManualDonation,
  viewer: AuthUser,
  requestId: string | null = null,
): Promise<DonationDto> {
  checkAmount(input.amount);
  const date = parseDonationDate(input.date);
  const { id: campaignId, organizationId } = await resolveCampaign(db, input.campaign, viewer);
  const appealId = await resolveAppeal(db, input.appeal, campaignId);
  const donorId = await resolveDonor(db, input.donor, viewer);
  const id = crypto.randomUUID();
  const values = {
    id,
    amount: input.amount,
    date,
    donorId,
    campaignId,
    appealId,
    status: 'succeeded',
    type: 'once',
    source: 'manual',
    method: input.method ?? null,
    benefitExceedsLimit: input.benefit_exceeds_limit === true,
  } as const;
  await db.batch([
    db.insert(donations).values(values),
    auditInsert(db, actorOf(viewer, requestId), {
      action: 'donation.create',
      targetType: 'donation',
      targetId: id,
      organizationId,
      changes: changedFields(
        {},
        {
          amount: values.amount,
          date: date.toISOString(),
          donorId,
          campaignId,
          appealId,
          source: 'manual',
          method: values.method,
        },
      ),
    }),
  ]);
  return getDonation(db, id, viewer);
}

export async function updateDonation(
  db: Db,
  idParam: string,
  input: DonationInput,
  viewer: AuthUser,
  requestId: string | null = null,
): Promise<DonationDto> {
  const current = await findVisibleDonation(db, idParam, viewer);
  if (isDonor(viewer)) throw forbidden('Only admins and organization admins can edit donations');
  const row = current.row;

  const changed =
    (input.amount !== undefined && input.amount !== row.amount) ||
    (input.date !== undefined && !sameDate(input.date, row.date)) ||
    (input.donor !== undefined &&
      parseId(input.donor) !== row.donorId &&
      !(input.donor === 'me' && viewer.id === row.donorId)) ||
    (input.campaign !== undefined && parseId(input.campaign) !== row.campaignId) ||
    (input.appeal !== undefined && (input.appeal === null ? null : parseId(input.appeal)) !== row.appealId) ||
    (input.method !== undefined && input.method !== row.method) ||
    (input.benefit_exceeds_limit !== undefined && input.benefit_exceeds_limit !== row.benefitExceedsLimit);
  if (row.source !== 'manual') {
    // Card and demo gifts mirror the payment provider: the form may send them back unchanged only.
    if (changed) throw badRequest('Card donations cannot be edited');
    return toDonationDto(current);
  }
  // A gift HMRC has been asked to pay Gift Aid on must keep what the claim says (docs/decisions/017).
  if (changed && (await isGiftAidClaimed(db, row.id))) {
    throw badRequest(
      'This gift is in a Gift Aid claim and cannot be changed; record the correction as a new gift or a refund',
    );
  }

  const changes: Partial<typeof donations.$inferInsert> = {};
  if (input.amount !== undefined) {
    checkAmount(input.amount);
    changes.amount = input.amount;
  }
  if (input.date !== undefined && !sameDate(input.date, row.date)) changes.date = parseDonationDate(input.date);
  const campaignId =
    input.campaign !== undefined ? (await resolveCampaign(db, input.campaign, viewer)).id : row.campaignId;
  if (campaignId !== row.campaignId) changes.campaignId = campaignId;
  const appealRef = input.appeal !== undefined ? input.appeal : row.appealId;
  const appealId = appealRef === null ? null : await resolveAppeal(db, appealRef, campaignId);
  if (appealId !== row.appealId) changes.appealId = appealId;
  if (input.method !== undefined && input.method !== row.method) changes.method = input.method;
  if (input.benefit_exceeds_limit !== undefined && input.benefit_exceeds_limit !== row.benefitExceedsLimit) {
    changes.benefitExceedsLimit = input.benefit_exceeds_limit;
  }
  if (input.donor !== undefined) {
    const donorId = await resolveDonor(db, input.donor, viewer);
    if (donorId !== row.donorId) changes.donorId = donorId;
  }
  const diff = changedFields(row as Record<string, unknown>, changes);
  if (Object.keys(diff).length) {
    await db.batch([
      db.update(donations).set(changes).where(eq(donations.id, row.id)),
      auditInsert(db, actorOf(viewer, requestId), {
        action: 'donation.update',
        targetType: 'donation',
        targetId: row.id,
        organizationId: current.campaignOrganizationId,
        changes: diff,
      }),
    ]);
  }
  return getDonation(db, row.id, viewer);
}
