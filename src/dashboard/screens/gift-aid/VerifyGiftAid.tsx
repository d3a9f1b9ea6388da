import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { api, client } from '../../../lib/api';
import { $dashToken } from '../../session';
import { Alert } from '../../ui/primitives';

/**
 * On a hand-recorded gift's page: check the donor's Gift Aid declaration and mark the gift eligible
 * (the API refuses card gifts, gifts without a covering declaration, and benefits above HMRC's limits).
 * Inside the donation page's Gift Aid panel it drops its own heading; `onVerified` hands the success notice to the page.
 */
export function VerifyGiftAid({
  donationId,
  onVerified,
  embedded = false,
}: {
  donationId: string;
  onVerified?: (message: string) => void;
  embedded?: boolean;
}) {
  const token = useStore($dashToken);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function verify() {
    setNotice(null);
    setBusy(true);
    const res = await api(
      (o) => client.api['gift-aid'].donations[':id'].verify.$post({ param: { id: donationId } }, o),
      { token },
    );
    setBusy(false);
    const verified = 'Gift Aid verified: this gift will be in the next claim.';
    // On the donation page the page shows the notice: this panel goes once the gift is verified.
    if (res.ok && onVerified) return onVerified(verified);
    setNotice(res.ok ? { tone: 'success', text: verified } : { tone: 'error', text: res.error.message });
  }
  const body = (
    <>
      <p className="dash-hint">
        For a gift recorded by hand: once you have checked the donor&apos;s declaration covers this gift, verify it so
        it can be claimed.
      </p>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      <button type="button" className="btn btn-outline" onClick={verify} disabled={busy}>
        {busy ? 'Verifying…' : 'Verify Gift Aid'}
      </button>
    </>
  );
  if (embedded) return <div className="verify-gift-aid">{body}</div>;
  return (
    <section className="dash-section verify-gift-aid" aria-label="Gift Aid for this gift">
      <h2 className="dash-h2">Gift Aid</h2>
      {body}
    </section>
  );
}
