import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { client } from '../../../lib/api';
import { readsMoney } from '../../../../domain/roles';
import { useApiGet } from '../../lib/use-api';
import { $location, navigate } from '../../router';
import { $dashUser } from '../../session';
import { DataTable } from '../../tables/data-table';
import { FilterBar, FilterDates, FilterInput, FilterSearch, FilterSelect, useCsvDownload } from '../../ui/FilterBar';
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
  'donation.receipt_resent',
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
  'campaign.sponsored_event',
  'campaign.income_code',
  'user.type',
  'user.merge',
];

const TARGET_OPTIONS = Object.entries(TARGET_LABELS).map(([value, label]) => ({ value, label }));

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

  const csv = useCsvDownload();
  const exportCsv = () => csv.save(client.api.exports['audit.csv'].$path({ query: toQuery(filters) }), 'audit.csv');

  const field = (key: keyof Filters) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value })),
    onApply: () => (draft[key] !== filters[key] ? apply(draft) : undefined),
    applyOnBlur: true,
    maxLength: 64,
  });
  const active = FILTERS.some((k) => filters[k]);

  return (
    <section className="dash-section">
      <PageHeader title="Audit log" />
      <p className="dash-hint dash-hint-above">
        Every change staff made to donations, refunds, batches, Gift Aid, organizations, campaigns, monthly gifts and
        accounts, and each campaign or appeal started or edited (by staff or its fundraiser). Nothing here can be edited
        or deleted.
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
          <FilterBar
            label="Filter the audit log"
            active={active}
            foldOnPhones
            foldedInUse={FILTERS.some((key) => key !== 'actor' && filters[key])}
            onClear={() => apply(EMPTY)}
            onExport={() => void exportCsv()}
            exportIcon
            exportStatus={csv.status}
          >
            <FilterSearch
              label="Who"
              placeholder="Email or user id"
              maxLength={254}
              value={draft.actor}
              onChange={(actor) => setDraft((d) => ({ ...d, actor }))}
              onApply={() => (draft.actor !== filters.actor ? apply(draft) : undefined)}
              applyOnBlur
            />
            <FilterSelect
              label="Record type"
              value={draft.target_type}
              onChange={(v) => apply({ ...draft, target_type: v })}
              any="Any"
              options={TARGET_OPTIONS}
            />
            <FilterInput label="Record id" type="search" placeholder="Id of the record" {...field('target')} />
            <FilterInput label="Action" list="audit-actions" placeholder="e.g. donation.refund" {...field('action')} />
            <datalist id="audit-actions">
              {KNOWN_ACTIONS.map((a) => (
                <option key={a} value={a} />
              ))}
            </datalist>
            <div className="audit-filters-dates">
              <FilterDates
                from={draft.from}
                to={draft.to}
                onFrom={(from) => apply({ ...draft, from })}
                onTo={(to) => apply({ ...draft, to })}
              />
            </div>
          </FilterBar>
        )}
        serverPaging={{ rowCount: total, pagination: page, onPaginationChange: setPage }}
      />
    </section>
  );
}
