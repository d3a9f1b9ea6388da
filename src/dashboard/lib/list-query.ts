import { client } from '../../lib/api';
import type { Resource } from './routes';

/**
 * An admin list's view as URL search parameters, so a filtered, sorted page can be shared and
 * survives reload. The same names go to the list API and to its CSV export (api/services/reports/list-filters.ts).
 */

type QueryOf<F extends (...args: never[]) => unknown> =
  NonNullable<Parameters<F>[0]> extends { query: infer Q } ? Q : never;
const exportRoutes = client.api.exports;

/** Each list route's query, from the typed client. */
export type ListQuery = {
  donations: QueryOf<typeof client.api.donations.$get>;
  donors: QueryOf<typeof client.api.users.$get>;
  organizations: QueryOf<typeof client.api.organizations.$get>;
};

/** Each export's query: the list's filters and sort, declared strictly (GET /api/donations documents its query loosely). */
export type ExportQuery = {
  donations: QueryOf<(typeof exportRoutes)['donations.csv']['$get']>;
  donors: QueryOf<(typeof exportRoutes)['donors.csv']['$get']>;
  organizations: QueryOf<(typeof exportRoutes)['organizations.csv']['$get']>;
};

// Checked against the lists' and the exports' schemas, so a filter or sort the API drops is a type error here.
export const FILTER_KEYS: Record<Resource, string[]> = {
  donations: [
    'search',
    'status',
    'type',
    'campaign_id',
    'appeal_id',
    'donor_id',
    'date_from',
    'date_to',
    'amount_min',
    'amount_max',
  ],
  donors: ['search', 'type'],
  organizations: ['search'],
} satisfies { [R in Resource]: (keyof ListQuery[R] & keyof ExportQuery[R])[] };

export const SORTABLE: Record<Resource, string[]> = {
  donations: ['date', 'amount', 'donor', 'campaign', 'status'],
  donors: ['created', 'name', 'email'],
  organizations: ['name', 'created'],
} satisfies { [R in Resource]: NonNullable<ExportQuery[R]['sort']>[] };

export type ListView = {
  page: number;
  size: number;
  sort: { id: string; desc: boolean } | null;
  filters: Record<string, string>;
};

const SIZES = [10, 20, 30, 40, 50];

export function parseListView(resource: Resource, search: string): ListView {
  const params = new URLSearchParams(search);
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const sizeParam = Number(params.get('size'));
  const size = SIZES.includes(sizeParam) ? sizeParam : 10;
  const sortId = params.get('sort');
  const sort =
    sortId && SORTABLE[resource].includes(sortId) ? { id: sortId, desc: params.get('order') !== 'asc' } : null;
  const filters: Record<string, string> = {};
  for (const key of FILTER_KEYS[resource]) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return { page, size, sort, filters };
}

/** The dashboard URL's query for a view (defaults left out, so a plain list has a plain URL). */
export function viewSearch(view: ListView): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(view.filters)) if (value) params.set(key, value);
  if (view.sort) {
    params.set('sort', view.sort.id);
    params.set('order', view.sort.desc ? 'desc' : 'asc');
  }
  if (view.page > 1) params.set('page', String(view.page));
  if (view.size !== 10) params.set('size', String(view.size));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The filters and sort as API parameters (no paging): for the list call and the export. */
function filterQuery(view: ListView): Record<string, string> {
  const query = { ...view.filters };
  if (view.sort) {
    query.sort = view.sort.id;
    query.order = view.sort.desc ? 'desc' : 'asc';
  }
  return query;
}

// The filter values are the URL's text, sent as they are: the API checks them and a 400 names the
// parameter, so only their names are typed (FILTER_KEYS, SORTABLE) and the values are cast.

/** The list route's query for a view: its filters, sort and page (`listApiQuery<'donors'>(view)`). */
export function listApiQuery<R extends Resource>(view: ListView): ListQuery[R] {
  return {
    ...filterQuery(view),
    limit: String(view.size),
    offset: String((view.page - 1) * view.size),
  } as ListQuery[R];
}

/** The path of a list's CSV export with the view's filters and sort: the list's rows, every page. */
export function exportPath(resource: Resource, view: ListView): string {
  const query = filterQuery(view);
  if (resource === 'donations')
    return exportRoutes['donations.csv'].$path({ query: query as ExportQuery['donations'] });
  if (resource === 'donors') return exportRoutes['donors.csv'].$path({ query: query as ExportQuery['donors'] });
  return exportRoutes['organizations.csv'].$path({ query: query as ExportQuery['organizations'] });
}

/**
 * The accounts journal for the donations view's days (both From and To needed), or null without them;
 * Xero's manual journal unless `format` is `sage`.
 */
export function journalPath(view: ListView, format: 'xero' | 'sage' = 'xero'): string | null {
  const { date_from: from, date_to: to } = view.filters;
  if (!from || !to || to < from) return null;
  return exportRoutes['journal.csv'].$path({ query: format === 'sage' ? { from, to, format } : { from, to } });
}
