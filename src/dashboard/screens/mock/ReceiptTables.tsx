import { useMemo, useState } from 'react';
import { formatDate } from '../../lib/dates';
import { usd } from '../../lib/usd';
import { RECEIPTS, RECURRING, type ReceiptRow } from '../../mock-data';
import { DataTable } from '../../tables/data-table';
import { DataTableColumnHeader } from '../../tables/data-table-column-header';
import type { DashColumnDef } from '../../tables/features';
import { Icon } from '../../ui/icons';
import { Menu } from '../../ui/Menu';
import { Alert, Badge, PageHeader } from '../../ui/primitives';

function columns(onNotice: (text: string) => void): DashColumnDef<ReceiptRow>[] {
  return [
    {
      id: 'date',
      accessorKey: 'date',
      header: ({ column }) => <DataTableColumnHeader column={column} title="Date" />,
      cell: ({ row }) => formatDate(row.original.date),
    },
    { id: 'name', accessorKey: 'name', header: 'Receipt name' },
    {
      id: 'amount',
      accessorKey: 'amount',
      header: ({ column }) => <DataTableColumnHeader column={column} title="Amount" />,
      cell: ({ row }) => usd.format(row.original.amount),
    },
    { id: 'status', header: 'Status', cell: () => <Badge>Completed</Badge> },
    {
      id: 'actions',
      header: () => <span className="visually-hidden">Actions</span>,
      cell: ({ row }) => (
        <Menu
          label={`Actions for ${row.original.name}`}
          items={[
            {
              label: 'Copy payment ID',
              onSelect: () => {
                void navigator.clipboard?.writeText(row.original.paymentId).catch(() => undefined);
                onNotice(`Copied payment ID ${row.original.paymentId}`);
              },
            },
            { label: 'View customer', onSelect: () => onNotice(`Customer ${row.original.customer} (sample data)`) },
            {
              label: 'View payment details',
              onSelect: () =>
                onNotice(
                  `Payment ${row.original.paymentId}: ${usd.format(row.original.amount)}, Completed (sample data)`,
                ),
            },
          ]}
        >
          <Icon name="more" />
        </Menu>
      ),
    },
  ];
}

/** Receipts and Recurring screens (spec mock-ups): same table, different sample rows. */
export function ReceiptTable({ kind }: { kind: 'receipts' | 'recurring' }) {
  const [notice, setNotice] = useState<string | null>(null);
  const cols = useMemo(() => columns(setNotice), []);
  const title = kind === 'receipts' ? 'Donate Receipts' : 'Recurring Donations';
  return (
    <section className="dash-section">
      <PageHeader title={title} />
      <p className="dash-muted">Sample data for this preview.</p>
      {notice ? <Alert tone="info">{notice}</Alert> : null}
      <DataTable
        caption={title}
        columns={cols}
        data={kind === 'receipts' ? RECEIPTS : RECURRING}
        getRowId={(r) => r.id}
      />
    </section>
  );
}
