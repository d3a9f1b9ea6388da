import { useState } from 'react';
import { api, client } from '../../../lib/api';

/**
 * "Email receipt again" for one paid gift (its donor in My Donations, staff on the gift's page). The
 * answer stays beside the button: where the copy went, or why none went (the API allows one copy
 * per gift every 10 minutes).
 */
export function ResendReceipt({ donationId, className }: { donationId: string; className?: string }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const send = async () => {
    setBusy(true);
    setResult(null);
    // hc puts path parameters in as they are, so the id is encoded here.
    const res = await api((o) =>
      client.api.donations[':id'].receipt.$post({ param: { id: encodeURIComponent(donationId) } }, o),
    );
    setBusy(false);
    setResult(
      res.ok ? { ok: true, text: `Receipt sent to ${res.data.sent_to}.` } : { ok: false, text: res.error.message },
    );
  };
  return (
    <span className={`resend-receipt ${className ?? ''}`}>
      <button type="button" className="btn btn-outline dash-btn-sm" disabled={busy} onClick={send}>
        {busy ? 'Sending…' : 'Email receipt again'}
      </button>
      <span
        role={result?.ok === false ? 'alert' : 'status'}
        className={result?.ok === false ? 'resend-error' : undefined}
      >
        {result?.text ?? ''}
      </span>
    </span>
  );
}
