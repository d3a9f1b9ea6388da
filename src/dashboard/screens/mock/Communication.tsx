import { formatDate } from '../../lib/dates';
import { NOTIFICATIONS, type Notice } from '../../mock-data';
import { DataTable } from '../../tables/data-table';
import { DataTableColumnHeader } from '../../tables/data-table-column-header';
import { DataTableViewOptions } from '../../tables/data-table-view-options';
import type { DashColumnDef } from '../../tables/features';
import { selectColumn } from '../../tables/select-column';
import { Icon } from '../../ui/icons';
import { Badge } from '../../ui/primitives';
import { DateRangeAndExports, PreviewNotice, usePreviewFilters } from './preview-filters';

const columns: DashColumnDef<Notice>[] = [
  selectColumn<Notice>(),
  {
    id: 'date',
    accessorKey: 'date',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Date" />,
    cell: ({ row }) => formatDate(row.original.date),
    meta: { label: 'Date' },
  },
  {
    id: 'title',
    accessorKey: 'title',
    header: 'Title',
    cell: ({ row }) => <a href={`/dashboard/communication/${row.original.id}`}>{row.original.title}</a>,
    meta: { label: 'Title' },
  },
  {
    id: 'type',
    accessorKey: 'type',
    header: 'Notify type',
    cell: ({ row }) => <Badge tone="muted">{row.original.type}</Badge>,
    meta: { label: 'Notify type' },
  },
];

/** Spec mock-up: Communication & Notifications with search, 'Bulk actions' visibility menu, date range, Exports. */
export function Communication() {
  const filters = usePreviewFilters();
  const rows = NOTIFICATIONS.filter((n) => filters.matches(n.date, `${n.id} ${n.title}`));
  return (
    <section className="dash-section">
      <h1>Communication & Notifications</h1>
      <PreviewNotice filters={filters} />
      <DataTable
        caption="Notifications"
        columns={columns}
        data={rows}
        getRowId={(r) => r.id}
        toolbar={(table) => (
          <div className="dash-toolbar">
            <input
              className="dash-input dash-input-sm"
              type="search"
              aria-label="Search by name or ID"
              placeholder="Search by name or ID"
              value={filters.q}
              onChange={(e) => filters.setQ(e.target.value)}
            />
            <DataTableViewOptions table={table} label="Bulk actions" />
            <DateRangeAndExports filters={filters} />
          </div>
        )}
      />
    </section>
  );
}

export function CommunicationDetail({ id }: { id: string }) {
  const item = NOTIFICATIONS.find((n) => n.id === id);
  return (
    <section className="dash-section dash-narrow-700">
      <a href="/dashboard/communication" className="btn btn-ghost dash-btn-sm dash-back">
        <Icon name="arrowLeft" size={16} /> Back
      </a>
      {item ? (
        <article>
          <h1>{item.title}</h1>
          <p className="dash-muted">
            {formatDate(item.date)} · <Badge tone="muted">{item.type}</Badge>
          </p>
          <p>{item.body}</p>
        </article>
      ) : (
        <h1>Not Found</h1>
      )}
    </section>
  );
}
