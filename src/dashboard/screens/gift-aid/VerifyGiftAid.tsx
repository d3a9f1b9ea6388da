import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { api, client } from '../../../lib/api';
import { $dashToken } from '../../session';
import { Alert } from '../../ui/primitives';

/**
 * On a hand-recorded gift's page: check the donor's Gift Aid declaration and mark the gift eligible
 * (the API refuses card gifts, gifts without a covering declaration, and benefits above HMRC's limits).
 */
export function VerifyGiftAid({ donationId }: { donationId: string }) {
  const token = useStore($dashToken);
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  async function verify() {
    setNotice(null);
    const res = await api((o) => client.api['gift-aid'].donations[':id'].verify.$post({ param: { id: donationId } }, o), { token });
    setNotice(res.ok ? { tone: 'success', text: 'Gift Aid verified: this gift will be in the next claim.' } : { tone: 'error', text: res.error.message });
  }
  return (
    <section className="dash-section verify-gift-aid" aria-label="Gift Aid for this gift">
      <h2 className="dash-h2">Gift Aid</h2>
      <p className="dash-hint">For a gift recorded by hand: once you have checked the donor&apos;s declaration covers this gift, verify it so it can be claimed.</p>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      <button type="button" className="btn btn-outline" onClick={verify}>
        Verify Gift Aid
      </button>
    </section>
  );
}
