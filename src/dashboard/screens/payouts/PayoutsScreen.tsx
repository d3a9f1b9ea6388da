import { useState } from 'react';
import { formatPence } from '../../../../domain/money';
import { client } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { FilterDates } from '../../ui/FilterBar';
import { Alert, Badge, NotFound, PageHeader, Spinner } from '../../ui/primitives';
import { SimpleTable } from '../../ui/SimpleTable';
import { payoutCsv } from './payout-csv';

const PAGE = 25;

const STATUS_TONE: Record<string, 'ok' | 'warn' | 'danger' | 'muted'> = {
  paid: 'ok',
  in_transit: 'warn',
  pending: 'warn',
  failed: 'danger',
  canceled: 'muted',
};
const TYPE_LABELS: Record<string, string> = {
  charge: 'Gift',
  payment: 'Gift',
  refund: 'Refund',
  payment_refund: 'Refund',
  adjustment: 'Adjustment',
  stripe_fee: 'Stripe fee',
};
const typeLabel = (type: string) => TYPE_LABELS[type] ?? type.replace(/_/g, ' ');
const StatusBadge = ({ status }: { status: string }) => (
  <Badge tone={STATUS_TONE[status] ?? 'muted'}>{status.replace(/_/g, ' ')}</Badge>
);

/** /dashboard/payouts: Stripe's transfers to the bank, newest first, to match against the statement. */
export function PayoutList() {
  const [range, setRange] = useState({ from: '', to: '' });
  const [offset, setOffset] = useState(0);
  const query: Record<string, string> = { limit: String(PAGE), offset: String(offset) };
  if (range.from) query.from = range.from;
  if (range.to) query.to = range.to;
  const [load] = useApiGet(`/api/finance/payouts?${new URLSearchParams(query)}`, (o) =>
    client.api.finance.payouts.$get({ query }, o),
  );
  const total = load.status === 'ok' ? Number(load.headers.get('x-total-count') ?? 0) : 0;
  const change = (next: Partial<typeof range>) => {
    setRange((current) => ({ ...current, ...next }));
    setOffset(0);
  };
  return (
    <section className="dash-section dash-payouts">
      <PageHeader title="Payouts" />
      <p className="dash-hint">
        Each payout is one deposit on the bank statement: the gifts Stripe paid out, less its fees and any refunds.
      </p>
      <div className="dash-list-filters dash-payout-filters" role="search" aria-label="Filter payouts">
        <FilterDates
          fromLabel="Arriving from"
          from={range.from}
          to={range.to}
          onFrom={(from) => change({ from })}
          onTo={(to) => change({ to })}
        />
      </div>
      {load.status === 'ok' ? (
        load.data.length ? (
          <>
            <SimpleTable
              label="Payouts"
              rows={load.data}
              columns={[
                {
                  header: 'Arrives',
                  cell: (p) => (
                    <a href={`/dashboard/payouts/${encodeURIComponent(p._id)}`}>{formatDate(p.arrival_date)}</a>
                  ),
                },
                {
                  header: 'Amount',
                  // A mixed payout's figures are the viewer's organizations' lines only.
                  cell: (p) => (
                    <>
                      <strong>{formatPence(p.amount)}</strong>
                      {p.partial ? <small> (your lines)</small> : null}
                    </>
                  ),
                },
                {
                  header: 'Status',
                  cell: (p) => (
                    <>
                      <StatusBadge status={p.status} />
                      {p.demo ? ' (demo)' : ''}
                    </>
                  ),
                },
                { header: 'Organization', cell: (p) => p.organization_name ?? 'Several' },
                { header: 'Gifts', cell: (p) => formatPence(p.gross_pence) },
                { header: 'Fees', cell: (p) => formatPence(p.fee_pence) },
                { header: 'Refunds', cell: (p) => formatPence(p.refund_pence) },
                { header: 'Lines', cell: (p) => p.line_count },
              ]}
            />
            <div className="dash-pager">
              <button
                type="button"
                className="btn btn-outline dash-btn-sm"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - PAGE))}
              >
                Newer
              </button>
              <span>
                {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
              </span>
              <button
                type="button"
                className="btn btn-outline dash-btn-sm"
                disabled={offset + PAGE >= total}
                onClick={() => setOffset(offset + PAGE)}
              >
                Older
              </button>
            </div>
          </>
        ) : (
          <p>
            No payouts{range.from || range.to ? ' in these dates' : ' yet'}. Stripe pays out settled gifts daily; demo
            mode makes one a day in its housekeeping run.
          </p>
        )
      ) : load.status === 'error' ? (
        <Alert>{load.error.message}</Alert>
      ) : (
        <Spinner />
      )}
    </section>
  );
}

