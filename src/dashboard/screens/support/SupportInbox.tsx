import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { InlineSelect } from '../../ui/FilterBar';
import { api, client, type Data } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { $dashToken, $dashUser, isAdmin } from '../../session';
import { Alert, Badge, PageHeader, Spinner } from '../../ui/primitives';

const support = client.api['support-requests'];
type Message = Data<typeof support.$get>[number];
type Status = 'open' | 'handled' | 'all';

const time = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' });

/** /dashboard/support-inbox: Contact Support messages for admins, open first, each marked handled once answered. */
export function SupportInbox() {
  const user = useStore($dashUser);
  const token = useStore($dashToken);
  const [status, setStatus] = useState<Status>('open');
  const allowed = isAdmin(user);
  const [load, reload] = useApiGet(allowed ? `/api/support-requests?status=${status}` : null, (o) =>
    support.$get({ query: { status, limit: 100 } }, o),
  );
  const [items, setItems] = useState<Message[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (load.status === 'ok') setItems(load.data);
  }, [load]);

  if (user === undefined) return <Spinner />;
  if (!allowed) {
    return (
      <section className="dash-section">
        <h1>Support inbox</h1>
        <Alert tone="info">
          The Support inbox is read by the platform's admins. To ask us something, use{' '}
          <a href="/dashboard/contact">Contact Support</a>.
        </Alert>
      </section>
    );
  }

  async function mark(message: Message, handled: boolean) {
    setNotice(null);
    const res = await api((o) => support[':id'].$put({ param: { id: message._id }, json: { handled } }, o), { token });
    if (!res.ok) return setNotice(res.error.message);
    // Leaves the list it no longer belongs to; stays (updated) in "All".
    setItems((list) =>
      status === 'all'
        ? list.map((m) => (m._id === message._id ? res.data : m))
        : list.filter((m) => m._id !== message._id),
    );
    setNotice(handled ? `Marked “${message.subject}” handled.` : `“${message.subject}” is open again.`);
  }

  const total = load.status === 'ok' ? load.headers.get('x-total-count') : null;
  return (
    <section className="dash-section">
      <PageHeader
        title="Support inbox"
        actions={
          <InlineSelect
            label="Show"
            value={status}
            onChange={setStatus}
            options={[
              { value: 'open', label: 'Open' },
              { value: 'handled', label: 'Handled' },
              { value: 'all', label: 'All' },
            ]}
          />
        }
      />
      <p className="dash-muted">
        Messages sent through Contact Support. Reply by email, then mark the message handled.
      </p>
      <div aria-live="polite">{notice ? <Alert tone="info">{notice}</Alert> : null}</div>
      {load.status === 'error' ? <Alert>{load.error.message}</Alert> : null}
      {load.status === 'loading' ? <Spinner /> : null}
      {load.status === 'ok' && items.length === 0 ? (
        <p className="dash-empty">No {status === 'all' ? '' : `${status} `}messages.</p>
      ) : null}
      <ul className="dash-support-list" aria-label={`Support messages${total ? ` (${total})` : ''}`}>
        {items.map((m) => (
          <li key={m._id} className="dash-support-item">
            <article aria-labelledby={`support-${m._id}`}>
              <div className="dash-support-head">
                <h2 id={`support-${m._id}`} className="dash-support-subject">
                  {m.subject}
                </h2>
                {m.handled_at ? <Badge tone="ok">Handled</Badge> : <Badge tone="warn">Open</Badge>}
              </div>
              <p className="dash-muted">
                From <strong>{m.name}</strong> &lt;
                <a href={`mailto:${m.email}?subject=${encodeURIComponent(`Re: ${m.subject}`)}`}>{m.email}</a>&gt; ·{' '}
                <time dateTime={m.created_at}>
                  {formatDate(m.created_at)} {time(m.created_at)}
                </time>
              </p>
              <p className="dash-support-body">{m.message}</p>
              <div className="dash-support-actions">
                {m.handled_at ? (
                  <>
                    <span className="dash-muted">
                      Handled {formatDate(m.handled_at)}
                      {m.handled_by ? ` by ${m.handled_by}` : ''}
                    </span>
                    <button type="button" className="btn btn-outline dash-btn-sm" onClick={() => void mark(m, false)}>
                      Reopen<span className="visually-hidden"> {m.subject}</span>
                    </button>
                  </>
                ) : (
                  <button type="button" className="btn btn-primary dash-btn-sm" onClick={() => void mark(m, true)}>
                    Mark handled<span className="visually-hidden"> {m.subject}</span>
                  </button>
                )}
              </div>
            </article>
          </li>
        ))}
      </ul>
      {load.status === 'ok' && items.length === 0 ? null : (
        <button type="button" className="btn btn-ghost dash-btn-sm" onClick={reload}>
          Refresh
        </button>
      )}
    </section>
  );
}
