import { useEffect, useId, useState } from 'react';
import { parsePounds, penceToPoundsField } from '../../lib/format';
import { useAppealOptions, useCampaignOptions } from '../forms/use-options';
import { exportPath, journalPath, type ListView } from '../lib/list-query';
import type { Resource } from '../lib/routes';
import { JournalCodesNote } from './JournalCodesNote';
import { FilterBar, FilterDates, FilterInput, FilterSearch, FilterSelect, useCsvDownload } from '../ui/FilterBar';

/** Filter changes are functions of the filters in the URL when they apply, not of this render's copy. */
type FilterChange = (current: Record<string, string>) => Record<string, string>;
type Props = { resource: Resource; view: ListView; onFilters: (change: FilterChange) => void };

const DONATION_STATUSES = ['succeeded', 'processing', 'pending', 'failed', 'refunded', 'abandoned'].map((s) => ({
  value: s,
  label: s[0].toUpperCase() + s.slice(1),
}));
const GIFT_TYPES = [
  { value: 'once', label: 'One-off' },
  { value: 'monthly', label: 'Monthly' },
];
const USER_TYPES = [
  { value: 'donor', label: 'Donors' },
  { value: 'org_admin', label: 'Organization admins' },
  { value: 'admin', label: 'Admins' },
];
const SEARCH_HINT: Record<Resource, string> = {
  donations: 'Search donor name or email',
  donors: 'Search name or email',
  organizations: 'Search organizations',
};

/** Pence in the URL, pounds in the box. */
/** A filter's pence (from the URL) as the pounds field shows it. */
const penceToPounds = (pence: string | undefined) => (pence ? penceToPoundsField(Number(pence)) : '');

/**
 * Search, filters and CSV export above an admin list. Filters apply as they change (search after
 * a short pause); every change goes to the URL through onFilters.
 */
