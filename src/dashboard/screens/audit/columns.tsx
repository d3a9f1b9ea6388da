import { formatPence } from '../../../../domain/money';
import type { DashColumnDef } from '../../tables/features';
import { DataTableColumnHeader } from '../../tables/data-table-column-header';
import { formatDateTime } from '../../lib/dates';

export type AuditRow = {
  _id: string;
  at: string;
  actor_id: string | null;
  actor_email: string | null;
  actor_type: string | null;
  action: string;
  target_type: string;
  target_id: string;
  organization_id: string | null;
  changes: Record<string, [unknown, unknown]>;
  request_id: string | null;
  note: string | null;
};

export const TARGET_LABELS: Record<string, string> = {
  donation: 'Donation',
  reversal: 'Refund / reversal',
  batch: 'Batch',
  declaration: 'Gift Aid declaration',
  claim: 'Gift Aid claim',
  gasds_claim: 'GASDS claim',
  organization: 'Organization',
  user: 'Donor / user',
  campaign: 'Campaign',
  monthly_gift: 'Monthly gift',
  payout: 'Payout',
  dispute: 'Dispute',
  template_cause: 'Template cause',
};

/** The dashboard page of a record, for the kinds that have one. */
export function recordHref(type: string, id: string): string | null {
  if (type === 'donation') return `/dashboard/donations/edit/${encodeURIComponent(id)}`;
  if (type === 'user') return `/dashboard/donors/edit/${encodeURIComponent(id)}`;
  if (type === 'claim' || type === 'gasds_claim') return '/dashboard/gift-aid';
  if (type === 'batch') return `/dashboard/batches/${encodeURIComponent(id)}`;
  if (type === 'template_cause') return `/dashboard/template-causes/edit/${encodeURIComponent(id)}`;
  return null;
}

/**
 * A stored value as a person reads it: pence fields in pounds, empty as a dash, lists and records
 * (a refund's row) field by field rather than as JSON, ids kept: the log is where they are looked up.
 */
export function showValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (typeof value === 'number' && /amount|pence|total|goal/i.test(field)) return formatPence(value);
  if (Array.isArray(value)) return value.length ? value.map((item) => showValue(field, item)).join(', ') : '–';
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${key.replace(/_/g, ' ')} ${showValue(key, item)}`)
      .join(', ');
  return String(value);
}

const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/** A stored field's name as words: "lastName" and "last_name" read "last name". */
export function fieldLabel(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
}

export const auditColumns: DashColumnDef<AuditRow>[] = [
  {
    id: 'at',
    accessorFn: (row) => row.at,
    header: ({ column }) => <DataTableColumnHeader column={column} title="When" />,
    // The request id rides under the time (the CSV has it in full), so the table fits beside the menu.
    cell: ({ row }) => (
      <span className="audit-when">
        {formatDateTime(row.original.at)}
        {row.original.request_id ? (
          <>
            <br />
            <small className="audit-mono" title={row.original.request_id}>
              request {shortId(row.original.request_id)}
            </small>
          </>
        ) : null}
      </span>
    ),
    enableSorting: false,
    meta: { label: 'When' },
  },
  {
    id: 'actor',
    accessorFn: (row) => row.actor_email ?? 'System',
    header: ({ column }) => <DataTableColumnHeader column={column} title="Who" />,
    cell: ({ row }) => (
      <span className="audit-actor">
        {row.original.actor_email ?? 'System'}
        <br />
        <small>{row.original.actor_type ?? 'system'}</small>
      </span>
    ),
    enableSorting: false,
    meta: { label: 'Who' },
  },
  {
    id: 'action',
    accessorFn: (row) => row.action,
    header: ({ column }) => <DataTableColumnHeader column={column} title="What" />,
    cell: ({ row }) => <code className="audit-mono audit-action">{row.original.action}</code>,
    enableSorting: false,
    meta: { label: 'What' },
  },
  {
    id: 'record',
    accessorFn: (row) => `${row.target_type} ${row.target_id}`,
    header: ({ column }) => <DataTableColumnHeader column={column} title="Record" />,
    cell: ({ row }) => {
      const { target_type: type, target_id: id } = row.original;
      const href = recordHref(type, id);
      const label = `${TARGET_LABELS[type] ?? type} ${shortId(id)}`;
      return href ? (
        <a href={href} title={id}>
          {label}
        </a>
      ) : (
        <span title={id}>{label}</span>
      );
    },
    enableSorting: false,
    meta: { label: 'Record', cellClick: 'inert' },
  },
  {
    id: 'changes',
    accessorFn: (row) => Object.keys(row.changes).join(', '),
    header: ({ column }) => <DataTableColumnHeader column={column} title="Changed: before → after" />,
    cell: ({ row }) => {
      const entries = Object.entries(row.original.changes);
      return (
        <>
          {entries.length ? (
            <ul className="audit-changes">
              {entries.map(([field, [before, after]]) => (
                <li key={field}>
                  <span className="audit-field">{fieldLabel(field)}</span>:{' '}
                  <span className="audit-before">{showValue(field, before)}</span>
                  <span className="audit-arrow" aria-label="changed to">
                    →
                  </span>
                  <span>{showValue(field, after)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <span>–</span>
          )}
          {row.original.note ? <div className="audit-note">{row.original.note}</div> : null}
        </>
      );
    },
    enableSorting: false,
    meta: { label: 'Changes' },
  },
];
