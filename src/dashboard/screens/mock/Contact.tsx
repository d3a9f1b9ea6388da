import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $dashUser } from '../../session';
import { Alert, TextArea, TextInput } from '../../ui/primitives';

/** Spec mock-up: no call is made; the form only checks the required fields. */
export function Contact() {
  const user = useStore($dashUser);
  const [name, setName] = useState('');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState(false);
  useEffect(() => {
    if (user && !name) setName(`${user.name.first_name} ${user.name.last_name}`.trim());
  }, [user, name]);
  const ready = name.trim() && subject.trim() && message.trim() && user?.email;
  return (
    <section className="dash-section dash-narrow-500">
      <h1>Contact Support</h1>
      <p className="dash-muted">We reply within 24-48 hours.</p>
      {sent ? <Alert tone="success">Thanks, your message is noted. We reply within 24-48 hours.</Alert> : null}
      <form
        className="dash-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) setSent(true);
        }}
      >
        <TextInput label="Full Name" value={name} onChange={setName} required autoComplete="name" />
        <TextInput label="Email" type="email" value={user?.email ?? ''} onChange={() => undefined} readOnly required />
        <TextInput label="Subject" value={subject} onChange={setSubject} required />
        <TextArea label="Message/Inquiry" value={message} onChange={setMessage} required rows={6} />
        <button type="submit" className="btn btn-primary" disabled={!ready}>
          Send Message
        </button>
      </form>
    </section>
  );
}
