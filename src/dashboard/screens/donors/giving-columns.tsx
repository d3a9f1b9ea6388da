import { formatPence } from '../../../lib/format';
import { formatDate } from '../../lib/dates';
import { DataTableColumnHeader } from '../../tables/data-table-column-header';
import type { DashColumnDef } from '../../tables/features';
import { PAYMENT_METHOD_LABELS } from '../../../../domain/finance';

export type DonorGift = {
  _id: string;
  date: string;
  amount: number;
  refunded_amount: number;
  campaign: { _id: string; title: string };
  appeal: { _id: string; title: string } | null;
  status: string;
  type: string;
  method: string | null;
  source: string;
  gift_aid: boolean;
  gift_aid_claimed: boolean;
};

const STATUS: Record<string, string> = {
  succeeded: 'Paid',
  refunded: 'Refunded',
  processing: 'Processing',
  failed: 'Failed',
  pending: 'Pending',
  abandoned: 'Abandoned',
};

const METHOD: Record<string, string> = PAYMENT_METHOD_LABELS;

/** Rows from before payment methods were stored: card (or demo card) when paid online. */
export const methodLabel = (gift: Pick<DonorGift, 'method' | 'source'>) =>
  gift.method ? (METHOD[gift.method] ?? gift.method) : gift.source === 'manual' ? 'Entered by hand' : 'Card';

export const statusLabel = (gift: Pick<DonorGift, 'status' | 'refunded_amount' | 'amount'>) =>
  gift.status === 'succeeded' && gift.refunded_amount > 0
    ? `Paid, ${formatPence(gift.refunded_amount)} refunded`
    : (STATUS[gift.status] ?? gift.status);

export const givingColumns: DashColumnDef<DonorGift>[] = [
  {
    id: 'date',
    accessorFn: (row) => new Date(row.date).getTime(),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Date" />,
    cell: ({ row }) => (
      <a href={`/dashboard/donations/edit/${encodeURIComponent(row.original._id)}`}>{formatDate(row.original.date)}</a>
    ),
    meta: { label: 'Date' },
  },
  {
    id: 'amount',
    accessorFn: (row) => row.amount,
    header: ({ column }) => <DataTableColumnHeader column={column} title="Amount" />,
    cell: ({ row }) => `${formatPence(row.original.amount)}${row.original.type === 'monthly' ? ' (monthly)' : ''}`,
    meta: { label: 'Amount' },
  },
  {
    id: 'campaign',
    accessorFn: (row) => (row.appeal ? `${row.campaign.title}: ${row.appeal.title}` : row.campaign.title),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Campaign" />,
    meta: { label: 'Campaign' },
  },
  {
    id: 'status',
    accessorFn: (row) => statusLabel(row),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Status" />,
    meta: { label: 'Status' },
  },
  {
    id: 'method',
    accessorFn: (row) => methodLabel(row),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Method" />,
    meta: { label: 'Method' },
  },
  {
    id: 'gift_aid',
    accessorFn: (row) => (row.gift_aid_claimed ? 'Claimed' : row.gift_aid ? 'Yes' : 'No'),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Gift Aid" />,
    meta: { label: 'Gift Aid' },
  },
];
