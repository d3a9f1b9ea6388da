import { listInWords } from '../../../lib/format';
import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { SUPPORT_REPLY_PROMISE, SUPPORT_REQUEST_LIMITS } from '../../../../domain/support';
import { api, client, type Data } from '../../../lib/api';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';
import { $dashToken, $dashUser } from '../../session';
import { Alert, Badge, TextArea, TextInput } from '../../ui/primitives';

const support = client.api['support-requests'];
type Sent = Data<typeof support.$get>[number];

/**
 * Contact Support (spec: Full Name, Email read-only, Subject, Message, all required): the message
 * is stored, emailed to the charity and copied to the sender. Earlier messages are listed below.
 */
export function ContactSupport() {
  const user = useStore($dashUser);
  const token = useStore($dashToken);
  const [name, setName] = useState('');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error' | 'info'; text: string } | null>(null);
  const [history, reloadHistory] = useApiGet('/api/support-requests?mine', (o) =>
    support.$get({ query: { status: 'all', limit: 20 } }, o),
  );
  useEffect(() => {
    if (user && !name) setName(`${user.name.first_name} ${user.name.last_name}`.trim());
  }, [user, name]);
  const ready = name.trim() && subject.trim() && message.trim() && user?.email;
  // The disabled button says what it waits for (the spec keeps it disabled until the form is whole).
  const waitingFor = [
    !name.trim() && 'your name',
    !subject.trim() && 'a subject',
    !message.trim() && 'a message',
  ].filter((item): item is string => Boolean(item));
  const waitingId = useId();

  async function send() {
    if (!ready || busy) return;
    setBusy(true);
    setNotice(null);
    const res = await api((o) => support.$post({ json: { name, subject, message } }, o), { token });
    setBusy(false);
    if (!res.ok) return setNotice({ tone: 'error', text: res.error.message });
    setSubject('');
    setMessage('');
    reloadHistory();
    setNotice(
      res.data.email_sent
        ? {
            tone: 'success',
            text: `Thank you. Your message has been sent to our support team and a copy to ${res.data.email}. ${SUPPORT_REPLY_PROMISE}`,
          }
        : {
            tone: 'info',
            text: `Thank you. Your message is saved for our support team, but the email copy could not be sent just now. ${SUPPORT_REPLY_PROMISE}`,
          },
    );
  }

  const sent = history.status === 'ok' ? history.data : [];
  return (
    <section className="dash-section dash-narrow-500">
      <h1>Contact Support</h1>
      <p className="dash-muted">{SUPPORT_REPLY_PROMISE} We answer at the email address of your account.</p>
      <div aria-live="polite">{notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}</div>
      <form
        className="dash-form"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <TextInput
          label="Full Name"
          value={name}
          onChange={setName}
          required
          autoComplete="name"
          maxLength={SUPPORT_REQUEST_LIMITS.name}
        />
        <TextInput label="Email" type="email" value={user?.email ?? ''} onChange={() => undefined} readOnly required />
        <TextInput
          label="Subject"
          value={subject}
          onChange={setSubject}
          required
          maxLength={SUPPORT_REQUEST_LIMITS.subject}
        />
        <TextArea
          label="Message/Inquiry"
          value={message}
          onChange={setMessage}
          required
          rows={6}
          maxLength={SUPPORT_REQUEST_LIMITS.message}
        />
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!ready || busy}
          aria-describedby={waitingFor.length ? waitingId : undefined}
        >
          {busy ? 'Sending…' : 'Send Message'}
        </button>
        {waitingFor.length ? (
          <p className="dash-hint" id={waitingId} data-testid="send-waiting">
            To send, add {listInWords(waitingFor)}.
          </p>
        ) : null}
      </form>
      {sent.length ? <SentMessages items={sent} /> : null}
    </section>
  );
}

function SentMessages({ items }: { items: Sent[] }) {
  return (
    <>
      <h2 className="dash-h2">Your messages</h2>
      <ul className="dash-support-list">
        {items.map((m) => (
          <li key={m._id} className="dash-support-item">
            <div className="dash-support-head">
              <strong>{m.subject}</strong>
              {m.handled_at ? <Badge tone="ok">Answered</Badge> : <Badge tone="warn">Waiting for a reply</Badge>}
            </div>
            <span className="dash-muted">Sent {formatDate(m.created_at)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
