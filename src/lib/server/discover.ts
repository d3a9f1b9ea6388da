import {
  type CampaignDto,
  preparedPublicCount,
  preparedPublicList,
  toCampaignDto,
} from '../../../api/services/campaigns/read';
import type { Db } from '../../../db/client';

/** Cards per page on the public lists (a multiple of 3 fills the wide grid). */
export const LIST_PAGE_SIZE = 12;

export type DiscoverPage = { items: CampaignDto[]; page: number; pages: number; total: number };

/** ?page= as a positive integer; anything else is page 1. */
export function readPage(url: URL): number {
  const raw = url.searchParams.get('page');
  const n = raw && /^\d{1,5}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, n);
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
): Promise<DiscoverPage> {
  const [rows, [count]] = await db.batch([
    preparedPublicList(db, { kind, parentId, limit: LIST_PAGE_SIZE, offset: (page - 1) * LIST_PAGE_SIZE }),
    preparedPublicCount(db, { kind, parentId }),
  ]);
  const total = Number(count?.n ?? 0);
  return { items: rows.map(toCampaignDto), page, total, pages: Math.max(1, Math.ceil(total / LIST_PAGE_SIZE)) };
}
