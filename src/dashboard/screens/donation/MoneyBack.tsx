import { formatPence } from '../../../../domain/money';
import { formatDate } from '../../lib/dates';
import { Badge } from '../../ui/primitives';
import type { DonationStory } from './story';
import { disputeReasonLabel, reasonLabel, statusLabel, statusTone } from './labels';

const KIND_LABELS: Record<string, string> = { refund: 'Refund', reversal: 'Reversal', dispute: 'Dispute lost' };

/** Every row that took money back off the gift, and every dispute the card issuer opened. */
export function MoneyBack({ story }: { story: DonationStory }) {
  const { reversals, disputes } = story;
  return (
    <section aria-labelledby="donation-money-back">
      <h2 className="dash-h2" id="donation-money-back">
        Refunds, reversals and disputes
      </h2>
      {reversals.length ? (
        <div className="dash-table-wrap">
          <div className="dash-table-scroll">
            <table className="dash-table" aria-label="Refunds and reversals">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Kind</th>
                  <th>Amount</th>
                  <th>Reason</th>
                  <th>Status</th>
                  <th>Note</th>
                </tr>
              </thead>
              <tbody>
                {reversals.map((r) => (
                  <tr key={r._id}>
                    <td>{formatDate(r.succeeded_at ?? r.created_at)}</td>
                    <td>{KIND_LABELS[r.kind] ?? r.kind}</td>
                    <td>{formatPence(r.amount)}</td>
                    <td>{reasonLabel(r.reason)}</td>
                    <td>
                      <Badge tone={statusTone(r.status)}>{statusLabel(r.status)}</Badge>
                    </td>
                    <td>{r.note ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : (
        <p className="dash-muted">No refunds or reversals.</p>
      )}
      {disputes.length ? (
        <div className="dash-table-wrap donation-disputes">
          <div className="dash-table-scroll">
            <table className="dash-table" aria-label="Disputes">
              <thead>
                <tr>
                  <th>Opened</th>
                  <th>Amount</th>
                  <th>Reason</th>
                  <th>Status</th>
                  <th>Dispute fee</th>
                  <th>Evidence due</th>
                  <th>Outcome</th>
                </tr>
              </thead>
              <tbody>
                {disputes.map((d) => (
                  <tr key={d._id}>
                    <td>{formatDate(d.created_at)}</td>
                    <td>{formatPence(d.amount)}</td>
                    <td>{disputeReasonLabel(d.reason)}</td>
                    <td>
                      <Badge tone={statusTone(d.status)}>{statusLabel(d.status)}</Badge>
                    </td>
                    <td>{formatPence(d.fee_pence)}</td>
                    <td>{d.outcome ? '-' : formatDate(d.evidence_due_by)}</td>
                    <td>{d.outcome ? `${d.outcome === 'won' ? 'Won' : 'Lost'} ${formatDate(d.closed_at)}` : 'Open'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : (
        <p className="dash-muted">No disputes.</p>
      )}
    </section>
  );
}
