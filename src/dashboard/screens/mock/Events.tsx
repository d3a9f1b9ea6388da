import { useId, useMemo, useState } from 'react';
import { formatDate } from '../../lib/dates';
import { attendedEvents, nextEvents, type EventItem } from '../../mock-data';
import { Icon } from '../../ui/icons';
import { Alert, Badge } from '../../ui/primitives';

function inRange(item: EventItem, from: string, to: string, q: string) {
  if (q && !`${item.title} ${item.place} ${item.country}`.toLowerCase().includes(q.toLowerCase())) return false;
  if (from && item.date < from) return false;
  if (to && item.date > to) return false;
  return true;
}

function EventList({ title, items, attended }: { title: string; items: EventItem[]; attended?: boolean }) {
  return (
    <div>
      <h2 className="dash-h2">{title}</h2>
      {items.length === 0 ? (
        <p className="dash-empty">No events match these filters.</p>
      ) : (
        <ul className="dash-event-list">
          {items.map((e) => (
            <li key={e.id} className="dash-event">
              <div className="dash-event-date" aria-hidden="true">
                <span>{new Date(e.date).toLocaleString('en-GB', { month: 'short' })}</span>
                <strong>{new Date(e.date).getDate()}</strong>
              </div>
              <div className="dash-stack">
                <strong>{e.title}</strong>
                <span className="dash-muted">
                  {formatDate(e.date)}, {e.time} · {e.place}, {e.country}
                </span>
              </div>
              {attended ? <Badge tone="muted">Attended</Badge> : <Badge>Registration open</Badge>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Spec mock-up: Events & Volunteering with search, date range and Exports. */
export function Events() {
  const [q, setQ] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const ids = { q: useId(), from: useId(), to: useId() };
  // Dated from today, so "Next Events" are always ahead and "Attended Events" behind.
  const samples = useMemo(() => ({ next: nextEvents(), attended: attendedEvents() }), []);
  const next = useMemo(() => samples.next.filter((e) => inRange(e, from, to, q)), [samples, q, from, to]);
  const attended = useMemo(() => samples.attended.filter((e) => inRange(e, from, to, q)), [samples, q, from, to]);
  return (
    <section className="dash-section">
      <h1>Events & Volunteering</h1>
      <div className="dash-toolbar">
        <div className="dash-inline-field">
          <label htmlFor={ids.q} className="visually-hidden">
            Search events
          </label>
          <Icon name="search" size={16} />
          <input
            id={ids.q}
            className="dash-input dash-input-sm"
            type="search"
            placeholder="Search events"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </div>
        <div className="dash-inline-field">
          <label htmlFor={ids.from}>From</label>
          <input
            id={ids.from}
            className="dash-input dash-input-sm"
            type="date"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="dash-inline-field">
          <label htmlFor={ids.to}>To</label>
          <input
            id={ids.to}
            className="dash-input dash-input-sm"
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        </div>
        <button
          type="button"
          className="btn btn-outline dash-btn-sm"
          onClick={() => setNotice('Export is not available in this preview.')}
        >
          <Icon name="download" size={16} /> Exports
        </button>
      </div>
      {notice ? <Alert tone="info">{notice}</Alert> : null}
      <EventList title="Next Events" items={next} />
      <EventList title="Attended Events" items={attended} attended />
    </section>
  );
}
