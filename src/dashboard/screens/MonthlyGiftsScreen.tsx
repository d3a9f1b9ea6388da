import { useEffect, useMemo, useState } from 'react';
import { client, type OfficeMonthlyGift } from '../../lib/api';
import { useApiGet } from '../lib/use-api';
import { DataTable } from '../tables/data-table';
import { failedPaymentColumns, monthlyGiftColumns, STATUS_LABELS } from '../tables/monthly-gifts/columns';
import { FilterBar, FilterSearch, FilterSelect, useCsvDownload } from '../ui/FilterBar';
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

  const csv = useCsvDownload();
  function exportCsv() {
    const { limit: _limit, offset: _offset, ...filtersOnly } = query;
    return csv.save(client.api.exports['monthly-gifts.csv'].$path({ query: filtersOnly }), 'monthly-gifts.csv');
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
          failed payment. A gift whose first Direct Debit failed is listed as not started: no money was taken, and the
          donor was told the monthly gift has not started.
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
            <FilterBar
              label="Search and filter monthly gifts"
              onExport={() => void exportCsv()}
              exportIcon
              exportStatus={csv.status}
            >
              <FilterSearch
                placeholder="Donor name or email"
                value={searchText}
                onChange={setSearchText}
                onApply={() => change({ search: searchText.trim() })}
                applyOnBlur
              />
              {tab === 'all' ? (
                <>
                  <FilterSelect
                    label="Status"
                    value={filters.status}
                    onChange={(status) => change({ status })}
                    any="All"
                    options={OFFICE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
                  />
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
            </FilterBar>
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
