import { useStore } from '@nanostores/react';
import { useId, useMemo, useState } from 'react';
import { client } from '../../lib/api';
import { CAMPAIGN_STATUSES, type CampaignItem } from '../lib/campaign-schema';
import { joinPath, type CampaignKind } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { $location } from '../router';
import { $dashUser, canFilterStatus } from '../session';
import { Icon } from '../ui/icons';
import { Alert, PageHeader, Spinner } from '../ui/primitives';
import { CampaignCardGrid } from './CampaignCardGrid';
import { CreatedNotice } from './CreatedNotice';

/** Spec: 'Active Campaigns' / 'Active Appeals' with Add → path + '-add' and an edit-mode card grid. */
export function CampaignList({ kind }: { kind: CampaignKind }) {
  const user = useStore($dashUser);
  const { pathname } = useStore($location);
  const [status, setStatus] = useState<(typeof CAMPAIGN_STATUSES)[number]>('approved');
  const statusId = useId();
  const showStatus = canFilterStatus(user);
  const endpoint = kind === 'campaign' ? '/api/campaigns' : '/api/appeals';
  const query = { status: showStatus ? status : ('approved' as const), limit: 100 };
  const [state] = useApiGet(`${endpoint}?status=${query.status}&limit=100`, (o) =>
    kind === 'campaign' ? client.api.campaigns.$get({ query }, o) : client.api.appeals.$get({ query }, o),
  );
  // Without tiny=true the list answers whole campaigns.
  const items = useMemo(() => (state.status === 'ok' ? (state.data as CampaignItem[]) : []), [state]);
  const label = kind === 'campaign' ? 'Campaign' : 'Appeal';
  const base = pathname.replace(/\/+$/, '');

  return (
    <section className="dash-section">
      <PageHeader
        title={`Active ${label}s`}
        actions={
          <>
            {showStatus ? (
              <div className="dash-inline-field">
                <label htmlFor={statusId}>Status</label>
                <select id={statusId} className="dash-input dash-input-sm" value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
                  {CAMPAIGN_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            <a className="btn btn-primary dash-btn-sm" href={joinPath(base, '-add')}>
              <Icon name="plus" size={16} /> Add {label}
            </a>
          </>
        }
      />
      {kind === 'appeal' ? <CreatedNotice /> : null}
      {state.status === 'error' ? <Alert>{state.error.message}</Alert> : null}
      {state.status === 'ok' ? <CampaignCardGrid items={items} basePath={base} /> : state.status === 'loading' ? <Spinner /> : null}
    </section>
  );
}
