import type { Resource } from './routes';

/**
 * An admin list's view as URL search parameters, so a filtered, sorted page can be shared and
 * survives reload. The same names go to the list API and to its CSV export (api/services/insight/list-filters.ts).
 */

export const FILTER_KEYS: Record<Resource, string[]> = {
  donations: ['search', 'status', 'type', 'campaign_id', 'appeal_id', 'donor_id', 'date_from', 'date_to', 'amount_min', 'amount_max'],
  donors: ['search', 'type'],
  organizations: ['search'],
};

export const SORTABLE: Record<Resource, string[]> = {
  donations: ['date', 'amount', 'donor', 'campaign', 'status'],
  donors: ['created', 'name', 'email'],
  organizations: ['name', 'created'],
};

export const EXPORT_PATH: Record<Resource, string> = {
  donations: '/api/exports/donations.csv',
  donors: '/api/exports/donors.csv',
  organizations: '/api/exports/organizations.csv',
};

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
  const sort = sortId && SORTABLE[resource].includes(sortId) ? { id: sortId, desc: params.get('order') !== 'asc' } : null;
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
export function apiFilterParams(view: ListView): URLSearchParams {
  const params = new URLSearchParams(view.filters);
  if (view.sort) {
    params.set('sort', view.sort.id);
    params.set('order', view.sort.desc ? 'desc' : 'asc');
  }
  return params;
}

export function listApiPath(endpoint: string, view: ListView): string {
  const params = apiFilterParams(view);
  params.set('limit', String(view.size));
  params.set('offset', String((view.page - 1) * view.size));
  return `${endpoint}?${params}`;
}
