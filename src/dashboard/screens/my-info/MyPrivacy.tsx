import { useEffect, useRef, useState } from 'react';
import { useConfirmFocus } from '../../lib/use-confirm-focus';
import { formatLongUkDate } from '../../../../domain';
import { api, client } from '../../../lib/api';
import { useApiGet } from '../../lib/use-api';
import { Alert } from '../../ui/primitives';
import { logout } from '../../../stores/auth';
import '../../donor-panels.css';

const SOURCES: Record<string, string> = {
  donation_box: 'when you donated',
  sign_up: 'when you signed up',
  my_info: 'here in My Info',
};

/** The account's email-updates consent, as My Info shows it. */
const useConsent = () => useApiGet('/api/me/consent', (o) => client.api.me.consent.$get(undefined, o));
type ConsentLoad = ReturnType<typeof useConsent>[0];

/** My Info: the email-updates consent (give or withdraw) and deleting the account. */
export function MyPrivacy() {
  const [consent, reload] = useConsent();
  // Deleting waits below the consent panel until that has come, so it never moves once shown.
  const settled = consent.status === 'ok' || consent.status === 'error';
  return (
    <>
      <ConsentPanel state={consent} reload={reload} />
      {settled ? <DeleteAccountPanel /> : null}
    </>
  );
}

function ConsentPanel({ state, reload }: { state: ConsentLoad; reload: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (state.status !== 'ok') return state.status === 'error' ? <Alert>{state.error.message}</Alert> : null;
  const c = state.data;
  const toggle = async (consent: boolean) => {
    setBusy(true);
    setError(null);
    const json = consent ? { consent, source: 'my_info' as const, consent_wording: c.wording } : { consent };
    const res = await api((o) => client.api.me.consent.$put({ json }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    reload();
  };
  return (
    <section className="dash-panel" aria-labelledby="consent-title">
      <h2 id="consent-title">Updates by email</h2>
      {error ? <Alert>{error}</Alert> : null}
      {c.consented && c.given ? (
        <>
          <p data-testid="consent-status">
            You agreed on {formatLongUkDate(new Date(c.given.given_at))} {SOURCES[c.given.source] ?? ''} to: “
            {c.given.wording}”
          </p>
          <button type="button" className="btn btn-outline dash-btn-sm" disabled={busy} onClick={() => toggle(false)}>
            Stop email updates
          </button>
        </>
      ) : (
        <>
          <p data-testid="consent-status">
            {c.withdrawn_at ? `You stopped email updates on ${formatLongUkDate(new Date(c.withdrawn_at))}. ` : ''}We do
            not send you updates about our work.
          </p>
          <label className="dash-check">
            <input type="checkbox" checked={false} disabled={busy} onChange={() => toggle(true)} />
            <span>{c.wording}</span>
          </label>
        </>
      )}
    </section>
  );
}

function DeleteAccountPanel() {
  const [step, setStep] = useState<'idle' | 'confirm' | 'code' | 'done'>('idle');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Each step takes the place of the button that opened it: focus goes to the step's safe choice,
  // back to "Delete my account…" when kept, and to the code field once the email is sent.
  const { inside: keepRef, opener: deleteRef } = useConfirmFocus(step === 'confirm');
  const codeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (step === 'code') codeRef.current?.focus();
  }, [step]);

  const ask = async () => {
    setBusy(true);
    setError(null);
    const res = await api((o) => client.api.me.erasure.$post(undefined, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    setStep('code');
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    const res = await api((o) => client.api.me.erasure.confirm.$post({ json: { code } }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    setStep('done');
    // The server already ended every session; this clears the stored token and leaves the dashboard.
    void logout((path) => setTimeout(() => window.location.assign(path), 4000));
  };

  return (
    <section className="dash-panel dash-danger" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete my account</h2>
      {error ? <Alert>{error}</Alert> : null}
      {step === 'done' ? (
        <Alert tone="success">
          Your account is deleted and you are signed out. Your past gifts stay with the causes you supported, without
          your name.
        </Alert>
      ) : (
        <>
          <p>
            We remove your name, email, phone, address and sign-ins, and cancel any monthly gift. Your past gifts stay
            in the totals as anonymous gifts. Gift Aid declarations and claims are kept for six years, as HMRC requires,
            and only our administrators can see them.
          </p>
          {step === 'idle' ? (
            <button
              ref={deleteRef}
              type="button"
              className="btn btn-outline dash-btn-sm"
              onClick={() => setStep('confirm')}
            >
              Delete my account…
            </button>
          ) : null}
          {step === 'confirm' ? (
            <div className="mg-actions">
              <button type="button" className="btn btn-danger dash-btn-sm" disabled={busy} onClick={ask}>
                Email me a code to confirm
              </button>
              <button ref={keepRef} type="button" className="btn btn-ghost dash-btn-sm" onClick={() => setStep('idle')}>
                Keep my account
              </button>
            </div>
          ) : null}
          {step === 'code' ? (
            <form
              className="mg-inline"
              onSubmit={(e) => {
                e.preventDefault();
                if (code.length === 6 && !busy) void confirm();
              }}
            >
              <label htmlFor="erasure-code">Code from the email</label>
              <input
                ref={codeRef}
                id="erasure-code"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                className="dash-input"
                style={{ maxWidth: '9rem' }}
              />
              <button type="submit" className="btn btn-danger dash-btn-sm" disabled={code.length !== 6 || busy}>
                Delete my account
              </button>
            </form>
          ) : null}
        </>
      )}
    </section>
  );
}
