import { DataTableColumnHeader } from '../data-table-column-header';
import type { DashColumnDef } from '../features';
import { addressText, type Organization } from './data/schema';

export const organizationColumns: DashColumnDef<Organization>[] = [
  {
    id: 'name',
    accessorFn: (row) => row.name || '-',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Name" />,
    meta: { label: 'Name' },
  },
  {
    id: 'address',
    accessorFn: (row) => addressText(row.address),
    header: 'Address',
    enableSorting: false,
    meta: { label: 'Address' },
  },
];
