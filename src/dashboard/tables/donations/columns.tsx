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
const donorHref = (donation: Donation) =>
  donation.donor?.value ? `/dashboard/donors/edit/${encodeURIComponent(donation.donor.value)}` : null;

/** What a row that is not a paid gift says under its amount. */
const UNPAID_WORDS: Partial<Record<string, string>> = {
  pending: 'Not paid',
  processing: 'Waiting for the bank',
  failed: 'Payment failed',
  abandoned: 'Checkout abandoned',
};

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
    cell: ({ row }) => {
      const { amount, refunded_amount: refunded, status } = row.original;
      if (typeof amount !== 'number') return '-';
      // A checkout not (yet) paid is listed too (staff follow them up): said beside it, so it never reads as a gift.
      const unpaid = status ? UNPAID_WORDS[status] : undefined;
      if (unpaid)
        return (
          <>
            {formatPence(amount)}
            <br />
            <small className="dash-hint">{unpaid}</small>
          </>
        );
      // What went back (refunds, reversals) is said beside the gift, as on its page: the amount is what was given.
      return refunded ? (
        <>
          {formatPence(amount)}
          <br />
          <small className="dash-hint">{formatPence(refunded)} back</small>
        </>
      ) : (
        formatPence(amount)
      );
    },
    meta: { label: 'Amount' },
  },
  {
    id: 'campaign',
    accessorFn: (row) => row.campaign?.label || '-',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Campaign" />,
    cell: ({ row }) => row.original.campaign?.label || '-',
    // Spec: clicking the campaign cell does nothing (not even the row's edit link).
    meta: { label: 'Campaign', cellClick: 'inert' },
  },
  {
    id: 'donor',
    accessorFn: (row) => row.donor?.label || '-',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Donor" />,
    cell: ({ row }) => {
      const donor = row.original.donor;
      if (!donor?.value) return '-';
      return (
        <a href={donorHref(row.original) ?? undefined} className="dash-cell-link" onClick={(e) => e.preventDefault()}>
          {donor.label || donor.value}
        </a>
      );
    },
    // Spec: clicking the donor cell opens the donor (anywhere in the cell, not only the name).
    meta: {
      label: 'Donor',
      cellClick: (row: Donation) => {
        const href = donorHref(row);
        if (href) navigate(href);
      },
    },
  },
];
