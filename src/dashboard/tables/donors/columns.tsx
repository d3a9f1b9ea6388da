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
    accessorFn: (row) => row.email || '-',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Email" />,
    meta: { label: 'Email' },
  },
];
