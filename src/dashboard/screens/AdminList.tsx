import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { client, type Donation, type Donor, type Organization } from '../../lib/api';
import { listApiQuery, parseListView, SORTABLE, viewSearch, type ListView } from '../lib/list-query';
import { joinPath, type Resource } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { $location, navigate } from '../router';
import * as roles from '../../../domain/roles';
import { $dashUser, type DashUser, isAdmin, isOrgAdmin, viewerOf } from '../session';
import { DataTable } from '../tables/data-table';
import { donationColumns } from '../tables/donations/columns';
import { donorColumns } from '../tables/donors/columns';
import type { DashColumnDef } from '../tables/features';
import { ListToolbar } from '../tables/list-toolbar';
import { organizationColumns } from '../tables/organizations/columns';
import { Icon } from '../ui/icons';
import { Alert, LinkButton, PageHeader } from '../ui/primitives';
import { ConsentExport } from './my-info/ConsentExport';
import { formatPence } from '../../lib/format';

type Config = { label: string; columns: DashColumnDef<any>[] };

// The rows are the contract's Organization, Donor and Donation (src/lib/api.ts).
const CONFIG: Record<Resource, Config> = {
  organizations: { label: 'Organizations', columns: organizationColumns },
  donors: { label: 'Donors', columns: donorColumns },
  donations: { label: 'Donations', columns: donationColumns },
};

/** What one of the three list routes answers. */
type ListResponse = Awaited<
  ReturnType<typeof client.api.organizations.$get | typeof client.api.users.$get | typeof client.api.donations.$get>
>;

/**
 * Spec: 'My …' for organization admins, 'All …' otherwise. An organization admin's donations are
 * "My Organization's Donations", so the list is not mistaken for their own gifts ("My Donations").
 */
export function listTitle(resource: Resource, userType: string | undefined, orgCount = 1): string {
  if (!isOrgAdminType(userType)) return `All ${CONFIG[resource].label}`;
  if (resource === 'donations') return orgCount > 1 ? "My Organizations' Donations" : "My Organization's Donations";
  return `My ${CONFIG[resource].label}`;
}

const isOrgAdminType = (type: string | undefined) => roles.isOrgAdmin(type ? { type, orgIds: [] } : null);

/** Organizations are added by admins only; donors and donations by staff (org admins for their own). */
export function canAdd(resource: Resource, user: DashUser | null | undefined): boolean {
  const viewer = viewerOf(user);
  if (resource === 'organizations') return roles.isAdmin(viewer);
  if (resource === 'donors') return roles.canAddDonors(viewer);
  return roles.isStaff(viewer);
}

/** Spec "Admin list screen": title, Add, row click → edit, server or client paging, 'No results'. */
export function AdminList({ resource }: { resource: Resource }) {
  const config = CONFIG[resource];
  const user = useStore($dashUser);
  const { pathname, search } = useStore($location);
  // The view (filters, sort, page) lives in the URL: shareable, and it survives reload.
  const view = useMemo(() => parseListView(resource, search), [resource, search]);
  // Each change applies to the view in the URL at that moment, not to this render's copy: a filter
  // applied on blur and a sort click right after it must not undo each other.
  const setView = (change: (current: ListView) => ListView) => {
    const now = $location.get();
    navigate(`${now.pathname}${viewSearch(change(parseListView(resource, now.search)))}`, { replace: true });
  };
  // The view is the list route's query (lib/list-query.ts); its URL form keys the load, so a new view reloads.
  const [state] = useApiGet<ListResponse>(`${resource}${viewSearch(view)}`, (o) =>
    resource === 'organizations'
      ? client.api.organizations.$get({ query: listApiQuery<'organizations'>(view) }, o)
      : resource === 'donors'
        ? client.api.users.$get({ query: listApiQuery<'donors'>(view) }, o)
        : client.api.donations.$get({ query: listApiQuery<'donations'>(view) }, o),
  );
  const columns = useMemo(
    () => config.columns.map((c) => (c.id && !SORTABLE[resource].includes(c.id) ? { ...c, enableSorting: false } : c)),
    [config.columns, resource],
  );

  // Without type=public the donations route answers donations, never top donors.
  const rows = useMemo(
    () => (state.status === 'ok' ? (state.data as (Organization | Donor | Donation)[]) : []),
    [state],
  );
  const totalHeader = state.status === 'ok' ? state.headers.get('x-total-count') : null;
  const total = totalHeader !== null && totalHeader !== '' ? Number(totalHeader) : null;
  // The three lists are always paged by the server (X-Total-Count). While a new view loads, the
  // table keeps the last count instead of falling back to paging in the browser: a sort or page
  // click in that moment goes to the URL rather than reordering the old rows.
  const [knownTotal, setKnownTotal] = useState(0);
  useEffect(() => {
    if (total !== null && Number.isFinite(total)) setKnownTotal(total);
  }, [total]);
  const rowCount = total !== null && Number.isFinite(total) ? total : knownTotal;
  const sums = resource === 'donations' && state.status === 'ok' ? donationSums(state.headers) : null;
  // While a view loads, the last sums stay (the table below does not jump up and back down); the
  // first load says it is adding up, on the line the sums will take.
  const [lastSums, setLastSums] = useState<DonationSums | null>(null);
  useEffect(() => {
    if (sums) setLastSums(sums);
  }, [sums?.paid, sums?.received, sums?.refunded]);
  const sumsLine =
    resource !== 'donations' || state.status === 'error' ? null : (sums ?? (state.status === 'ok' ? null : lastSums));

  const title = listTitle(resource, isOrgAdmin(user) ? 'org_admin' : user?.type, user?.org_ids?.length ?? 1);
  const addHref = joinPath(pathname, '/add');
  const denied = state.status === 'error' && (state.error.statusCode === 403 || state.error.statusCode === 401);
  let notice: ReactNode = null;
  if (denied) notice = <NoAccess label={config.label} signedOut={state.error.statusCode === 401} />;
  else if (state.status === 'error') notice = <Alert>{state.error.message}</Alert>;

  return (
    <section className="dash-section">
      <PageHeader
        title={title}
        actions={
          denied ? null : (
            <>
              {resource === 'donors' && isAdmin(user) ? <ConsentExport /> : null}
              {canAdd(resource, user) ? (
                <LinkButton href={addHref} small>
                  <Icon name="plus" size={16} /> Add
                </LinkButton>
              ) : null}
            </>
          )
        }
      />
      {notice}
      {sumsLine ? (
        <DonationSumsLine sums={sumsLine} />
      ) : resource === 'donations' && state.status !== 'ok' && state.status !== 'error' ? (
        <p className="dash-muted">Adding up this list…</p>
      ) : null}
      {denied ? null : (
        <DataTable
          caption={title}
          columns={columns}
          toolbar={() => (
            <ListToolbar
              resource={resource}
              view={view}
              onFilters={(change) => setView((current) => ({ ...current, filters: change(current.filters), page: 1 }))}
            />
          )}
          data={rows}
          loading={state.status === 'loading' || state.status === 'idle'}
          getRowId={(row) => row._id}
          onRowClick={(row) => navigate(joinPath(pathname, `/edit/${encodeURIComponent(row._id)}`))}
          serverPaging={{
            rowCount,
            pagination: { pageIndex: view.page - 1, pageSize: view.size },
            onPaginationChange: (p) => setView((current) => ({ ...current, page: p.pageIndex + 1, size: p.pageSize })),
            sorting: view.sort ? [view.sort] : [],
            onSortingChange: (sorting) =>
              setView((current) => ({
                ...current,
                sort: sorting[0] ? { id: sorting[0].id, desc: sorting[0].desc } : null,
                page: 1,
              })),
          }}
        />
      )}
    </section>
  );
}

