import { useState } from 'react';
import { client, download } from '../../../lib/api';

/** Admins: download who agreed to email updates (CSV from GET /api/consents/export, sent with the token). */
export function ConsentExport() {
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    const saved = await download(client.api.consents.export.$path(), 'marketing-consents.csv');
    if (!saved.ok) setError('The export could not be made. Please try again.');
  };
  return (
    <>
      <button type="button" className="btn btn-outline dash-btn-sm" onClick={save}>
        Export email consents
      </button>
      {error ? <span role="alert">{error}</span> : null}
    </>
  );
}
