import { formatPence, monthlyGiftMethodLabel } from '../../../../domain';
import { formatDate } from '../../lib/dates';
import type { OfficeMonthlyGift } from '../../../lib/api';
import { DataTableColumnHeader } from '../data-table-column-header';
import type { DashColumnDef } from '../features';

// "28 Nov 2026", as the rest of the dashboard writes a day.
const day = (iso: string | null | undefined) => (iso ? formatDate(iso) : '-');

export const STATUS_LABELS: Record<OfficeMonthlyGift['status'], string> = {
  active: 'Active',
  paused: 'Paused',
  past_due: 'Failing',
  cancelled: 'Cancelled',
  incomplete: 'Not started',
};

const EMAIL_LABELS = { sent: 'Sent', queued: 'Queued', none: 'Not sent' } as const;

/** Column ids match the API's sort fields where the list can sort by them. */
export const monthlyGiftColumns: DashColumnDef<OfficeMonthlyGift>[] = [
  {
    id: 'donor',
    accessorFn: (row) => row.donor.name || row.donor.email,
    header: ({ column }) => <DataTableColumnHeader column={column} title="Donor" />,
    // The donor's page (their giving); the gift's own page is the Manage column.
    cell: ({ row }) => (
      <span>
        <a href={`/dashboard/donors/edit/${encodeURIComponent(row.original.donor._id)}`}>
          {row.original.donor.name || row.original.donor.email}
        </a>
        <br />
        <small>{row.original.donor.email}</small>
      </span>
    ),
    meta: { label: 'Donor' },
  },
  {
    id: 'amount',
    accessorFn: (row) => formatPence(row.amount),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Monthly" />,
    meta: { label: 'Monthly' },
  },
  // Status early: with the menu open at 1280 px the last columns scroll out of sight, and a list that
  // is mostly cancelled gifts must say so where it is read.
  {
    id: 'status',
    accessorFn: (row) => STATUS_LABELS[row.status],
    header: ({ column }) => <DataTableColumnHeader column={column} title="Status" />,
    meta: { label: 'Status' },
  },
  {
    id: 'cause',
    // Taken down (decision 070): the office sees which running gifts support a page no one can open.
    accessorFn: (row) =>
      `${row.appeal ? `${row.campaign.title}: ${row.appeal.title}` : row.campaign.title}${row.on_site ? '' : ' (off the site)'}`,
    header: ({ column }) => <DataTableColumnHeader column={column} title="Campaign / appeal" />,
    meta: { label: 'Campaign / appeal' },
  },
  {
    id: 'started',
    accessorFn: (row) => day(row.started_at),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Started" />,
    meta: { label: 'Started' },
  },
  {
    id: 'next_payment',
    accessorFn: (row) => day(row.next_payment_at),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Next payment" />,
    meta: { label: 'Next payment' },
  },
  {
    id: 'method',
    accessorFn: (row) => monthlyGiftMethodLabel(row.method, row.payment_method, row.bank_last4),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Method" />,
    meta: { label: 'Method' },
  },
  {
    id: 'manage',
    header: 'Manage',
    enableSorting: false,
    // The gift that started it: its page shows the monthly gift and cancels it for the donor.
    cell: ({ row }) =>
      row.original.first_donation_id ? (
        <a
          href={`/dashboard/donations/edit/${encodeURIComponent(row.original.first_donation_id)}`}
          aria-label={`Open gift: ${row.original.donor.name || row.original.donor.email}`}
        >
          Open gift
        </a>
      ) : (
        '-'
      ),
    meta: { label: 'Manage' },
  },
];

/**
 * The failed-payments queue adds when the payment failed, why, and whether the donor was told. A gift
 * whose first Direct Debit failed is listed as "Not started" (docs/decisions/053).
 */
export const failedPaymentColumns: DashColumnDef<OfficeMonthlyGift>[] = [
  ...monthlyGiftColumns.filter((c) => c.id !== 'started' && c.id !== 'method'),
  {
    id: 'failed_at',
    accessorFn: (row) => day(row.last_failure?.failed_at),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Payment failed" />,
    meta: { label: 'Payment failed' },
  },
  {
    id: 'failure_reason',
    accessorFn: (row) => row.last_failure?.message ?? '-',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Reason" />,
    meta: { label: 'Reason' },
  },
  {
    id: 'retry_at',
    accessorFn: (row) =>
      row.last_failure ? (row.last_failure.retry_at ? day(row.last_failure.retry_at) : 'No retry left') : '-',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Stripe retries" />,
    meta: { label: 'Stripe retries' },
  },
  {
    id: 'failure_email',
    accessorFn: (row) => (row.last_failure ? EMAIL_LABELS[row.last_failure.email] : '-'),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Email to donor" />,
    meta: { label: 'Email to donor' },
  },
];
