import { getDb } from './db';
import { type DiscoverPage, isPastLastPage, loadDiscover, readPage, readSearch } from './discover';

/** A public list page's data (/campaigns, /appeals); a page past the last one answers 404. */
export async function loadDiscoverPage(
  page: { url: URL; response: { status?: number } },
  kind: 'campaign' | 'appeal',
): Promise<DiscoverPage> {
  const data = await loadDiscover(getDb(), kind, readPage(page.url), undefined, readSearch(page.url));
  if (isPastLastPage(data)) page.response.status = 404;
  return data;
}
