import { useEffect, useState } from 'react';
import { formatPence } from '../../lib/format';
import { api, client, type Data } from '../../lib/api';
import { useApiGet } from '../lib/use-api';

type StaffMessage = Data<typeof client.api.messages.$get>[number];

/** On a donation's edit screen: its message of support, with Hide / Show for staff. */
export function SupportMessagePanel({ donationId }: { donationId: string }) {
  const [load] = useApiGet(`/api/messages?donation_id=${encodeURIComponent(donationId)}`, (o) =>
    client.api.messages.$get({ query: { donation_id: donationId } }, o),
  );
  const [message, setMessage] = useState<StaffMessage | null>(null);
  const [status, setStatus] = useState('');
  useEffect(() => {
    if (load.status === 'ok') setMessage(load.data[0] ?? null);
  }, [load]);
  if (!message) return null;

  async function toggle() {
    if (!message) return;
    setStatus('Saving…');
    // hc puts path parameters in as they are, so the id is encoded here.
    const param = { id: encodeURIComponent(message._id) };
    const res = await api((o) => client.api.messages[':id'].$put({ param, json: { hidden: !message.hidden } }, o));
    if (res.ok) {
      setMessage(res.data);
      setStatus(res.data.hidden ? 'Hidden from the appeal page.' : 'Shown on the appeal page.');
    } else setStatus(res.error.message);
  }

  return (
    <fieldset className="dash-fieldset">
      <legend>Message of support</legend>
      <blockquote className="dash-support-quote">{message.message}</blockquote>
      <p className="dash-hint">
        Shown as <strong>{message.name}</strong>
        {message.hide_amount ? ' without the amount' : ` with ${formatPence(message.amount)}`}
        {message.hidden ? '. Hidden by staff.' : '.'}
      </p>
      <div>
        <button type="button" className="btn btn-outline dash-btn-sm" onClick={toggle}>
          {message.hidden ? 'Show message' : 'Hide message'}
        </button>
      </div>
      <p className="dash-hint" role="status">
        {status}
      </p>
    </fieldset>
  );
}
