import { giftAidOn, paymentMethodLabel } from '../../../../domain';
import { formatPence } from '../../../lib/format';
import { formatDate } from '../../lib/dates';
import { Badge } from '../../ui/primitives';
import { ResendReceipt } from '../../screens/donation/ResendReceipt';
import { DataTableColumnHeader } from '../data-table-column-header';
import type { DashColumnDef } from '../features';
import type { Donation } from './data/schema';

const STATUS_TONE: Record<string, 'ok' | 'warn' | 'danger' | 'muted'> = {
  succeeded: 'ok',
  pending: 'warn',
  processing: 'warn',
  failed: 'danger',
  refunded: 'muted',
  abandoned: 'muted',
};

/** The signed-in donor's own gifts (GET /api/donations?type=me). */
export const myDonationColumns: DashColumnDef<Donation>[] = [
  {
    id: 'date',
    accessorFn: (row) => (row.date ? new Date(row.date).getTime() : 0),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Date" />,
    cell: ({ row }) => formatDate(row.original.date),
  },
  {
    id: 'amount',
    accessorFn: (row) => row.amount ?? 0,
    header: ({ column }) => <DataTableColumnHeader column={column} title="Amount" />,
    cell: ({ row }) => (typeof row.original.amount === 'number' ? formatPence(row.original.amount) : '-'),
  },
  // Titles may hold long unbroken words (a reference, a number): they wrap, so the table fits its box.
  {
    id: 'campaign',
    accessorFn: (row) => row.campaign?.label || '-',
    header: 'Campaign',
    cell: ({ getValue }) => <span className="dash-wrap-anywhere">{String(getValue())}</span>,
  },
  {
    id: 'appeal',
    accessorFn: (row) => row.appeal?.label || '-',
    header: 'Appeal',
    cell: ({ getValue }) => <span className="dash-wrap-anywhere">{String(getValue())}</span>,
  },
  {
    id: 'method',
    accessorFn: (row) => paymentMethodLabel(row.payment_method, row.bank_last4, row.source) || '-',
    header: 'Paid by',
  },
  {
    id: 'giftAid',
    accessorFn: (row) => (row.gift_aid ? 'Yes' : 'No'),
    header: 'Gift Aid',
    // What the charity claims on top, so the donor sees their gift's Gift Aid without the statement.
    cell: ({ row }) => {
      const net = (row.original.amount ?? 0) - (row.original.refunded_amount ?? 0);
      return row.original.gift_aid && net > 0 ? (
        <span className="dash-nowrap">Yes, +{formatPence(giftAidOn(net))}</span>
      ) : (
        'No'
      );
    },
  },
  {
    id: 'type',
    accessorFn: (row) => (row.type === 'monthly' ? 'Monthly' : row.type === 'once' ? 'Once' : row.type || '-'),
    header: 'Type',
  },
  {
    id: 'status',
    accessorFn: (row) => row.status || '-',
    header: 'Status',
    cell: ({ row }) =>
      row.original.status ? (
        <Badge tone={STATUS_TONE[row.original.status] ?? 'muted'}>{row.original.status}</Badge>
      ) : (
        '-'
      ),
  },
  {
    id: 'receipt',
    header: 'Receipt',
    enableSorting: false,
    // Only a paid gift has a receipt (a fully refunded one is `refunded`).
    cell: ({ row }) => (row.original.status === 'succeeded' ? <ResendReceipt donationId={row.original._id} /> : null),
  },
];
