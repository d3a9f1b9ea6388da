import { useEffect, useState } from 'react';
import { formatPence } from '../../lib/format';
import { api } from '../lib/api';
import { useApiGet } from '../lib/use-api';

type StaffMessage = { _id: string; name: string; donor: string; message: string; amount: number; hide_amount: boolean; anonymous: boolean; hidden: boolean };

/** On a donation's edit screen: its message of support, with Hide / Show for staff. */
export function SupportMessagePanel({ donationId }: { donationId: string }) {
  const [load] = useApiGet<StaffMessage[]>(`/api/messages?donation_id=${encodeURIComponent(donationId)}`);
  const [message, setMessage] = useState<StaffMessage | null>(null);
  const [status, setStatus] = useState('');
  useEffect(() => {
    if (load.status === 'ok') setMessage(load.data[0] ?? null);
  }, [load]);
  if (!message) return null;

  async function toggle() {
    if (!message) return;
    setStatus('Saving…');
    const res = await api<StaffMessage>(`/api/messages/${encodeURIComponent(message._id)}`, { method: 'PUT', json: { hidden: !message.hidden } });
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
