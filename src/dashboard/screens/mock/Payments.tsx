import { useState } from 'react';
import { formatDate } from '../../lib/dates';
import { usd } from '../../lib/usd';
import { PAYMENTS, PAYMENT_METHODS, type PaymentMethod, type PaymentRow } from '../../mock-data';
import { DataTable } from '../../tables/data-table';
import { DataTableColumnHeader } from '../../tables/data-table-column-header';
import { DataTableViewOptions } from '../../tables/data-table-view-options';
import type { DashColumnDef } from '../../tables/features';
import { selectColumn } from '../../tables/select-column';
import { Icon } from '../../ui/icons';
import { Alert, Badge, SelectInput, TextInput } from '../../ui/primitives';

const STATUS_TONE = { success: 'ok', processing: 'warn', failed: 'danger' } as const;

const paymentColumns: DashColumnDef<PaymentRow>[] = [
  selectColumn<PaymentRow>(),
  {
    id: 'date',
    accessorKey: 'date',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Date" />,
    cell: ({ row }) => formatDate(row.original.date),
    meta: { label: 'Date' },
  },
  {
    id: 'status',
    accessorKey: 'status',
    header: 'Status',
    cell: ({ row }) => <Badge tone={STATUS_TONE[row.original.status]}>{row.original.status}</Badge>,
    meta: { label: 'Status' },
  },
  {
    id: 'email',
    accessorKey: 'email',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Email" />,
    meta: { label: 'Email' },
  },
  { id: 'method', accessorKey: 'method', header: 'Method', meta: { label: 'Method' } },
  {
    id: 'amount',
    accessorKey: 'amount',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Amount" />,
    cell: ({ row }) => usd.format(row.original.amount),
    meta: { label: 'Amount' },
  },
];

function PaymentsTable() {
  const [filter, setFilter] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <div>
      <h2 className="dash-h2">Payments</h2>
      {notice ? <Alert tone="info">{notice}</Alert> : null}
      <DataTable
        caption="Payments"
        columns={paymentColumns}
        data={PAYMENTS}
        getRowId={(r) => r.id}
        globalFilter={filter}
        toolbar={(table) => {
          const selected = table.getSelectedRowModel().rows.length;
          return (
            <div className="dash-toolbar">
              <input
                className="dash-input dash-input-sm"
                type="search"
                aria-label="Filter emails"
                placeholder="Filter emails..."
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
              />
              <button
                type="button"
                className="btn btn-outline dash-btn-sm"
                disabled={selected === 0}
                onClick={() => {
                  setNotice(`${selected} payment(s) marked for export (sample data, nothing was sent).`);
                  table.resetRowSelection();
                }}
              >
                Export selected{selected ? ` (${selected})` : ''}
              </button>
              <DataTableViewOptions table={table} label="Columns" />
            </div>
          );
        }}
      />
    </div>
  );
}

const TYPE_OPTIONS = [
  { value: 'card', label: 'Debit/Credit Card' },
  { value: 'paypal', label: 'Paypal' },
  { value: 'bank', label: 'Bank Transfer' },
];

function AddMethodForm({ onDone, editing }: { onDone: () => void; editing?: PaymentMethod }) {
  const [type, setType] = useState(editing?.type ?? 'card');
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [holder, setHolder] = useState('');
  const [isDefault, setIsDefault] = useState(editing?.isDefault ?? false);
  return (
    <form
      className="dash-form dash-narrow-700"
      onSubmit={(e) => {
        e.preventDefault();
        onDone();
      }}
    >
      <h2 className="dash-h2">{editing ? `Edit ${editing.label}` : 'Add Payment Method'}</h2>
      <SelectInput
        label="Type"
        value={type}
        onChange={(v) => setType((v || 'card') as PaymentMethod['type'])}
        options={TYPE_OPTIONS}
      />
      <TextInput
        label="Card number"
        value={number}
        onChange={setNumber}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
      />
      <div className="dash-grid-2">
        <TextInput label="Expiry date" value={expiry} onChange={setExpiry} autoComplete="cc-exp" placeholder="MM/YY" />
        <TextInput
          label="Security code"
          value={cvc}
          onChange={setCvc}
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="CVC"
        />
      </div>
      <TextInput label="Cardholder name" value={holder} onChange={setHolder} autoComplete="cc-name" />
      <label className="dash-check">
        <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} /> Set default
        payment
      </label>
      <p className="dash-muted">Preview only: card details are not sent or stored.</p>
      <div className="dash-form-actions">
        <button type="button" className="btn btn-outline" onClick={onDone}>
          Edit
        </button>
        <button type="submit" className="btn btn-primary">
          Add
        </button>
      </div>
    </form>
  );
}

/** Spec mock-up: Payment Methods (list ⇄ add form) plus the sample Payments table. */
export function PaymentMethods() {
  const [mode, setMode] = useState<{ view: 'list' } | { view: 'form'; editing?: PaymentMethod }>({ view: 'list' });
  const [selected, setSelected] = useState(PAYMENT_METHODS.find((m) => m.isDefault)?.id ?? '');
  if (mode.view === 'form') {
    return (
      <section className="dash-section">
        <h1>Payment Methods</h1>
        <AddMethodForm editing={mode.editing} onDone={() => setMode({ view: 'list' })} />
      </section>
    );
  }
  return (
    <section className="dash-section">
      <h1>Payment Methods</h1>
      <div className="dash-narrow-700">
        <div className="dash-methods" role="radiogroup" aria-label="Payment methods">
          {PAYMENT_METHODS.map((m) => (
            <div key={m.id} className={`dash-method${selected === m.id ? ' is-selected' : ''}`}>
              <label className="dash-method-main">
                <input
                  type="radio"
                  name="payment-method"
                  value={m.id}
                  checked={selected === m.id}
                  onChange={() => setSelected(m.id)}
                />
                <Icon name={m.type === 'card' ? 'card' : m.type === 'paypal' ? 'coins' : 'building'} />
                <span className="dash-stack">
                  <strong>{m.label}</strong>
                  <span className="dash-muted">
                    {m.detail}
                    {m.isDefault ? ' · Default' : ''}
                  </span>
                </span>
              </label>
              <button type="button" className="dash-link-btn" onClick={() => setMode({ view: 'form', editing: m })}>
                Edit<span className="visually-hidden"> {m.label}</span>
              </button>
            </div>
          ))}
          <button type="button" className="dash-method dash-method-add" onClick={() => setMode({ view: 'form' })}>
            <Icon name="plus" /> Add Method
          </button>
        </div>
      </div>
      <PaymentsTable />
    </section>
  );
}
