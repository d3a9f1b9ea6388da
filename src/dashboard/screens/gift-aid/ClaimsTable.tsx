import type { ReactNode } from 'react';
import { formatPence } from '../../../lib/format';
import { formatDate } from '../../lib/dates';
import { Badge } from '../../ui/primitives';
import { type SimpleColumn, SimpleTable } from '../../ui/SimpleTable';
import type { Claim } from './ClaimPanel';

const STATUS_TONE = { draft: 'warn', submitted: 'muted', paid: 'ok', rejected: 'warn', void: 'muted' } as const;

/** The Gift Aid screen's list of claims; "Open" shows one claim's panel below it (`openId`). */
export function ClaimsTable({
  claims,
  openId,
  onToggle,
  empty,
}: {
  claims: Claim[];
  openId: string | null;
  onToggle: (id: string) => void;
  empty: ReactNode;
}) {
  const columns: SimpleColumn<Claim>[] = [
    { header: 'Created', cell: (c) => formatDate(c.created_at) },
    {
      header: 'Organization',
      cell: (c) => (
        <>
          {c.organization.label}
          <br />
          <span className="dash-hint">{c.charity_reference}</span>
        </>
      ),
    },
    {
      header: 'Status',
      cell: (c) => (
        <>
          <Badge tone={STATUS_TONE[c.status]}>{c.status}</Badge>
          {c.hmrc_reference ? <div className="dash-hint">HMRC {c.hmrc_reference}</div> : null}
        </>
      ),
    },
    { header: 'Lines', cell: (c) => `${c.row_count}${c.aggregated ? ' (aggregated)' : ''}` },
    { header: 'Earliest donation', cell: (c) => formatDate(c.earliest_date) },
    { header: 'Total', cell: (c) => formatPence(c.total) },
    { header: 'Gift Aid', cell: (c) => formatPence(c.gift_aid) },
    { header: 'Adjustment', cell: (c) => (c.adjustment ? `−${formatPence(c.adjustment)}` : '—') },
    {
      header: 'Actions',
      className: 'gift-aid-actions',
      cell: (c) => (
        <button
          type="button"
          className="btn btn-outline dash-btn-sm"
          aria-expanded={openId === c._id}
          aria-label={`Open the claim of ${formatDate(c.created_at)}`}
          onClick={() => onToggle(c._id)}
        >
          {openId === c._id ? 'Close' : 'Open'}
        </button>
      ),
    },
  ];
  return (
    <SimpleTable label="Gift Aid claims" className="gift-aid-claims" rows={claims} columns={columns} empty={empty} />
  );
}
