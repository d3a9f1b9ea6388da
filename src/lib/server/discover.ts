import {
  type CampaignDto,
  countSearchQuery,
  SEARCH_COUNT_CAP,
  preparedPublicCount,
  preparedPublicList,
  searchCampaignsQuery,
  toCampaignDto,
} from '../../../api/services/campaigns/read';
import type { Db } from '../../../db/client';
import { SEARCH_MAX_CHARS, searchMatch } from '../../../domain/search';

/** Cards per page on the public lists (a multiple of 3 fills the wide grid). */
export const LIST_PAGE_SIZE = 12;

export type DiscoverPage = {
  items: CampaignDto[];
  page: number;
  pages: number;
  total: number;
  /** What the visitor searched for (?q=, decision 072), when it has a word to look for. */
  search?: string;
  /** The search found more than `total` (SEARCH_COUNT_CAP): only that many are paged. */
  more?: boolean;
};

/** ?page= as a positive integer; anything else is page 1. */
export function readPage(url: URL): number {
  const raw = url.searchParams.get('page');
  const n = raw && /^\d{1,5}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, n);
}

/** ?q= trimmed and cut to the longest search taken; undefined when it has no letter or digit. */
export function readSearch(url: URL): string | undefined {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, SEARCH_MAX_CHARS);
  return searchMatch(q) === null ? undefined : q;
}

/**
 * A list page's <title>: a search says what was searched for, and a later page its number, so a
 * browser's tabs and history (and a screen reader's first words) tell the pages apart.
 */
export function discoverTitle(title: string, data: Pick<DiscoverPage, 'search' | 'page'>): string {
  const searched = data.search === undefined ? title : `Results for “${data.search}”: ${title}`;
  return data.page > 1 ? `${searched}, page ${data.page}` : searched;
}

/** A ?page= past the last page (page 99 of 2): the page answers 404 and says how many there are. */
export const isPastLastPage = (data: DiscoverPage) => data.page > data.pages;

/**
 * One page of approved campaigns or appeals for anonymous visitors, and how many there are: one
 * db.batch of two reads prepared once per database (db/prepared.ts).
 */
export async function loadDiscover(
  db: Db,
  kind: 'campaign' | 'appeal',
  page: number,
  parentId?: string,
  search?: string,
): Promise<DiscoverPage> {
  if (search !== undefined) return searchDiscover(db, { kind, parentId, search }, page);
  const [rows, [count]] = await db.batch([
    preparedPublicList(db, { kind, parentId, limit: LIST_PAGE_SIZE, offset: (page - 1) * LIST_PAGE_SIZE }),
    preparedPublicCount(db, { kind, parentId }),
  ]);
  const total = Number(count?.n ?? 0);
  return { items: rows.map(toCampaignDto), page, total, pages: pagesOf(total) };
}

/** How many pages of LIST_PAGE_SIZE `total` items fill (at least one, for the empty list). */
const pagesOf = (total: number) => Math.max(1, Math.ceil(total / LIST_PAGE_SIZE));

/** One page of a search's results, and how many there are (not prepared: every search differs). */
async function searchDiscover(
  db: Db,
  { kind, parentId, search }: { kind: 'campaign' | 'appeal'; parentId?: string; search: string },
  page: number,
) {
  const options = { kind, parentId, search };
  const [rows, [count]] = await db.batch([
    searchCampaignsQuery(db, { ...options, limit: LIST_PAGE_SIZE, offset: (page - 1) * LIST_PAGE_SIZE }),
    countSearchQuery(db, options),
  ]);
  const found = Number(count?.n ?? 0);
  const total = Math.min(found, SEARCH_COUNT_CAP);
  return {
    items: rows.map(toCampaignDto),
    page,
    total,
    pages: pagesOf(total),
    search,
    more: found > SEARCH_COUNT_CAP,
  };
}
