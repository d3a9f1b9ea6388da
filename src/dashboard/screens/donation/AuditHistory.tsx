import type { DonationStory } from './story';
import { actionLabel, auditValue } from './labels';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' });

/** The gift's audit log, newest first: who did what, the fields before and after, and when. */
export function AuditHistory({ entries }: { entries: DonationStory['history'] }) {
  const newestFirst = [...entries].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <section aria-labelledby="donation-history">
      <h2 className="dash-h2" id="donation-history">
        History
      </h2>
      {newestFirst.length ? (
        <div className="dash-table-wrap">
          <div className="dash-table-scroll">
            <table className="dash-table donation-history" aria-label="History of this gift">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Who</th>
                  <th>What</th>
                  <th>Changes</th>
                </tr>
              </thead>
              <tbody>
                {newestFirst.map((e) => {
                  const changes = Object.entries(e.changes);
                  return (
                    <tr key={e._id}>
                      <td className="donation-history-when">{when(e.at)}</td>
                      <td>{e.actor_email ?? (e.actor_id ? 'A deleted user' : 'Stripe (webhook)')}</td>
                      <td>
                        {actionLabel(e.action)}
                        {e.note ? <span className="dash-hint"> {e.note}</span> : null}
                      </td>
                      <td>
                        {changes.length ? (
                          <ul className="donation-changes">
                            {changes.map(([field, [before, after]]) => (
                              <li key={field}>
                                <span className="donation-change-field">{field.replace(/_/g, ' ')}</span>:{' '}
                                {auditValue(before, field)} → {auditValue(after, field)}
                              </li>
                            ))}
                          </ul>
                        ) : (
                          '-'
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      ) : (
        <p className="dash-muted">No changes recorded for this gift yet.</p>
      )}
    </section>
  );
}
