import { formatPence } from '../../../../domain/money';
import { formatDate } from '../../lib/dates';
import { Badge, Section } from '../../ui/primitives';
import { SimpleTable } from '../../ui/SimpleTable';
import type { DonationStory } from './story';
import { disputeReasonLabel, reasonLabel, statusLabel, statusTone } from './labels';

const KIND_LABELS: Record<string, string> = { refund: 'Refund', reversal: 'Reversal', dispute: 'Dispute lost' };
const status = (row: { status: string }) => <Badge tone={statusTone(row.status)}>{statusLabel(row.status)}</Badge>;

/** Every row that took money back off the gift, and every dispute the card issuer opened. */
export function MoneyBack({ story }: { story: DonationStory }) {
  const { reversals, disputes } = story;
  return (
    <Section title="Refunds, reversals and disputes">
      <SimpleTable
        label="Refunds and reversals"
        rows={reversals}
        columns={[
          { header: 'Date', cell: (r) => formatDate(r.succeeded_at ?? r.created_at) },
          { header: 'Kind', cell: (r) => KIND_LABELS[r.kind] ?? r.kind },
          { header: 'Amount', cell: (r) => formatPence(r.amount) },
          { header: 'Reason', cell: (r) => reasonLabel(r.reason) },
          { header: 'Status', cell: status },
          { header: 'Note', cell: (r) => r.note ?? '' },
        ]}
        empty={<p className="dash-muted">No refunds or reversals.</p>}
      />
      <SimpleTable
        label="Disputes"
        wrapClassName="donation-disputes"
        rows={disputes}
        columns={[
          { header: 'Opened', cell: (d) => formatDate(d.created_at) },
          { header: 'Amount', cell: (d) => formatPence(d.amount) },
          { header: 'Reason', cell: (d) => disputeReasonLabel(d.reason) },
          { header: 'Status', cell: status },
          { header: 'Dispute fee', cell: (d) => formatPence(d.fee_pence) },
          { header: 'Evidence due', cell: (d) => (d.outcome ? '-' : formatDate(d.evidence_due_by)) },
          {
            header: 'Outcome',
            cell: (d) => (d.outcome ? `${d.outcome === 'won' ? 'Won' : 'Lost'} ${formatDate(d.closed_at)}` : 'Open'),
          },
        ]}
        empty={<p className="dash-muted">No disputes.</p>}
      />
    </Section>
  );
}
