import { formatDateTime } from '../../lib/dates';
import { Section } from '../../ui/primitives';
import { SimpleTable } from '../../ui/SimpleTable';
import type { DonationStory } from './story';
import { actionLabel, auditValue } from './labels';

type Entry = DonationStory['history'][number];

function Changes({ entry }: { entry: Entry }) {
  const changes = Object.entries(entry.changes);
  if (!changes.length) return '-';
  return (
    <ul className="donation-changes">
      {changes.map(([field, [before, after]]) => (
        <li key={field}>
          <span className="donation-change-field">{field.replace(/_/g, ' ')}</span>: {auditValue(before, field)} →{' '}
          {auditValue(after, field)}
        </li>
      ))}
    </ul>
  );
}

/** The gift's audit log, newest first: who did what, the fields before and after, and when. */
export function AuditHistory({ entries }: { entries: DonationStory['history'] }) {
  const newestFirst = [...entries].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <Section title="History">
      <SimpleTable
        label="History of this gift"
        className="donation-history"
        rows={newestFirst}
        columns={[
          { header: 'When', className: 'donation-history-when', cell: (e) => formatDateTime(e.at) },
          {
            header: 'Who',
            cell: (e) => e.actor_email ?? (e.actor_id ? 'A deleted user' : 'Stripe (webhook)'),
          },
          {
            header: 'What',
            cell: (e) => (
              <>
                {actionLabel(e.action)}
                {e.note ? <span className="dash-hint"> {e.note}</span> : null}
              </>
            ),
          },
          { header: 'Changes', cell: (e) => <Changes entry={e} /> },
        ]}
        empty={<p className="dash-muted">No changes recorded for this gift yet.</p>}
      />
    </Section>
  );
}
