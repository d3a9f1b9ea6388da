import { formatUkDate } from '../../../../domain';
import { shownEmail } from '../../../../domain/email';
import { DataTableColumnHeader } from '../data-table-column-header';
import type { DashColumnDef } from '../features';
import type { Donor } from './data/schema';

export const donorColumns: DashColumnDef<Donor>[] = [
  {
    id: 'name',
    accessorFn: (row) => row.name?.first_name || '-',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Name" />,
    meta: { label: 'Name' },
  },
  {
    id: 'email',
    accessorFn: (row) => (row.email ? shownEmail(row.email) : '-'),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Email" />,
    meta: { label: 'Email' },
  },
  {
    id: 'erasure',
    accessorFn: (row) => erasureLabel(row),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Account deletion" />,
    meta: { label: 'Account deletion' },
  },
];

/** The donor's latest request to delete their account, and what happened to it. */
function erasureLabel(row: Donor): string {
  const e = row.erasure;
  if (!e) return '-';
  const on = (iso: string | null | undefined) => (iso ? formatUkDate(new Date(iso)) : '');
  if (e.outcome === 'completed') return `Deleted ${on(e.completed_at)}`;
  if (e.outcome === 'pending') return `Requested ${on(e.requested_at)}, awaiting code`;
  if (e.outcome === 'expired') return `Requested ${on(e.requested_at)}, not confirmed`;
  return `Requested ${on(e.requested_at)}, failed`;
}