type DonationSums = { paid: number; received: number; refunded: number };

/** The staff list's sums over every page of the filtered gifts (X-Paid-Count, X-Received-Pence, X-Refunded-Pence). */
export function donationSums(headers: Headers): DonationSums | null {
  const read = (name: string) => {
    const text = headers.get(name);
    return text !== null && /^\d+$/.test(text) ? Number(text) : null;
  };
  const paid = read('x-paid-count');
  const received = read('x-received-pence');
  const refunded = read('x-refunded-pence');
  return paid === null || received === null || refunded === null ? null : { paid, received, refunded };
}

/** What the filtered gifts add up to, so a month can be checked against the bank without an export. */
function DonationSumsLine({ sums }: { sums: DonationSums }) {
  const gifts = `${sums.paid.toLocaleString('en-GB')} paid ${sums.paid === 1 ? 'gift' : 'gifts'}`;
  return (
    <p className="dash-muted" data-testid="donation-sums" aria-live="polite">
      In this list: {gifts}, {formatPence(sums.received)} received
      {sums.refunded > 0
        ? `, ${formatPence(sums.refunded)} refunded, ${formatPence(sums.received - sums.refunded)} net`
        : ''}
      .
    </p>
  );
}

/** A 403/401 from the API: say what this account can use instead of showing an empty table. */
function NoAccess({ label, signedOut }: { label: string; signedOut: boolean }) {
  if (signedOut) {
    return (
      <Alert tone="info">
        Your sign-in has expired. Please <a href="/dashboard/overview">sign in again</a> to see {label.toLowerCase()}.
      </Alert>
    );
  }
  return (
    <Alert tone="info">
      <p className="dash-alert-title">Sorry, {label.toLowerCase()} are only available to admins.</p>
      <p>
        You can still see <a href="/dashboard/donations/me">your donations</a> and{' '}
        <a href="/dashboard/donors/edit/me">your details</a>.
      </p>
    </Alert>
  );
}

const ADD_TITLE: Record<Resource, string> = {
  organizations: 'Add Organization',
  donors: 'Add Donor',
  donations: 'Add Donation',
};

/**
 * An add form opened by someone who may not add there (a finance officer following a link, a
 * donor typing the URL): say so before the form, not after Save with a 403.
 */
export function NotYoursToAdd({ resource, user }: { resource: Resource; user: DashUser }) {
  const whoAdds =
    resource === 'organizations'
      ? 'Organizations are added by the platform’s admins.'
      : `${CONFIG[resource].label} are added by admins and organization admins.`;
  return (
    <section className="dash-section">
      <h1>{ADD_TITLE[resource]}</h1>
      <Alert tone="info">
        <p className="dash-alert-title">{whoAdds}</p>
        {resource !== 'organizations' && roles.readsMoney(user) ? (
          <p>
            Offline income, and the new donors who gave it, go in through{' '}
            <a href="/dashboard/batches/add">batch entry</a>.
          </p>
        ) : (
          <p>
            Back to the <a href="/dashboard/overview">overview</a>.
          </p>
        )}
      </Alert>
    </section>
  );
}
