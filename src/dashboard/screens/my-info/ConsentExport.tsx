import { useState } from 'react';
import { client } from '../../../lib/api';
import { $token } from '../../../stores/auth';

/** Admins: download who agreed to email updates (CSV from GET /api/consents/export, sent with the token). */
export function ConsentExport() {
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setError(null);
    const res = await fetch(client.api.consents.export.$path(), { headers: { authorization: `Bearer ${$token.get() ?? ''}` } }).catch(() => null);
    if (!res?.ok) return setError('The export could not be made. Please try again.');
    const url = URL.createObjectURL(await res.blob());
    const a = Object.assign(document.createElement('a'), { href: url, download: 'marketing-consents.csv' });
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <>
      <button type="button" className="btn btn-outline dash-btn-sm" onClick={download}>
        Export email consents
      </button>
      {error ? <span role="alert">{error}</span> : null}
    </>
  );
}
