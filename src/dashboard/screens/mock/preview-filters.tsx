import { useState } from 'react';
import { FilterInput } from '../../ui/FilterBar';
import { Icon } from '../../ui/icons';
import { Alert } from '../../ui/primitives';

export type PreviewFilters = ReturnType<typeof usePreviewFilters>;

/** The search text and date range of a mock-up screen's sample rows, and the notice its buttons show. */
export function usePreviewFilters() {
  const [q, setQ] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  /** Whether a row of that date, whose searchable text is `text`, passes the filters. */
  const matches = (date: string, text: string) =>
    (!q || text.toLowerCase().includes(q.toLowerCase())) && (!from || date >= from) && (!to || date <= to);
  return { q, setQ, from, setFrom, to, setTo, notice, setNotice, matches };
}

/** From and To dates, then the Exports button the mock-ups show (a preview: it only says so). */
export function DateRangeAndExports({ filters }: { filters: PreviewFilters }) {
  return (
    <>
      <FilterInput
        inline
        label="From"
        type="date"
        value={filters.from}
        onChange={(e) => filters.setFrom(e.target.value)}
      />
      <FilterInput inline label="To" type="date" value={filters.to} onChange={(e) => filters.setTo(e.target.value)} />
      <button
        type="button"
        className="btn btn-outline dash-btn-sm"
        onClick={() => filters.setNotice('Export is not available in this preview.')}
      >
        <Icon name="download" size={16} /> Exports
      </button>
    </>
  );
}

export function PreviewNotice({ filters }: { filters: PreviewFilters }) {
  return filters.notice ? <Alert tone="info">{filters.notice}</Alert> : null;
}
