import { useStore } from '@nanostores/react';
import { lazy, Suspense, useMemo, useRef } from 'react';
import { client } from '../../lib/api';
import { formatPence } from '../../lib/format';
import { formatDate } from '../lib/dates';
import { useApiGet } from '../lib/use-api';
import { readsMoney } from '../../../domain/roles';
import { $dashUser, isAdmin } from '../session';
import { Icon } from '../ui/icons';
import { Alert, Spinner, Stat } from '../ui/primitives';
import { ChartsLoading } from '../charts/ChartCard';
import { CampaignCard } from './CampaignCardGrid';
import { GiftAidOverview } from './gift-aid/GiftAidOverview';
import { MailHealth } from './operations/MailHealth';

// The charts (and recharts) load only for those who read the money, in their own chunk.
const InsightCharts = lazy(() => import('../charts/InsightCharts'));

export function Overview() {
  const user = useStore($dashUser);
  const [appeals] = useApiGet('appeals?status=approved&limit=12', (o) =>
    client.api.appeals.$get({ query: { status: 'approved', limit: 12 } }, o),
  );
  // Summed by the server over every gift (net of refunds), not over one page of the list.
  const [mine] = useApiGet('donations/summary', (o) => client.api.donations.summary.$get(undefined, o));
  const items = useMemo(() => (appeals.status === 'ok' ? appeals.data : []), [appeals]);
  const totals = mine.status === 'ok' ? mine.data : null;
  const track = useRef<HTMLUListElement>(null);
  const scroll = (dir: 1 | -1) => {
    const el = track.current;
    if (el) el.scrollBy({ left: dir * el.clientWidth * 0.9, behavior: 'smooth' });
  };

  return (
    <section className="dash-section">
      <h1>Welcome{user?.name?.first_name ? `, ${user.name.first_name}` : ''}</h1>
      <h2 className="dash-h2">Your giving</h2>
      {mine.status === 'error' ? (
        <Alert tone="info">Your donation totals are not available right now: {mine.error.message}</Alert>
      ) : (
        <dl className="dash-stats">
          <Stat label="Total donated">{totals ? formatPence(totals.total) : '…'}</Stat>
          <Stat label="Donations">{totals ? totals.count : '…'}</Stat>
          <Stat label="Monthly payments">{totals ? totals.monthly : '…'}</Stat>
          <Stat label="Last donation">{totals ? formatDate(totals.last_date) : '…'}</Stat>
        </dl>
      )}

      {/* Finance officers read the money too (decision 078): the Gift Aid summary and the charts. */}
      {readsMoney(user) ? <GiftAidOverview /> : null}
      {isAdmin(user) ? <MailHealth /> : null}
      {readsMoney(user) ? (
        <>
          <h2 className="dash-h2">How giving is going</h2>
          <Suspense fallback={<ChartsLoading />}>
            <InsightCharts />
          </Suspense>
        </>
      ) : null}

      <div className="dash-carousel-head">
        <h2 className="dash-h2" id="appeals-carousel">
          Appeals for Campaign
        </h2>
        <div className="dash-carousel-nav">
          <button type="button" className="dash-icon-btn" onClick={() => scroll(-1)} aria-label="Previous appeals">
            <Icon name="chevronLeft" />
          </button>
          <button type="button" className="dash-icon-btn" onClick={() => scroll(1)} aria-label="Next appeals">
            <Icon name="chevronRight" />
          </button>
          <a href="/appeals" className="dash-link">
            View all
          </a>
        </div>
      </div>
      {appeals.status === 'error' ? <Alert>{appeals.error.message}</Alert> : null}
      {appeals.status === 'loading' ? <Spinner /> : null}
      {appeals.status === 'ok' && items.length === 0 ? <p className="dash-empty">No campaigns found</p> : null}
      <ul className="dash-carousel" ref={track} aria-labelledby="appeals-carousel" tabIndex={items.length ? 0 : -1}>
        {items.map((item) => (
          <li key={item._id} className="dash-carousel-item">
            <CampaignCard item={item} />
          </li>
        ))}
      </ul>
    </section>
  );
}
