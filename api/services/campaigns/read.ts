import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, or, type Placeholder, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { type IdValue, preparedRead } from '../../../db/prepared';
import { parseId, toShortId } from '../../../domain/ids';
import { type CampaignStatus, campaignSearch, campaigns, campaignTotals } from '../../../db/schema';
import {
  canEditCampaign,
  canManageOrganization,
  isAdmin,
  isOrgAdmin,
  isStaff,
  setsNominalCodes,
} from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import { totalsColumns, totalsJoin } from './totals';
import { MAX_PAGE_SIZE } from '../../../domain/limits';
import { searchMatch } from '../../../domain/search';
import type { ServiceContext } from '../../lib/service-context';
import type { Campaign } from '../../schemas';

export { MAX_PAGE_SIZE };
export const DEFAULT_PAGE_SIZE = 30;

/** An appeal's parent campaign, joined so that lists can hide appeals of hidden campaigns. */
const parent = alias(campaigns, 'parent');

const campaignColumns = {
  row: campaigns,
  // Kept on the row from the creator's account by triggers (migration 0017): no join per listed item.
  // Named apart from the row's own columns: D1's batch maps columns by name.
  creatorFirstName: sql<string | null>`${campaigns.creatorFirstName}`.as('creator_first'),
  creatorLastName: sql<string | null>`${campaigns.creatorLastName}`.as('creator_last'),
  // An appeal opens and ends with its campaign (docs/decisions/059, 056) and takes gifts only while it
  // is approved (066): every query of these columns joins `parent`. A list of one campaign's appeals
  // reads them once instead (columnsOfChildren). The dates and status ride in one JSON array so that
  // list needs one subquery, not three (rows read, decision 041).
  parentFacts: sql<string | null>`json_array(${parent.dateFrom}, ${parent.dateTo}, ${parent.status})`.as(
    'parent_facts',
  ),
  // Stored running totals (api/services/totals.ts): one primary-key join, whatever the number of gifts.
  totalDonations: totalsColumns.totalDonations,
  donationCount: totalsColumns.donationCount,
  giftAidTotal: totalsColumns.giftAidTotal,
};

type CampaignRow = {
  row: typeof campaigns.$inferSelect;
  creatorFirstName: string | null;
  creatorLastName: string | null;
  /** The parent campaign's `[date_from, date_to, status]` as JSON (see campaignColumns). */
  parentFacts: string | null;
  totalDonations: number;
  donationCount: number;
  giftAidTotal?: number;
};

/**
 * The contract's campaign: `can_edit` is answered to signed-in callers only, whether they may edit the
 * item; `income_code` (the fund's nominal code) only to those who may set it.
 */
export type CampaignDto = Campaign;

/** The fund's income code, added for a viewer who may set it (its organization's admins and finance users). */
function withIncomeCode<T extends object>(dto: T, row: typeof campaigns.$inferSelect, viewer: AuthUser | null) {
  return viewer && setsNominalCodes(viewer, row.organizationId) ? { ...dto, income_code: row.incomeCode } : dto;
}

/** The item as this caller sees it: a signed-in caller also learns whether they may edit it. */
function dtoFor(row: CampaignRow, viewer: AuthUser | null): CampaignDto {
  const dto = toCampaignDto(row);
  return viewer ? withIncomeCode({ ...dto, can_edit: canEditCampaign(viewer, row.row) }, row.row, viewer) : dto;
}

/** The API shape of a campaign or appeal (spec section 3); money in pence. */
export function toCampaignDto({
  row,
  creatorFirstName,
  creatorLastName,
  parentFacts,
  totalDonations,
  donationCount,
  giftAidTotal,
}: CampaignRow): CampaignDto {
  const [parentDateFrom, parentDateTo, parentStatus] = parentFacts
    ? (JSON.parse(parentFacts) as [string | null, string | null, CampaignStatus])
    : [];
  return {
    _id: row.id,
    short_id: toShortId(row.id),
    kind: row.campaignId ? 'appeal' : 'campaign',
    title: row.title,
    description: row.description,
    story: row.story,
    video: row.video,
    date: { from: row.dateFrom, to: row.dateTo },
    campaign_date_from: row.campaignId ? (parentDateFrom ?? null) : null,
    campaign_date_to: row.campaignId ? (parentDateTo ?? null) : null,
    campaign_status: row.campaignId ? (parentStatus ?? null) : null,
    goal: row.goal,
    images: row.images.map((image) => ({ ...image, url: imageUrl(image.Key) })),
    organization_id: row.organizationId,
    campaign_id: row.campaignId,
    status: row.status,
    sponsored_event: row.sponsoredEvent,
    created_by: { first_name: creatorFirstName ?? '', last_name: creatorLastName ?? '' },
    summary: {
      total_donations: Number(totalDonations),
      donation_count: Number(donationCount),
      gift_aid: Number(giftAidTotal ?? 0),
    },
    created_at: row.createdAt.toISOString(),
  };
}

