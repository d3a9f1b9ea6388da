import { describe, expect, it } from 'vitest';
import { client } from '../../lib/api';
import { exportPath, journalPath, listApiQuery, parseListView, viewSearch } from './list-query';

describe('admin list views in the URL', () => {
  it('round-trips filters, sort and paging, leaving defaults out', () => {
    const view = parseListView(
      'donations',
      '?search=priya&status=succeeded&sort=amount&order=asc&page=3&size=20&bogus=1',
    );
    expect(view).toEqual({
      page: 3,
      size: 20,
      sort: { id: 'amount', desc: false },
      filters: { search: 'priya', status: 'succeeded' },
    });
    expect(viewSearch(view)).toBe('?search=priya&status=succeeded&sort=amount&order=asc&page=3&size=20');
    expect(viewSearch(parseListView('donors', ''))).toBe('');
  });

  it('drops sort fields the list does not offer and sizes the pager does not have', () => {
    expect(parseListView('organizations', '?sort=amount&size=1000&page=-2')).toMatchObject({
      sort: null,
      size: 10,
      page: 1,
    });
  });

  it('builds the list and export queries from the same view', () => {
    const view = parseListView('donations', '?date_from=2026-01-01&date_to=2026-01-31&sort=date&page=2');
    const query = listApiQuery<'donations'>(view);
    expect(query).toEqual({
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      sort: 'date',
      order: 'desc',
      limit: '10',
      offset: '10',
    });
    expect(client.api.donations.$path({ query })).toBe(
      '/api/donations?date_from=2026-01-01&date_to=2026-01-31&sort=date&order=desc&limit=10&offset=10',
    );
    expect(exportPath('donations', view)).toBe(
      '/api/exports/donations.csv?date_from=2026-01-01&date_to=2026-01-31&sort=date&order=desc',
    );
    expect(exportPath('donors', parseListView('donors', '?search=a%20b&type=donor'))).toBe(
      '/api/exports/donors.csv?search=a+b&type=donor',
    );
    expect(exportPath('organizations', parseListView('organizations', ''))).toBe('/api/exports/organizations.csv');
  });

  it('asks for the accounts journal only with both days, in order', () => {
    expect(journalPath(parseListView('donations', '?date_from=2026-06-01&date_to=2026-06-30&status=failed'))).toBe(
      '/api/exports/journal.csv?from=2026-06-01&to=2026-06-30',
    );
    expect(journalPath(parseListView('donations', '?date_from=2026-06-01&date_to=2026-06-30'), 'sage')).toBe(
      '/api/exports/journal.csv?from=2026-06-01&to=2026-06-30&format=sage',
    );
    expect(journalPath(parseListView('donations', '?date_from=2026-06-01'))).toBeNull();
    expect(journalPath(parseListView('donations', '?date_from=2026-06-30&date_to=2026-06-01'))).toBeNull();
  });
});
