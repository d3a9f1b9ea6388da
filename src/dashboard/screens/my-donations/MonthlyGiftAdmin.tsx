import { useState } from 'react';
import { formatLongUkDate, formatPence, paymentMethodLabel } from '../../../../domain';
import { api, client } from '../../../lib/api';
import { useApiGet } from '../../lib/use-api';
import { Alert, Badge } from '../../ui/primitives';
import '../../donor-panels.css';

// hc puts path parameters in as they are, so the ids are encoded here.
const managed = client.api['monthly-gifts'][':id'];

/**
 * On a monthly payment's page: the gift it belongs to, and Cancel for its organization's admins
 * (`canCancel`; a finance officer reads the gift but does not cancel it).
 */
export function MonthlyGiftAdmin({
  subscriptionId,
  canCancel = true,
}: {
  subscriptionId: string;
  canCancel?: boolean;
}) {
  const [state, reload] = useApiGet(`/api/monthly-gifts/${encodeURIComponent(subscriptionId)}`, (o) =>
    managed.$get({ param: { id: encodeURIComponent(subscriptionId) } }, o),
  );
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A monthly checkout's gift is recorded when its first payment goes through: none yet is not an error.
  if (state.status === 'error' && state.error.statusCode === 404)
    return <p className="dash-hint">No monthly gift yet: it is set up when the first payment goes through.</p>;
  if (state.status === 'error') return <Alert>{state.error.message}</Alert>;
  if (state.status !== 'ok') return null;
  const gift = state.data;
  const cancel = async () => {
    setBusy(true);
    setError(null);
    const res = await api((o) => managed.cancel.$post({ param: { id: encodeURIComponent(gift._id) } }, o));
    setBusy(false);
    setConfirming(false);
    if (!res.ok) return setError(res.error.message);
    reload();
  };
  return (
    <section className="dash-panel" aria-labelledby="mga-title">
      <h2 id="mga-title">Monthly gift</h2>
      {error ? <Alert>{error}</Alert> : null}
      <p>
        {formatPence(gift.amount)} a month,{' '}
        <Badge tone={gift.status === 'cancelled' ? 'muted' : 'ok'}>
          {gift.status === 'cancelled' ? 'Cancelled' : gift.status === 'paused' ? 'Paused' : 'Active'}
        </Badge>
        {gift.status === 'cancelled' && gift.cancelled_at ? ` on ${formatLongUkDate(new Date(gift.cancelled_at))}` : ''}
        {gift.cancelled_by === 'bank' ? ' (Direct Debit cancelled at the bank)' : ''}
      </p>
      <p>Paid by {paymentMethodLabel(gift.payment_method, gift.bank_last4)}</p>
      {/* Its page was taken down (decision 070): the office decides whether the gift should go on. */}
      {gift.status !== 'cancelled' && !gift.cause.on_site ? (
        <p className="dash-hint">
          What it supports is no longer on the site. The gift still runs until it is cancelled.
        </p>
      ) : null}
      {gift.status !== 'cancelled' && canCancel ? (
        confirming ? (
          <div className="mg-actions">
            <span>Cancel this donor's monthly gift? They will be emailed.</span>
            <button type="button" className="btn btn-danger dash-btn-sm" disabled={busy} onClick={cancel}>
              Yes, cancel the monthly gift
            </button>
            <button type="button" className="btn btn-ghost dash-btn-sm" onClick={() => setConfirming(false)}>
              Back
            </button>
          </div>
        ) : (
          <button type="button" className="btn btn-outline dash-btn-sm" onClick={() => setConfirming(true)}>
            Cancel monthly gift
          </button>
        )
      ) : null}
    </section>
  );
}
