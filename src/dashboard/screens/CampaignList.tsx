import { useStore } from '@nanostores/react';
import { useId, useMemo, useState } from 'react';
import { FilterSearch, InlineSelect } from '../ui/FilterBar';
import { SEARCH_MAX_CHARS, searchResultsLine } from '../../../domain/search';
import { MAX_PAGE_SIZE } from '../../../domain/limits';
import { client } from '../../lib/api';
import { CAMPAIGN_STATUSES, type CampaignItem } from '../lib/campaign-schema';
import { joinPath, listsOnlyMine, type CampaignKind } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { $location, navigate } from '../router';
import { canCreateCampaigns } from '../../../domain/roles';
import { $dashUser, canFilterStatus, isStaff, viewerOf } from '../session';
import { Icon } from '../ui/icons';
import { Alert, LinkButton, PageHeader, Spinner } from '../ui/primitives';
import { CampaignCardGrid } from './CampaignCardGrid';
import { CreatedNotice } from './CreatedNotice';
import { Pager } from '../ui/Pager';

/** Cards a page of the office's lists (the API's most). */
const LIST_PAGE = MAX_PAGE_SIZE;

/**
 * Spec: 'Active Campaigns' / 'Active Appeals' with Add → path + '-add' and an edit-mode card grid.
 * A donor's appeals list is "My Appeals": only the appeals they started, drafts included; staff see
 * every appeal they may see, with Edit on the ones they may edit, and can narrow it to their own.
 */
export function CampaignList({ kind }: { kind: CampaignKind }) {
  const user = useStore($dashUser);
  if (kind === 'campaign' && user && !canCreateCampaigns(viewerOf(user))) return <CampaignsForStaff />;
  return <CampaignListView kind={kind} />;
}

