import { formatDate } from '../../lib/dates';
import { usd } from '../../lib/usd';
import { DONATION_HISTORY, type HistoryRow } from '../../mock-data';
import { DataTable } from '../../tables/data-table';
import { DataTableColumnHeader } from '../../tables/data-table-column-header';
import type { DashColumnDef } from '../../tables/features';
import { PageHeader } from '../../ui/primitives';

const columns: DashColumnDef<HistoryRow>[] = [
  {
    id: 'date',
    accessorKey: 'date',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Date" />,
    cell: ({ row }) => formatDate(row.original.date),
  },
  {
    id: 'donor',
    accessorKey: 'donor',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Donor" />,
    cell: ({ row }) => (
      <span className="dash-stack">
        <strong>{row.original.donor}</strong>
        <span className="dash-muted">{row.original.uid}</span>
      </span>
    ),
  },
  { id: 'appeal', accessorKey: 'appeal', header: 'Appeal' },
  { id: 'type', accessorKey: 'type', header: 'Type' },
  {
    id: 'amount',
    accessorKey: 'amount',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Amount" />,
    cell: ({ row }) => usd.format(row.original.amount),
  },
];

export function DonationHistory() {
  return (
    <section className="dash-section">
      <PageHeader title="All Donation History" />
      <p className="dash-muted">Sample data for this preview.</p>
      <DataTable caption="All Donation History" columns={columns} data={DONATION_HISTORY} getRowId={(r) => r.id} />
    </section>
  );
}