export function ListToolbar({ resource, view, onFilters }: Props) {
  const id = useId();
  const f = view.filters;
  const [search, setSearch] = useState(f.search ?? '');
  const [minPounds, setMinPounds] = useState(penceToPounds(f.amount_min));
  const [maxPounds, setMaxPounds] = useState(penceToPounds(f.amount_max));
  const csv = useCsvDownload();
  const set = (key: string, value: string) => onFilters((current) => ({ ...current, [key]: value }));
  const filter = (key: string) => ({ value: f[key] ?? '', onChange: (value: string) => set(key, value) });

  useEffect(() => setSearch(f.search ?? ''), [f.search]);
  useEffect(() => {
    if (search === (f.search ?? '')) return;
    const timer = setTimeout(() => set('search', search.trim()), 350);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  const campaigns = useCampaignOptions(resource === 'donations');
  const appeals = useAppealOptions(resource === 'donations' ? (f.campaign_id ?? '') : '');
  const inverted = Boolean(f.date_from && f.date_to && f.date_to < f.date_from);
  const amountProblem = (text: string) => text.trim() !== '' && parsePounds(text) === null;
  // Both boxes as the person typed them: a Max under the Min is said here, not left to the list's 400.
  const minPence = parsePounds(minPounds);
  const maxPence = parsePounds(maxPounds);
  const amountsInverted =
    minPounds.trim() !== '' && maxPounds.trim() !== '' && minPence !== null && maxPence !== null && maxPence < minPence;
  const amountsUnreadable = amountProblem(minPounds) || amountProblem(maxPounds);

  // Both boxes apply together, so a Max held back while it was under the Min goes once the Min is mended.
  const applyAmounts = () => {
    if (amountsUnreadable || amountsInverted) return;
    const amount_min = minPence === null ? '' : String(minPence);
    const amount_max = maxPence === null ? '' : String(maxPence);
    if ((f.amount_min ?? '') !== amount_min || (f.amount_max ?? '') !== amount_max)
      onFilters((current) => ({ ...current, amount_min, amount_max }));
  };
  const amountBox = (label: string, text: string, setText: (v: string) => void) => (
    <FilterInput
      label={label}
      className="dash-input-amount"
      inputMode="decimal"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onApply={applyAmounts}
      applyOnBlur
      aria-invalid={amountProblem(text) || amountsInverted || undefined}
      aria-describedby={amountProblem(text) || amountsInverted ? `${id}-amount-error` : undefined}
    />
  );

  // The accounts journal covers the chosen days, whatever the other filters say. Its buttons stay
  // enabled (a disabled one leaves the tab order and says nothing): without both days, a press says
  // what to choose and takes the focus to From.
  const [journalAsked, setJournalAsked] = useState(false);
  const datesChosen = journalPath(view) !== null;
  const exportCsv = (path = exportPath(resource, view)) => csv.save(path, `${resource}.csv`);
  const exportJournal = (format: 'xero' | 'sage') => {
    const path = journalPath(view, format);
    if (path) return exportCsv(path);
    setJournalAsked(true);
    document
      .querySelector<HTMLInputElement>(`[role="search"][aria-label="Search and filter ${resource}"] input[type="date"]`)
      ?.focus();
  };
  const journalButton = (format: 'xero' | 'sage', name: string) => (
    <button
      type="button"
      className="btn btn-outline dash-btn-sm"
      onClick={() => exportJournal(format)}
      aria-describedby={journalAsked && !datesChosen ? `${id}-journal-hint` : undefined}
    >
      {`Journal for ${name} (CSV)`}
    </button>
  );

  return (
    <FilterBar
      label={`Search and filter ${resource}`}
      problem={
        inverted ? (
          <p className="dash-field-error" id={`${id}-to-error`}>
            The “To” date must be on or after the “From” date.
          </p>
        ) : amountsUnreadable || amountsInverted ? (
          <p className="dash-field-error" id={`${id}-amount-error`} role="alert">
            {amountsUnreadable
              ? 'Type amounts in pounds, like 25 or 12.50.'
              : 'The Max £ must be at least the Min £: the list still shows the last amounts that made sense.'}
          </p>
        ) : journalAsked && !datesChosen ? (
          <p className="dash-field-error" id={`${id}-journal-hint`} role="alert">
            Choose the From and To dates of the journal first: for a month, its first and last day.
          </p>
        ) : null
      }
      active={Object.keys(f).length > 0}
      foldOnPhones={resource === 'donations'}
      foldedInUse={Object.keys(f).some((key) => key !== 'search')}
      onClear={() => {
        setMinPounds('');
        setMaxPounds('');
        onFilters(() => ({}));
      }}
      onExport={() => exportCsv()}
      moreActions={
        resource === 'donations' ? (
          <>
            {journalButton('xero', 'Xero')}
            {journalButton('sage', 'Sage')}
          </>
        ) : null
      }
      note={resource === 'donations' ? <JournalCodesNote /> : null}
      exportStatus={csv.status}
    >
      <FilterSearch
        placeholder={SEARCH_HINT[resource]}
        value={search}
        onChange={setSearch}
        onApply={() => set('search', search.trim())}
      />
      {resource === 'donors' ? <FilterSelect label="Type" {...filter('type')} any="All" options={USER_TYPES} /> : null}
      {resource === 'donations' ? (
        <>
          <FilterSelect
            label="Campaign"
            value={f.campaign_id ?? ''}
            onChange={(campaignId) => onFilters((current) => ({ ...current, campaign_id: campaignId, appeal_id: '' }))}
            any="All campaigns"
            names
            options={
              f.campaign_id && !campaigns.some((c) => c.value === f.campaign_id)
                ? [...campaigns, { value: f.campaign_id, label: 'Selected campaign' }]
                : campaigns
            }
          />
          <FilterSelect
            label="Appeal"
            {...filter('appeal_id')}
            any={f.campaign_id ? 'All appeals' : 'Choose a campaign first'}
            options={appeals}
            disabled={!f.campaign_id}
            names
          />
          <FilterSelect label="Status" {...filter('status')} any="Any status" options={DONATION_STATUSES} />
          <FilterSelect label="Type" {...filter('type')} any="One-off and monthly" options={GIFT_TYPES} />
          <FilterDates
            from={f.date_from ?? ''}
            to={f.date_to ?? ''}
            onFrom={(v) => set('date_from', v)}
            onTo={(v) => set('date_to', v)}
            problemId={`${id}-to-error`}
          />
          {amountBox('Min £', minPounds, setMinPounds)}
          {amountBox('Max £', maxPounds, setMaxPounds)}
        </>
      ) : null}
    </FilterBar>
  );
}
