import { client } from '../../../lib/api';
import { formatPence } from '../../../lib/format';
import { useApiGet } from '../../lib/use-api';
import { Alert, Stat } from '../../ui/primitives';

/** The overview's Gift Aid figures for an admin's (or org admin's) charities. */
export function GiftAidOverview() {
  const [load] = useApiGet('/api/gift-aid/summary', (o) => client.api['gift-aid'].summary.$get(undefined, o));
  if (load.status === 'error')
    return <Alert tone="info">Gift Aid figures are not available right now: {load.error.message}</Alert>;
  const s = load.status === 'ok' ? load.data : null;
  return (
    <>
      <h2 className="dash-h2">
        Gift Aid{' '}
        <a className="dash-link" href="/dashboard/gift-aid">
          Claims
        </a>
      </h2>
      <dl className="dash-stats" aria-label="Gift Aid">
        <Stat label="Gift Aid claimed">{s ? formatPence(s.claimed) : '…'}</Stat>
        <Stat label="Paid by HMRC">{s ? formatPence(s.paid) : '…'}</Stat>
        <Stat label="Still to claim">{s ? formatPence(s.to_claim) : '…'}</Stat>
        <Stat label="Over-claimed to repay">{s ? formatPence(s.adjustments_due) : '…'}</Stat>
      </dl>
    </>
  );
}