function CampaignListView({ kind }: { kind: CampaignKind }) {
  const user = useStore($dashUser);
  const { pathname, search } = useStore($location);
  const [status, setStatus] = useState<(typeof CAMPAIGN_STATUSES)[number]>('approved');
  const mineId = useId();
  const staff = isStaff(user);
  const showStatus = canFilterStatus(user);
  // Donors see their own appeals only; staff may narrow the list to theirs. The choice is in the
  // address (?mine=true), so staff's My Appeals entry opens it, and the menu marks what is listed.
  const onlyMine = listsOnlyMine(search);
  const setOnlyMine = (only: boolean) =>
    navigate(`${pathname.replace(/\/+$/, '')}${only ? '?mine=true' : ''}`, { replace: true, keepScroll: true });
  const mine = kind === 'appeal' && (!staff || onlyMine);
  const endpoint = kind === 'campaign' ? '/api/campaigns' : '/api/appeals';
  const listStatus = mine && !showStatus ? ('all' as const) : showStatus ? status : ('approved' as const);
  // The search finds what the public list shows (decision 072): approved items, not only one's own.
  const searchable = !mine && listStatus === 'approved';
  const [typed, setTyped] = useState('');
  const [searched, setSearched] = useState('');
  const q = searchable && searched.trim() ? searched.trim() : undefined;
  // Pages of LIST_PAGE items, from the first again whenever what is listed changes.
  const [page, setPage] = useState(1);
  const listed = `${listStatus}|${mine}|${q ?? ''}`;
  const [pageOf, setPageOf] = useState(listed);
  if (pageOf !== listed) {
    setPageOf(listed);
    setPage(1);
  }
  const query = {
    status: listStatus,
    limit: LIST_PAGE,
    page: page > 1 ? page : undefined,
    mine: mine ? ('true' as const) : undefined,
    q,
  };
  const [state] = useApiGet(
    user === undefined
      ? null
      : `${endpoint}?status=${query.status}&limit=${LIST_PAGE}&page=${page}&mine=${mine}&q=${encodeURIComponent(q ?? '')}`,
    (o) => (kind === 'campaign' ? client.api.campaigns.$get({ query }, o) : client.api.appeals.$get({ query }, o)),
  );
  // Without tiny=true the list answers whole campaigns.
  const items = useMemo(() => (state.status === 'ok' ? (state.data as CampaignItem[]) : []), [state]);
  const label = kind === 'campaign' ? 'Campaign' : 'Appeal';
  const base = pathname.replace(/\/+$/, '');

  return (
    <section className="dash-section">
      <PageHeader
        title={mine ? 'My Appeals' : `Active ${label}s`}
        actions={
          <>
            {staff && kind === 'appeal' ? (
              <div className="dash-inline-field">
                <input id={mineId} type="checkbox" checked={onlyMine} onChange={(e) => setOnlyMine(e.target.checked)} />
                <label htmlFor={mineId}>Only appeals I started</label>
              </div>
            ) : null}
            {showStatus ? (
              <InlineSelect
                label="Status"
                value={status}
                onChange={setStatus}
                options={CAMPAIGN_STATUSES.map((s) => ({ value: s, label: s }))}
              />
            ) : null}
            <LinkButton href={joinPath(base, '-add')} small>
              <Icon name="plus" size={16} /> Add {label}
            </LinkButton>
          </>
        }
      />
      {searchable ? (
        <div className="dash-list-search">
          <FilterSearch
            label={`Search ${label.toLowerCase()}s`}
            placeholder={kind === 'appeal' ? "A title or a fundraiser's name" : "A campaign's title"}
            maxLength={SEARCH_MAX_CHARS}
            value={typed}
            onChange={setTyped}
            onApply={() => setSearched(typed)}
            applyOnBlur
          />
          {q && state.status === 'ok' ? (
            <p className="dash-list-search-summary" role="status">
              {searchResultsLine(items.length, q)}{' '}
              <button
                type="button"
                className="dash-link-btn"
                onClick={() => {
                  setTyped('');
                  setSearched('');
                }}
              >
                Show all
              </button>
            </p>
          ) : null}
        </div>
      ) : null}
      {kind === 'appeal' ? <CreatedNotice /> : null}
      {state.status === 'error' ? <Alert>{state.error.message}</Alert> : null}
      {state.status === 'ok' && mine && items.length === 0 && listStatus !== 'all' ? (
        // Staff's own appeals are listed by the status chosen: a draft of theirs may be under another.
        <p className="dash-empty">
          None of your appeals is {listStatus}. Choose another status, or{' '}
          <a href={joinPath(base, '-add')}>start an appeal</a>.
        </p>
      ) : state.status === 'ok' && mine && items.length === 0 ? (
        <p className="dash-empty">
          You have not started an appeal yet. <a href={joinPath(base, '-add')}>Start one</a> to raise money for a cause
          you care about.
        </p>
      ) : state.status === 'ok' ? (
        <>
          <CampaignCardGrid items={items} basePath={base} />
          {page > 1 || items.length === LIST_PAGE ? (
            <Pager
              label={`${label} pages`}
              info={
                items.length === 0
                  ? `No more ${label.toLowerCase()}s past ${(page - 1) * LIST_PAGE}.`
                  : `${label}s ${(page - 1) * LIST_PAGE + 1}–${(page - 1) * LIST_PAGE + items.length}`
              }
              step={LIST_PAGE}
              hasPrevious={page > 1}
              hasNext={items.length === LIST_PAGE}
              onMove={(by) => setPage((n) => n + by)}
            />
          ) : null}
        </>
      ) : state.status === 'loading' ? (
        <Spinner />
      ) : null}
    </section>
  );
}

/** A donor at /dashboard/active-campaigns: campaigns are run by staff; appeals are theirs to start. */
function CampaignsForStaff() {
  return (
    <section className="dash-section">
      <h1>Campaigns</h1>
      <Alert tone="info">
        <p className="dash-alert-title">Campaigns are set up by the charities' staff.</p>
        <p>
          You can <a href="/dashboard/active-appeals-add">start an appeal</a> under one of them, or see{' '}
          <a href="/dashboard/active-appeals">My Appeals</a>.
        </p>
      </Alert>
    </section>
  );
}
