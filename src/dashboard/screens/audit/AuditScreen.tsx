import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { client, download } from '../../../lib/api';
import { readsMoney } from '../../../../domain/roles';
import { useApiGet } from '../../lib/use-api';
import { $location, navigate } from '../../router';
import { $dashToken, $dashUser } from '../../session';
import { DataTable } from '../../tables/data-table';
import { Icon } from '../../ui/icons';
import { Alert, PageHeader, Spinner } from '../../ui/primitives';
import { type AuditRow, auditColumns, TARGET_LABELS } from './columns';
import './audit.css';

const FILTERS = ['actor', 'target_type', 'target', 'action', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const EMPTY: Filters = { actor: '', target_type: '', target: '', action: '', from: '', to: '' };

/** Actions the API writes today, offered as suggestions; any prefix ("donation") matches its actions too. */
const KNOWN_ACTIONS = [
  'donation.create',
  'donation.update',
  'donation.refund',
  'donation.gift_aid_verify',
  'reversal.create',
  'batch.create',
  'declaration.create',
  'declaration.cancel',
  'declaration.confirm',
  'claim.create',
  'claim.submitted',
  'claim.paid',
  'claim.void',
  'gasds_claim.create',
  'organization.create',
  'organization.update',
  'campaign.status',
  'user.type',
  'user.merge',
];

const fromSearch = (search: string): Filters => {
  const params = new URLSearchParams(search);
  return Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])) as Filters;
};
type AuditQuery = NonNullable<Parameters<typeof client.api.audit.$get>[0]>['query'];
type AuditTargetType = NonNullable<AuditQuery['target_type']>;
const isTargetType = (value: string): value is AuditTargetType => value in TARGET_LABELS;

