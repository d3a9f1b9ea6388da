import { useEffect, useId, useState } from 'react';
import { api, client, type Data } from '../../lib/api';
import { useApiGet } from '../lib/use-api';

const notifications = client.api.users.me.notifications;
type Prefs = Data<typeof notifications.$get>;

/** My Info: fundraiser email switches; each change saves at once (PUT /api/users/me/notifications). */
export function NotificationSettings() {
  const id = useId();
  const [load] = useApiGet('/api/users/me/notifications', (o) => notifications.$get(undefined, o));
  const [prefs, setPrefs] = useState<Prefs | null>(null);
  const [status, setStatus] = useState<string>('');
  useEffect(() => {
    if (load.status === 'ok') setPrefs(load.data);
  }, [load]);

  async function change(key: keyof Prefs, value: boolean) {
    if (!prefs) return;
    const previous = prefs;
    setPrefs({ ...prefs, [key]: value });
    setStatus('Saving…');
    const res = await api((o) => notifications.$put({ json: { [key]: value } }, o));
    if (res.ok) {
      setPrefs(res.data);
      setStatus('Saved.');
    } else {
      setPrefs(previous);
      setStatus(res.error.message);
    }
  }

  return (
    <fieldset className="dash-fieldset" aria-describedby={`${id}-hint`}>
      <legend>Fundraiser emails</legend>
      <p className="dash-hint" id={`${id}-hint`}>
        For appeals you started. Saved as soon as you change them.
      </p>
      {load.status === 'error' ? <p className="dash-field-error">{load.error.message}</p> : null}
      <label className="dash-check">
        <input
          type="checkbox"
          disabled={!prefs}
          checked={prefs?.appeal_gifts ?? true}
          onChange={(e) => change('appeal_gifts', e.target.checked)}
        />
        Email me when my appeal receives gifts (at most one email an hour)
      </label>
      <label className="dash-check">
        <input
          type="checkbox"
          disabled={!prefs}
          checked={prefs?.appeal_milestones ?? true}
          onChange={(e) => change('appeal_milestones', e.target.checked)}
        />
        Email me when my appeal reaches half of its goal, and when it reaches its goal
      </label>
      <p className="dash-hint" role="status">
        {status}
      </p>
    </fieldset>
  );
}