/** /dashboard/payouts/:id: the payout's lines, each gift linking to its donation page. */
export function PayoutView({ id }: { id: string }) {
  const [load] = useApiGet(`/api/finance/payouts/${id}`, (o) =>
    client.api.finance.payouts[':id'].$get({ param: { id } }, o),
  );
  if (load.status === 'error') {
    return load.error.statusCode === 403 ? (
      <Alert>{load.error.message}</Alert>
    ) : (
      <NotFound title="Not Found" back="/dashboard/payouts" backLabel="Back to Payouts" />
    );
  }
  if (load.status !== 'ok') return <Spinner />;
  const p = load.data;
  function exportCsv() {
    const url = URL.createObjectURL(new Blob([payoutCsv(p, typeLabel)], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `payout-${p._id}.csv`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return (
    <section className="dash-section dash-payouts">
      <PageHeader
        title={`Payout ${formatPence(p.amount)}${p.partial ? ' (your lines)' : ''}`}
        back={<a href="/dashboard/payouts">All payouts</a>}
        actions={
          <button type="button" className="btn btn-outline dash-btn-sm" onClick={exportCsv}>
            Export CSV
          </button>
        }
      />
      <p className="dash-payout-summary">
        <StatusBadge status={p.status} /> arriving {formatDate(p.arrival_date)}
        {p.organization_name ? ` for ${p.organization_name}` : ''}. Gifts {formatPence(p.gross_pence)}, fees{' '}
        {formatPence(p.fee_pence)}, refunds {formatPence(p.refund_pence)}.
        <br />
        <small>Stripe reference {p._id}</small>
      </p>
      {p.status === 'failed' ? (
        <Alert>
          The bank returned this payout{p.failure_message ? `: ${p.failure_message}` : ''}
          {p.failure_code ? ` (${p.failure_code})` : ''}. Its gifts go into a later payout.
        </Alert>
      ) : null}
      {p.partial ? (
        <Alert tone="info">This payout also holds other organizations’ gifts: only yours are listed.</Alert>
      ) : null}
      <SimpleTable
        label="Lines in this payout"
        rows={p.lines}
        rowKey={(l) => l.balance_transaction_id}
        columns={[
          { header: 'Type', cell: (l) => typeLabel(l.type) },
          {
            header: 'Gift',
            cell: (l) =>
              l.donation_id ? (
                <a href={`/dashboard/donations/edit/${l.donation_id}`}>{l.donor_name ?? 'Gift'}</a>
              ) : (
                <span title={l.source_id ?? l.balance_transaction_id}>Unmatched</span>
              ),
          },
          { header: 'Campaign', cell: (l) => l.campaign_title ?? '-' },
          { header: 'Gross', cell: (l) => formatPence(l.amount) },
          { header: 'Fee', cell: (l) => formatPence(l.fee) },
          { header: 'Net', cell: (l) => formatPence(l.net) },
        ]}
        footer={
          <tr>
            <th scope="row" colSpan={5}>
              {p.partial ? 'Your lines' : 'Paid to the bank'}
            </th>
            <td>
              <strong>{formatPence(p.lines_net)}</strong>
            </td>
          </tr>
        }
      />
    </section>
  );
}