/** The filters the API takes: empty ones left out, an unknown record type from a hand-edited URL ignored. */
function toQuery(f: Filters): Omit<AuditQuery, 'limit' | 'offset'> {
  const text = (v: string) => (v.trim() === '' ? undefined : v.trim());
  return {
    actor: text(f.actor),
    target: text(f.target),
    target_type: isTargetType(f.target_type) ? f.target_type : undefined,
    action: text(f.action),
    from: text(f.from),
    to: text(f.to),
  };
}
const toSearch = (f: Filters) =>
  new URLSearchParams(
    Object.entries(toQuery(f)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  ).toString();

type ListResponse = Awaited<ReturnType<typeof client.api.audit.$get>>;

/** /dashboard/audit: who changed what, filtered, with the same filters as a CSV download. */
export function AuditScreen() {
  const user = useStore($dashUser);
  if (user === undefined) return <Spinner />;
  if (!readsMoney(user)) {
    return (
      <section className="dash-section">
        <h1>Audit log</h1>
        <Alert tone="info">The audit log is available to admins, organization admins and finance users.</Alert>
      </section>
    );
  }
  return <AuditLog />;
}

function AuditLog() {
  const { search } = useStore($location);
  const filters = useMemo(() => fromSearch(search), [search]);
  const [draft, setDraft] = useState<Filters>(filters);
  const [page, setPage] = useState({ pageIndex: 0, pageSize: 20 });
  const [exporting, setExporting] = useState('');
  useEffect(() => setDraft(filters), [filters]);

  // The filters live in the URL: a filtered view can be shared, and a record's page can link to its history.
  const apply = (next: Filters) => {
    const query = toSearch(next);
    navigate(`/dashboard/audit${query ? `?${query}` : ''}`, { replace: true });
    setPage((p) => ({ ...p, pageIndex: 0 }));
  };
  const query = { ...toQuery(filters), limit: String(page.pageSize), offset: String(page.pageIndex * page.pageSize) };
  const [state] = useApiGet<ListResponse>(`audit?${toSearch(filters)}&page=${page.pageIndex}-${page.pageSize}`, (o) =>
    client.api.audit.$get({ query }, o),
  );
  const rows = useMemo(() => (state.status === 'ok' ? (state.data as AuditRow[]) : []), [state]);
  const [total, setTotal] = useState(0);
  useEffect(() => {
    if (state.status === 'ok') setTotal(Number(state.headers.get('x-total-count') ?? 0));
  }, [state]);

  async function exportCsv() {
    setExporting('Preparing your CSV…');
    const saved = await download(client.api.exports['audit.csv'].$path({ query: toQuery(filters) }), 'audit.csv', {
      token: $dashToken.get(),
    });
    setExporting(saved.ok ? `Downloaded ${saved.data.name}.` : saved.error.message);
  }

  const field = (key: keyof Filters) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value })),
    onBlur: () => (draft[key] !== filters[key] ? apply(draft) : undefined),
    onKeyDown: (e: { key: string }) => {
      if (e.key === 'Enter') apply(draft);
    },
  });
  const active = FILTERS.some((k) => filters[k]);

  return (
    <section className="dash-section">
      <PageHeader title="Audit log" />
      <p className="dash-hint">
        Every change staff made to donations, refunds, batches, Gift Aid, organizations, campaigns and accounts. Nothing
        here can be edited or deleted.
      </p>
      {state.status === 'error' ? <Alert>{state.error.message}</Alert> : null}
      <DataTable
        caption="Audit log"
        columns={auditColumns}
        data={rows}
        loading={state.status === 'loading' || state.status === 'idle'}
        getRowId={(row) => row._id}
        emptyText={active ? 'No changes match these filters.' : 'No changes recorded yet.'}
        toolbar={() => (
          <div className="dash-list-toolbar" role="search" aria-label="Filter the audit log">
            <div className="dash-list-filters">
              <div className="dash-field dash-filter-search">
                <label htmlFor="audit-actor">Who</label>
                <input
                  id="audit-actor"
                  className="dash-input dash-input-sm"
                  type="search"
                  placeholder="Email or user id"
                  maxLength={254}
                  {...field('actor')}
                />
              </div>
              <div className="dash-field">
                <label htmlFor="audit-type">Record type</label>
                <select
                  id="audit-type"
                  className="dash-input dash-input-sm"
                  value={draft.target_type}
                  onChange={(e) => apply({ ...draft, target_type: e.target.value })}
                >
                  <option value="">Any</option>
                  {Object.entries(TARGET_LABELS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="dash-field">
                <label htmlFor="audit-target">Record id</label>
                <input
                  id="audit-target"
                  className="dash-input dash-input-sm"
                  type="search"
                  maxLength={64}
                  placeholder="Id of the record"
                  {...field('target')}
                />
              </div>
              <div className="dash-field">
                <label htmlFor="audit-action">Action</label>
                <input
                  id="audit-action"
                  className="dash-input dash-input-sm"
                  list="audit-actions"
                  maxLength={64}
                  placeholder="e.g. donation.refund"
                  {...field('action')}
                />
                <datalist id="audit-actions">
                  {KNOWN_ACTIONS.map((a) => (
                    <option key={a} value={a} />
                  ))}
                </datalist>
              </div>
              <div className="audit-filters-dates">
                <div className="dash-field">
                  <label htmlFor="audit-from">From</label>
                  <input
                    id="audit-from"
                    className="dash-input dash-input-sm"
                    type="date"
                    {...field('from')}
                    onChange={(e) => apply({ ...draft, from: e.target.value })}
                  />
                </div>
                <div className="dash-field">
                  <label htmlFor="audit-to">To</label>
                  <input
                    id="audit-to"
                    className="dash-input dash-input-sm"
                    type="date"
                    {...field('to')}
                    onChange={(e) => apply({ ...draft, to: e.target.value })}
                  />
                </div>
              </div>
            </div>
            <div className="dash-list-actions">
              {active ? (
                <button type="button" className="btn btn-outline dash-btn-sm" onClick={() => apply(EMPTY)}>
                  Clear filters
                </button>
              ) : null}
              <button type="button" className="btn btn-outline dash-btn-sm" onClick={() => void exportCsv()}>
                <Icon name="download" size={16} /> Export CSV
              </button>
              <span role="status" className="dash-hint">
                {exporting}
              </span>
            </div>
          </div>
        )}
        serverPaging={{ rowCount: total, pagination: page, onPaginationChange: setPage }}
      />
    </section>
  );
}