/** Stored keys are served by the worker; seeded demo images are static files (absolute paths). */
export function imageUrl(key: string): string {
  return key.startsWith('/') || key.startsWith('http')
    ? key
    : `/api/images/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * What a viewer may see in a list: anonymous callers and donors only approved items; admins any
 * status they ask for; org admins approved items, or other statuses within their own organizations.
 */
function statusCondition(viewer: AuthUser | null, status: CampaignStatus | 'all' | undefined): SQL | undefined {
  const requested = status ?? 'approved';
  const statuses: CampaignStatus[] = requested === 'all' ? ['draft', 'approved'] : [requested];
  if (isAdmin(viewer)) return inArray(campaigns.status, statuses);
  if (viewer && isOrgAdmin(viewer)) {
    const own = viewer.orgIds.length ? inArray(campaigns.organizationId, viewer.orgIds) : sql`0`;
    const visible = or(eq(campaigns.status, 'approved'), own);
    return and(inArray(campaigns.status, statuses), visible);
  }
  return eq(campaigns.status, 'approved');
}

/**
 * The viewer's own items: drafts and live ones by default (a fundraiser follows an appeal waiting
 * for approval); deleted ones only where the viewer could see them anyway.
 */
function mineCondition(viewer: AuthUser | null, status: CampaignStatus | 'all' | undefined): SQL {
  if (!viewer) return sql`0`;
  const requested = status ?? 'all';
  const statuses: CampaignStatus[] = requested === 'all' ? ['draft', 'approved'] : [requested];
  return and(
    eq(campaigns.createdBy, viewer.id),
    inArray(campaigns.status, statuses),
    or(ne(campaigns.status, 'deleted'), statusCondition(viewer, 'deleted')),
  ) as SQL;
}

/** Whether a viewer may see a parent campaign's appeals: admins always, org admins their own, others approved. */
function parentCondition(viewer: AuthUser | null, parentId?: IdValue): SQL | undefined {
  if (isAdmin(viewer)) return undefined;
  if (seesPublicLists(viewer)) {
    // One parent named: it is looked up once (one row), whatever the number of its appeals.
    // (An IN list is built once per statement; an EXISTS here was asked again for every row.)
    if (parentId !== undefined)
      return sql`${campaigns.campaignId} in (select "id" from "campaigns" where "id" = ${parentId} and "campaign_id" is null and "status" = 'approved')`;
    // The approved campaigns are looked up once (a handful, by index), not each row's parent: the
    // parent join then goes unused and SQLite leaves it out, a row read less per listed appeal.
    return or(
      isNull(campaigns.campaignId),
      sql`${campaigns.campaignId} in (select "id" from "campaigns" where "campaign_id" is null and "status" = 'approved')`,
      createdBy(viewer),
    );
  }
  const own =
    viewer && isOrgAdmin(viewer) && viewer.orgIds.length ? inArray(parent.organizationId, viewer.orgIds) : undefined;
  return or(isNull(campaigns.campaignId), eq(parent.status, 'approved'), own, createdBy(viewer));
}

/**
 * An appeal's creator still sees it when its campaign is taken down (My Appeals, where the email of
 * decision 066 sends them), with `campaign_status` saying why it is off the site.
 */
const createdBy = (viewer: AuthUser | null) => (viewer ? eq(campaigns.createdBy, viewer.id) : undefined);

function canSeeAppealsOf(
  parentRow: { status: CampaignStatus; organizationId: string | null },
  viewer: AuthUser | null,
): boolean {
  return parentRow.status === 'approved' || canManageOrganization(viewer, parentRow.organizationId);
}

export type ListOptions = {
  kind: 'campaign' | 'appeal';
  /** The parent campaign's id, or a subquery giving it (campaignIdOfAppeal). */
  parentId?: IdValue;
  status?: CampaignStatus | 'all';
  /** At most this many (1 to MAX_PAGE_SIZE), or a placeholder of a prepared read (db/prepared.ts). */
  limit?: number | Placeholder;
  /** Rows to skip, or a placeholder of a prepared read. */
  offset?: number | Placeholder;
  viewer: AuthUser | null;
  excludeId?: IdValue;
  /** Only the items the viewer created (their own appeals, drafts included). */
  mine?: boolean;
};

/**
 * The columns of one campaign's appeals: their campaign's start and end dates are read once (an
 * uncorrelated subquery, which SQLite evaluates a single time), not through the join for every
 * listed appeal, so a detail page's list costs the same rows at 3 appeals as at 12.
 */
function columnsOfChildren(parentId: IdValue) {
  return {
    ...campaignColumns,
    parentFacts: sql<
      string | null
    >`(select json_array("date_from", "date_to", "status") from "campaigns" where "id" = ${parentId})`.as(
      'parent_facts',
    ),
  };
}

/** The query behind listCampaigns, for callers that send it in one db.batch with others. */
export function listCampaignsQuery(db: Db, options: ListOptions) {
  const limit = typeof options.limit === 'object' ? options.limit : pageLimit(options.limit);
  return (
    db
      .select(options.parentId === undefined ? campaignColumns : columnsOfChildren(options.parentId))
      .from(campaigns)
      .leftJoin(campaignTotals, totalsJoin)
      .leftJoin(parent, eq(parent.id, campaigns.campaignId))
      .where(and(...listConditions(options)))
      // Open ones first, then those still to open, then the ended (decision 071); newest first in each.
      .orderBy(asc(campaigns.listPhase), desc(campaigns.createdAt), asc(campaigns.id))
      .limit(limit)
      .offset(typeof options.offset === 'object' ? options.offset : Math.max(options.offset ?? 0, 0))
  );
}

export type SearchOptions = {
  kind: 'campaign' | 'appeal';
  /** A campaign's id (UUID): only its appeals. */
  parentId?: string;
  /** What the visitor typed; it must have a word to look for (searchMatch not null). */
  search: string;
  limit?: number;
  offset?: number;
};

/**
 * The search index's MATCH for a public list (decision 072): the visitor's words, in that list. The
 * index holds exactly what the public lists show, so nothing else filters the rows it names.
 */
function publicSearchMatch({ kind, parentId, search }: Omit<SearchOptions, 'limit' | 'offset'>): string {
  const words = searchMatch(search);
  if (words === null) throw new Error('a search needs a word to look for');
  const list =
    kind === 'campaign' ? 'campaign' : parentId ? `"c${parentId.replaceAll('-', '').toLowerCase()}"` : 'appeal';
  return `list : ${list} AND ${words}`;
}

/** The search index's rows matching a public list's search (their rowids are the campaigns rows'). */
function searchMatches(db: Db, options: Omit<SearchOptions, 'limit' | 'offset'>) {
  return db
    .select({ rowid: sql<number>`"rowid"`.as('match_rowid') })
    .from(campaignSearch)
    .where(sql`"campaign_search" match ${publicSearchMatch(options)}`)
    .$dynamic();
}

/**
 * One page of a public list's search, newest first: the page's rowids from the search index, then
 * each row by rowid. CROSS JOIN keeps that order in SQLite (as an inner join the planner walked the
 * whole list's index instead), so a page reads its own rows however many items match.
 */
export function searchCampaignsQuery(db: Db, options: SearchOptions) {
  const page = searchMatches(db, options)
    .orderBy(sql`"rowid" desc`)
    .limit(pageLimit(options.limit))
    .offset(Math.max(options.offset ?? 0, 0))
    .as('matches');
  return db
    .select(options.parentId === undefined ? campaignColumns : columnsOfChildren(options.parentId))
    .from(page)
    .crossJoin(campaigns)
    .leftJoin(campaignTotals, totalsJoin)
    .leftJoin(parent, eq(parent.id, campaigns.campaignId))
    .where(sql`"campaigns"."rowid" = "matches"."match_rowid"`)
    .orderBy(sql`"campaigns"."rowid" desc`);
}

/** A page of a public list's search as the API answers it (`viewer`: can_edit and the like). */
export async function searchCampaigns(db: Db, options: SearchOptions & { viewer: AuthUser | null }) {
  return (await searchCampaignsQuery(db, options)).map((row) => dtoFor(row, options.viewer));
}

/**
 * A search counts at most this many matches (3 pages of 12): the index hands over one row per match,
 * so counting every match of a word in a thousand titles would read a thousand rows.
 */
export const SEARCH_COUNT_CAP = 36;

/** How many items a public list's search finds, up to SEARCH_COUNT_CAP + 1 (more than the cap). */
export function countSearchQuery(db: Db, options: Omit<SearchOptions, 'limit' | 'offset'>) {
  const matches = searchMatches(db, options)
    .limit(SEARCH_COUNT_CAP + 1)
    .as('matches');
  return db.select({ n: sql<number>`count(*)` }).from(matches);
}

const pageLimit = (limit: number | undefined) => Math.min(Math.max(limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);

/** Anyone but staff sees the same lists: approved items, appeals only under approved campaigns. */
const seesPublicLists = (viewer: AuthUser | null) => !isStaff(viewer);

const ID = sql.placeholder('id');
const PARENT_ID = sql.placeholder('parentId');
const LIMIT = sql.placeholder('limit');
const OFFSET = sql.placeholder('offset');

type PublicListOptions = { kind: 'campaign' | 'appeal'; parentId?: string; limit?: number; offset?: number };

/**
 * The list anyone but staff sees (approved items, appeals only under approved campaigns), prepared
 * once per database (db/prepared.ts): a request binds the campaign, page size and offset. For a
 * db.batch or awaited alone; the rows go through toCampaignDto.
 */
export function preparedPublicList(db: Db, { kind, parentId, limit, offset }: PublicListOptions) {
  const build = () =>
    listCampaignsQuery(db, {
      kind,
      parentId: parentId ? PARENT_ID : undefined,
      viewer: null,
      limit: LIMIT,
      offset: OFFSET,
    });
  const values = { parentId: parentId ?? null, limit: pageLimit(limit), offset: Math.max(offset ?? 0, 0) };
  return preparedRead(db, `campaigns:public-list:${kind}:${parentId ? 'of-campaign' : 'all'}`, build, values);
}

/**
 * How many items preparedPublicList pages through (one row, `n`), prepared the same way. Appeals
 * are counted from the approved campaigns' stored `approved_appeal_count` (kept by triggers,
 * migration 0017): a handful of rows read however many appeals there are.
 */
export function preparedPublicCount(db: Db, { kind, parentId }: Pick<PublicListOptions, 'kind' | 'parentId'>) {
  const build = () =>
    kind === 'appeal'
      ? publicAppealCountQuery(db, parentId ? PARENT_ID : undefined)
      : countCampaignsQuery(db, { kind, parentId: parentId ? PARENT_ID : undefined, viewer: null });
  return preparedRead(db, `campaigns:public-count:${kind}:${parentId ? 'of-campaign' : 'all'}`, build, {
    parentId: parentId ?? null,
  });
}

/** The public appeals' count: approved appeals under approved campaigns (of one campaign, with parentId). */
function publicAppealCountQuery(db: Db, parentId?: IdValue) {
  return db
    .select({ n: sql<number>`coalesce(sum(${campaigns.approvedAppealCount}), 0)` })
    .from(campaigns)
    .where(
      and(
        isNull(campaigns.campaignId),
        eq(campaigns.status, 'approved'),
        parentId === undefined ? undefined : eq(campaigns.id, parentId),
      ),
    );
}

export async function listCampaigns(db: Db, options: ListOptions): Promise<CampaignDto[]> {
  const { kind, parentId, limit, offset, viewer, excludeId, mine } = options;
  // The public lists every visitor's browser asks for run prepared.
  if (
    !mine &&
    seesPublicLists(viewer) &&
    typeof parentId !== 'object' &&
    excludeId === undefined &&
    typeof limit !== 'object' &&
    typeof offset !== 'object'
  ) {
    return (await preparedPublicList(db, { kind, parentId, limit, offset })).map((row) => dtoFor(row, viewer));
  }
  return (await listCampaignsQuery(db, options)).map((row) => dtoFor(row, viewer));
}

function listConditions(options: Omit<ListOptions, 'limit' | 'offset'>): (SQL | undefined)[] {
  return [
    options.kind === 'campaign' ? isNull(campaigns.campaignId) : isNotNull(campaigns.campaignId),
    // An organization's general fund is a row for the accounts, not something to give to or browse.
    eq(campaigns.kind, 'campaign'),
    options.parentId ? eq(campaigns.campaignId, options.parentId) : undefined,
    options.mine ? mineCondition(options.viewer, options.status) : statusCondition(options.viewer, options.status),
    parentCondition(options.viewer, options.parentId),
    options.excludeId ? sql`${campaigns.id} <> ${options.excludeId}` : undefined,
  ];
}

/** How many items a list has (same filters as listCampaigns), for pagination. */
export async function countCampaigns(db: Db, options: Omit<ListOptions, 'limit' | 'offset'>): Promise<number> {
  const [row] = await countCampaignsQuery(db, options);
  return Number(row?.n ?? 0);
}

/** The query behind countCampaigns (one row, `n`), for a db.batch with the list itself. */
export function countCampaignsQuery(db: Db, options: Omit<ListOptions, 'limit' | 'offset'>) {
  return db
    .select({ n: sql<number>`count(*)` })
    .from(campaigns)
    .leftJoin(parent, eq(parent.id, campaigns.campaignId))
    .where(and(...listConditions(options)));
}

/** Light list for pickers: approved campaigns' ids and titles. */
export async function listCampaignTitles(db: Db) {
  const rows = await db
    .select({
      _id: campaigns.id,
      title: campaigns.title,
      organization_id: campaigns.organizationId,
      from: campaigns.dateFrom,
      to: campaigns.dateTo,
    })
    .from(campaigns)
    .where(and(isNull(campaigns.campaignId), eq(campaigns.status, 'approved'), eq(campaigns.kind, 'campaign')))
    .orderBy(asc(campaigns.title))
    .limit(500);
  return rows.map(({ from, to, ...row }) => ({ ...row, date: { from: from || null, to: to || null } }));
}

/**
 * One campaign or appeal by UUID, whoever asks: for answering a write its author was allowed to
 * make (with its income code when `viewer` may set it).
 */
export async function loadCampaignDto(db: Db, id: string, viewer: AuthUser | null = null): Promise<CampaignDto | null> {
  const [row] = await db
    .select(campaignColumns)
    .from(campaigns)
    .leftJoin(campaignTotals, totalsJoin)
    .leftJoin(parent, eq(parent.id, campaigns.campaignId))
    .where(eq(campaigns.id, id))
    .limit(1);
  return row ? withIncomeCode(toCampaignDto(row), row.row, viewer) : null;
}

/** One campaign or appeal by UUID or short id, if the viewer may see it. */
export async function getCampaign(
  ctx: Pick<ServiceContext, 'db' | 'viewer'>,
  idOrShort: string,
): Promise<CampaignDto | null> {
  const { db, viewer } = ctx;
  const id = parseId(idOrShort);
  if (!id) return null;
  const [row] = await preparedCampaignById(db, id);
  return visibleCampaignDto(row, viewer);
}

/** The query behind getCampaign (by UUID), for callers that batch it with others. */
export function campaignByIdQuery(db: Db, id: IdValue) {
  return (
    db
      // Named apart from the item's own status and organization_id: D1's batch maps columns by name.
      .select({
        ...campaignColumns,
        parentStatus: sql<CampaignStatus | null>`${parent.status}`.as('parent_status'),
        parentOrganizationId: sql<string | null>`${parent.organizationId}`.as('parent_organization_id'),
      })
      .from(campaigns)
      .leftJoin(campaignTotals, totalsJoin)
      .leftJoin(parent, eq(parent.id, campaigns.campaignId))
      .where(eq(campaigns.id, id))
      .limit(1)
  );
}

/** campaignByIdQuery prepared once per database (db/prepared.ts), for a db.batch or awaited alone. */
export function preparedCampaignById(db: Db, id: string) {
  return preparedRead(db, 'campaigns:by-id', () => campaignByIdQuery(db, ID), { id });
}

/**
 * An appeal's campaign id as a subquery (NULL for a campaign or a missing id): lets a page read an
 * appeal, its campaign and the campaign's other appeals in one db.batch instead of two round trips.
 */
export function campaignIdOfAppeal(appealId: IdValue): SQL {
  const appeal = alias(campaigns, 'appeal_of_parent');
  // `${appeal}` alone renders only the alias name: the table goes before it.
  return sql`(select ${appeal.campaignId} from ${campaigns} ${appeal} where ${appeal.id} = ${appealId})`;
}

/** A campaignByIdQuery row as the viewer may see it, or null. */
export function visibleCampaignDto(
  row: (CampaignRow & { parentStatus: CampaignStatus | null; parentOrganizationId: string | null }) | undefined,
  viewer: AuthUser | null,
): CampaignDto | null {
  if (!row) return null;
  if (!canView(row.row, viewer)) return null;
  // An appeal of a draft or deleted campaign is hidden with it, except from its creator (decision 066).
  if (
    row.parentStatus &&
    !canSeeAppealsOf({ status: row.parentStatus, organizationId: row.parentOrganizationId }, viewer) &&
    !(viewer && row.row.createdBy === viewer.id)
  )
    return null;
  return dtoFor(row, viewer);
}

function canView(row: typeof campaigns.$inferSelect, viewer: AuthUser | null): boolean {
  // A general fund is shown to its organization's staff only, never to the public.
  if (row.kind === 'general_fund') return canManageOrganization(viewer, row.organizationId);
  if (row.status === 'approved') return true;
  if (!viewer) return false;
  if (canManageOrganization(viewer, row.organizationId)) return true;
  return row.status === 'draft' && row.createdBy === viewer.id;
}
