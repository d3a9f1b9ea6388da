import { useEffect, useMemo, useState } from 'react';
import { client, download, type OfficeMonthlyGift } from '../../lib/api';
import { useApiGet } from '../lib/use-api';
import { $dashToken } from '../session';
import { DataTable } from '../tables/data-table';
import { failedPaymentColumns, monthlyGiftColumns, STATUS_LABELS } from '../tables/monthly-gifts/columns';
import { Icon } from '../ui/icons';
import { Alert, PageHeader } from '../ui/primitives';

type Tab = 'all' | 'failed';
type Filters = { status: string; failing: boolean; search: string };
const SORTABLE = ['donor', 'amount', 'started', 'next_payment', 'status'];
const OFFICE_STATUSES = ['active', 'paused', 'past_due', 'cancelled'] as const;

type ListResponse = Awaited<ReturnType<(typeof client.api)['monthly-gifts']['$get']>>;

/** The office's monthly gifts: every gift with filters and CSV export, and the failed-payments queue. */
export function MonthlyGiftsScreen() {
  const [tab, setTab] = useState<Tab>('all');
  const [filters, setFilters] = useState<Filters>({ status: '', failing: false, search: '' });
  const [searchText, setSearchText] = useState('');
  const [page, setPage] = useState({ pageIndex: 0, pageSize: 20 });
  const [sort, setSort] = useState<{ id: string; desc: boolean } | null>(null);
  const [exporting, setExporting] = useState('');

  const query = useMemo(() => {
    const q: Record<string, string> = { limit: String(page.pageSize), offset: String(page.pageIndex * page.pageSize) };
    if (tab === 'failed' || filters.failing) q.failing = 'true';
    if (tab === 'all' && filters.status) q.status = filters.status;
    if (filters.search) q.search = filters.search;
    if (sort) {
      q.sort = sort.id;
      q.order = sort.desc ? 'desc' : 'asc';
    }
    return q;
  }, [tab, filters, page, sort]);
  const key = `monthly-gifts?${new URLSearchParams(query)}`;
  const [state] = useApiGet<ListResponse>(key, (o) => client.api['monthly-gifts'].$get({ query }, o));
  const rows = useMemo(() => (state.status === 'ok' ? (state.data as OfficeMonthlyGift[]) : []), [state]);
  const [total, setTotal] = useState(0);
  useEffect(() => {
    if (state.status === 'ok') setTotal(Number(state.headers.get('x-total-count') ?? 0));
  }, [state]);

  const change = (next: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...next }));
    setPage((p) => ({ ...p, pageIndex: 0 }));
  };
  const columns = useMemo(
    () =>
      (tab === 'failed' ? failedPaymentColumns : monthlyGiftColumns).map((c) =>
        c.id && !SORTABLE.includes(c.id) ? { ...c, enableSorting: false } : c,
      ),
    [tab],
  );

  async function exportCsv() {
    setExporting('Preparing your CSV…');
    const { limit: _limit, offset: _offset, ...filtersOnly } = query;
    const path = client.api.exports['monthly-gifts.csv'].$path({ query: filtersOnly });
    const saved = await download(path, 'monthly-gifts.csv', { token: $dashToken.get() });
    setExporting(saved.ok ? `Downloaded ${saved.data.name}.` : saved.error.message);
  }

  const denied = state.status === 'error' && (state.error.statusCode === 403 || state.error.statusCode === 401);
  const title = 'Monthly gifts';
  return (
    <section className="dash-section">
      <PageHeader title={title} />
      <div className="dash-page-head" role="tablist" aria-label="Monthly gifts views">
        {(['all', 'failed'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={`btn dash-btn-sm ${tab === t ? 'btn-primary' : 'btn-outline'}`}
            onClick={() => {
              setTab(t);
              setPage((p) => ({ ...p, pageIndex: 0 }));
            }}
          >
            {t === 'all' ? 'All monthly gifts' : 'Failed payments'}
          </button>
        ))}
      </div>
      {tab === 'failed' ? (
        <p className="dash-hint">
          Gifts whose newest payment failed. Stripe retries the card on its own schedule; the donor gets one email per
          failed payment.
        </p>
      ) : null}
      {denied ? (
        <Alert tone="info">Monthly gifts are only available to admins, organization admins and finance users.</Alert>
      ) : null}
      {state.status === 'error' && !denied ? <Alert>{state.error.message}</Alert> : null}
      {denied ? null : (
        <DataTable
          caption={tab === 'failed' ? 'Failed payments' : title}
          columns={columns}
          data={rows}
          loading={state.status === 'loading' || state.status === 'idle'}
          getRowId={(row) => row._id}
          emptyText={tab === 'failed' ? 'No failed payments.' : undefined}
          toolbar={() => (
            <div className="dash-list-toolbar" role="search" aria-label="Search and filter monthly gifts">
              <div className="dash-list-filters">
                <div className="dash-field dash-filter-search">
                  <label htmlFor="mg-search">Search</label>
                  <input
                    id="mg-search"
                    className="dash-input dash-input-sm"
                    type="search"
                    placeholder="Donor name or email"
                    maxLength={40}
                    value={searchText}
                    onChange={(e) => setSearchText(e.target.value)}
                    onBlur={() => change({ search: searchText.trim() })}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') change({ search: searchText.trim() });
                    }}
                  />
                </div>
                {tab === 'all' ? (
                  <>
                    <div className="dash-field">
                      <label htmlFor="mg-status">Status</label>
                      <select
                        id="mg-status"
                        className="dash-input dash-input-sm"
                        value={filters.status}
                        onChange={(e) => change({ status: e.target.value })}
                      >
                        <option value="">All</option>
                        {OFFICE_STATUSES.map((s) => (
                          <option key={s} value={s}>
                            {STATUS_LABELS[s]}
                          </option>
                        ))}
                      </select>
                    </div>
                    <label className="dash-check">
                      <input
                        type="checkbox"
                        checked={filters.failing}
                        onChange={(e) => change({ failing: e.target.checked })}
                      />{' '}
                      Last payment failed
                    </label>
                  </>
                ) : null}
              </div>
              <div className="dash-list-actions">
                <button type="button" className="btn btn-outline dash-btn-sm" onClick={() => void exportCsv()}>
                  <Icon name="download" size={16} /> Export CSV
                </button>
                <span role="status" className="dash-hint">
                  {exporting}
                </span>
              </div>
            </div>
          )}
          serverPaging={{
            rowCount: total,
            pagination: page,
            onPaginationChange: setPage,
            sorting: sort ? [sort] : [],
            onSortingChange: (s) => {
              setSort(s[0] ? { id: s[0].id, desc: s[0].desc } : null);
              setPage((p) => ({ ...p, pageIndex: 0 }));
            },
          }}
        />
      )}
    </section>
  );
}
