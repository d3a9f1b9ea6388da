import { useId, useMemo } from 'react';
import { formatDate } from '../../lib/dates';
import { attendedEvents, nextEvents, type EventItem } from '../../mock-data';
import { Icon } from '../../ui/icons';
import { Badge } from '../../ui/primitives';
import { DateRangeAndExports, PreviewNotice, usePreviewFilters } from './preview-filters';

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
  const filters = usePreviewFilters();
  const id = useId();
  // Dated from today, so "Next Events" are always ahead and "Attended Events" behind.
  const samples = useMemo(() => ({ next: nextEvents(), attended: attendedEvents() }), []);
  const shown = (items: EventItem[]) =>
    items.filter((e) => filters.matches(e.date, `${e.title} ${e.place} ${e.country}`));
  return (
    <section className="dash-section">
      <h1>Events & Volunteering</h1>
      <div className="dash-toolbar">
        <div className="dash-inline-field">
          <label htmlFor={id} className="visually-hidden">
            Search events
          </label>
          <Icon name="search" size={16} />
          <input
            id={id}
            className="dash-input dash-input-sm"
            type="search"
            placeholder="Search events"
            value={filters.q}
            onChange={(e) => filters.setQ(e.target.value)}
          />
        </div>
        <DateRangeAndExports filters={filters} />
      </div>
      <PreviewNotice filters={filters} />
      <EventList title="Next Events" items={shown(samples.next)} />
      <EventList title="Attended Events" items={shown(samples.attended)} attended />
    </section>
  );
}
