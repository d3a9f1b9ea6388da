import { useEffect, useId, useState } from 'react';
import { download } from '../../lib/api';
import { parsePounds } from '../../lib/format';
import { useAppealOptions, useCampaignOptions } from '../forms/use-options';
import { exportPath, journalPath, type ListView } from '../lib/list-query';
import type { Resource } from '../lib/routes';
import { $dashToken } from '../session';

/** Filter changes are functions of the filters in the URL when they apply, not of this render's copy. */
type FilterChange = (current: Record<string, string>) => Record<string, string>;
type Props = { resource: Resource; view: ListView; onFilters: (change: FilterChange) => void };

const DONATION_STATUSES = ['succeeded', 'processing', 'pending', 'failed', 'refunded', 'abandoned'];
const SEARCH_HINT: Record<Resource, string> = {
  donations: 'Search donor name or email',
  donors: 'Search name or email',
  organizations: 'Search organizations',
};

/** Pence in the URL, pounds in the box. */
const penceToPounds = (pence: string | undefined) =>
  pence ? (Number(pence) / 100).toFixed(2).replace(/\.00$/, '') : '';

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
  const [exporting, setExporting] = useState<string | null>(null);
  const set = (key: string, value: string) => onFilters((current) => ({ ...current, [key]: value }));

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

  const applyAmount = (key: 'amount_min' | 'amount_max', text: string) => {
    if (amountProblem(text)) return;
    const pence = text.trim() === '' ? '' : String(parsePounds(text));
    if ((f[key] ?? '') !== pence) set(key, pence);
  };

  // The accounts journal covers the chosen days, whatever the other filters say.
  const journal = resource === 'donations' ? journalPath(view) : null;

  async function exportCsv(path = exportPath(resource, view)) {
    setExporting('Preparing your CSV…');
    const saved = await download(path, `${resource}.csv`, { token: $dashToken.get() });
    setExporting(saved.ok ? `Downloaded ${saved.data.name}.` : saved.error.message);
  }

  const active = Object.keys(f).length > 0;
  return (
    <div className="dash-list-toolbar" role="search" aria-label={`Search and filter ${resource}`}>
      <div className="dash-list-filters">
        <div className="dash-field dash-filter-search">
          <label htmlFor={`${id}-search`}>Search</label>
          <input
            id={`${id}-search`}
            className="dash-input dash-input-sm"
            type="search"
            placeholder={SEARCH_HINT[resource]}
            maxLength={40}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') set('search', search.trim());
            }}
          />
        </div>
        {resource === 'donors' ? (
          <div className="dash-field">
            <label htmlFor={`${id}-utype`}>Type</label>
            <select
              id={`${id}-utype`}
              className="dash-input dash-input-sm"
              value={f.type ?? ''}
              onChange={(e) => set('type', e.target.value)}
            >
              <option value="">All</option>
              <option value="donor">Donors</option>
              <option value="org_admin">Organization admins</option>
              <option value="admin">Admins</option>
            </select>
          </div>
        ) : null}
        {resource === 'donations' ? (
          <>
            <div className="dash-field">
              <label htmlFor={`${id}-campaign`}>Campaign</label>
              <select
                id={`${id}-campaign`}
                className="dash-input dash-input-sm"
                value={f.campaign_id ?? ''}
                onChange={(e) => {
                  const campaignId = e.target.value;
                  onFilters((current) => ({ ...current, campaign_id: campaignId, appeal_id: '' }));
                }}
              >
                <option value="">All campaigns</option>
                {campaigns.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
                {f.campaign_id && !campaigns.some((c) => c.value === f.campaign_id) ? (
                  <option value={f.campaign_id}>Selected campaign</option>
                ) : null}
              </select>
            </div>
            <div className="dash-field">
              <label htmlFor={`${id}-appeal`}>Appeal</label>
              <select
                id={`${id}-appeal`}
                className="dash-input dash-input-sm"
                value={f.appeal_id ?? ''}
                onChange={(e) => set('appeal_id', e.target.value)}
                disabled={!f.campaign_id}
              >
                <option value="">{f.campaign_id ? 'All appeals' : 'Choose a campaign first'}</option>
                {appeals.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="dash-field">
              <label htmlFor={`${id}-status`}>Status</label>
              <select
                id={`${id}-status`}
                className="dash-input dash-input-sm"
                value={f.status ?? ''}
                onChange={(e) => set('status', e.target.value)}
              >
                <option value="">Any status</option>
                {DONATION_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s[0].toUpperCase() + s.slice(1)}
                  </option>
                ))}
              </select>
            </div>
            <div className="dash-field">
              <label htmlFor={`${id}-type`}>Type</label>
              <select
                id={`${id}-type`}
                className="dash-input dash-input-sm"
                value={f.type ?? ''}
                onChange={(e) => set('type', e.target.value)}
              >
                <option value="">One-off and monthly</option>
                <option value="once">One-off</option>
                <option value="monthly">Monthly</option>
              </select>
            </div>
            <div className="dash-field">
              <label htmlFor={`${id}-from`}>From</label>
              <input
                id={`${id}-from`}
                className="dash-input dash-input-sm"
                type="date"
                value={f.date_from ?? ''}
                onChange={(e) => set('date_from', e.target.value)}
              />
            </div>
            <div className="dash-field">
              <label htmlFor={`${id}-to`}>To</label>
              <input
                id={`${id}-to`}
                className="dash-input dash-input-sm"
                type="date"
                value={f.date_to ?? ''}
                min={f.date_from}
                onChange={(e) => set('date_to', e.target.value)}
                aria-invalid={inverted || undefined}
                aria-describedby={inverted ? `${id}-to-error` : undefined}
              />
            </div>
            <div className="dash-field">
              <label htmlFor={`${id}-min`}>Min £</label>
              <input
                id={`${id}-min`}
                className="dash-input dash-input-sm dash-input-amount"
                inputMode="decimal"
                value={minPounds}
                onChange={(e) => setMinPounds(e.target.value)}
                onBlur={() => applyAmount('amount_min', minPounds)}
                onKeyDown={(e) => e.key === 'Enter' && applyAmount('amount_min', minPounds)}
                aria-invalid={amountProblem(minPounds) || undefined}
              />
            </div>
            <div className="dash-field">
              <label htmlFor={`${id}-max`}>Max £</label>
              <input
                id={`${id}-max`}
                className="dash-input dash-input-sm dash-input-amount"
                inputMode="decimal"
                value={maxPounds}
                onChange={(e) => setMaxPounds(e.target.value)}
                onBlur={() => applyAmount('amount_max', maxPounds)}
                onKeyDown={(e) => e.key === 'Enter' && applyAmount('amount_max', maxPounds)}
                aria-invalid={amountProblem(maxPounds) || undefined}
              />
            </div>
          </>
        ) : null}
      </div>
      {inverted ? (
        <p className="dash-field-error" id={`${id}-to-error`}>
          The “To” date must be on or after the “From” date.
        </p>
      ) : null}
      <div className="dash-list-actions">
        {active ? (
          <button
            type="button"
            className="btn btn-outline dash-btn-sm"
            onClick={() => {
              setMinPounds('');
              setMaxPounds('');
              onFilters(() => ({}));
            }}
          >
            Clear filters
          </button>
        ) : null}
        <button type="button" className="btn btn-outline dash-btn-sm" onClick={() => exportCsv()}>
          Export CSV
        </button>
        {resource === 'donations' ? (
          <button
            type="button"
            className="btn btn-outline dash-btn-sm"
            onClick={() => journal && exportCsv(journal)}
            disabled={!journal}
            title={journal ? 'Balanced journal of these days for Xero or Sage' : 'Choose the From and To dates first'}
          >
            Journal (CSV)
          </button>
        ) : null}
        <p className="dash-export-status" role="status">
          {exporting}
        </p>
      </div>
    </div>
  );
}
