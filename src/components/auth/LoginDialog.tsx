import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { isApiError } from '../../lib/api';
import { listInWords } from '../../lib/format';
import { CHALLENGE_STATUS } from '../../lib/turnstile';
import { $loginOpen, $loginRequests, closeLogin, isSignedIn, requestCode, verifyCode } from '../../stores/auth';
import TurnstileCheck from '../TurnstileCheck';

import { EMAIL_PATTERN, LOGIN_CODE_LENGTH as CODE_LENGTH, PERSON_NAME_MAX } from '../../../domain';
import { ConsentField, recordSignUpConsent } from '../donation/ConsentField';
import loginStyles from '../../styles/login.css?inline';

// The dialog's rules are adopted when its chunk loads, before it first renders. Imported as a
// stylesheet they would be inlined into every page, since Astro collects the CSS of lazy chunks too.
// (A constructed stylesheet needs no hash in the Content-Security-Policy.)
if (typeof document !== 'undefined' && 'adoptedStyleSheets' in document) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(loginStyles);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** The two-step sign-in dialog (spec sections 2, 4, 5) on a native modal <dialog>. */
export default function LoginDialog() {
  const open = useStore($loginOpen);
  const request = useStore($loginRequests);
  const dialog = useRef<HTMLDialogElement>(null);
  /** The open request the dialog was last shown for. */
  const shownFor = useRef(0);
  const titleId = useId();
  const waitingId = useId();
  const emailInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<0 | 1>(0);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [newUser, setNewUser] = useState(false);
  const [keepUpdated, setKeepUpdated] = useState(false);
  const [loading, setLoading] = useState(false);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState('');
  /** The request waiting for the security check (statusCode 428), sent again with its token. */
  const [challenge, setChallenge] = useState<null | 'send' | 'verify'>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      el.showModal();
      shownFor.current = request;
      // showModal() focuses the first focusable element (the close button): the email field is
      // where the visitor starts. React's autoFocus acts at mount, before the dialog is open.
      emailInput.current?.focus();
    }
    if (!open && el.open) {
      el.close();
      // Signing in replaced the Login button the dialog would give the focus back to, so the focus is
      // left on nothing (or, until the browser notices, on a field of the closed dialog): the account menu takes it.
      const left = document.activeElement;
      if (!left || left === document.body || el.contains(left))
        document.querySelector<HTMLElement>('button.avatar-button')?.focus();
    }
  }, [open, request]);

  // Changing step replaces the focused form: focus goes to the field the new step asks for.
  useEffect(() => {
    if (step === 1) codeInput.current?.focus();
    else if (dialog.current?.open) emailInput.current?.focus();
  }, [step]);

  function reset() {
    setStep(0);
    setEmail('');
    setCode('');
    setFirstName('');
    setLastName('');
    setNewUser(false);
    setNotice('');
    setError('');
    setLoading(false);
    setChallenge(null);
  }

  /** "Use a different email": back to the first step, keeping what was typed. */
  function backToEmail() {
    setStep(0);
    setError('');
  }

  async function sendCode(event?: FormEvent, turnstileToken?: string) {
    event?.preventDefault();
    if (!EMAIL_PATTERN.test(email.trim()) || loading) return;
    setLoading(true);
    setError('');
    setChallenge(null);
    const result = await requestCode(email.trim(), turnstileToken);
    setLoading(false);
    if (isApiError(result) && result.statusCode === CHALLENGE_STATUS) {
      // Past a threshold the server asks for the security check first; the email stays as typed.
      setError(result.message);
      setChallenge('send');
      return;
    }
    // Spec section 4: step 0 moves to step 1 whatever the result. Known and unknown addresses get
    // the same answer: whether the account is new is told only once the code is proven.
    if (isApiError(result)) {
      setError(result.message);
      setNotice('');
    } else {
      setNotice(result.message);
    }
    setNewUser(false);
    setCode('');
    setStep(1);
  }

  async function submitCode(event?: FormEvent, turnstileToken?: string) {
    event?.preventDefault();
    if (!canLogin && !turnstileToken) return;
    setLoading(true);
    setError('');
    setChallenge(null);
    const result = await verifyCode({
      email: email.trim(),
      code,
      ...(newUser ? { first_name: firstName.trim(), last_name: lastName.trim() } : {}),
      ...(turnstileToken ? { turnstile_token: turnstileToken } : {}),
    });
    if (!isApiError(result) && newUser && keepUpdated) await recordSignUpConsent();
    setLoading(false);
    if (isApiError(result)) {
      setError(result.message);
      if (result.statusCode === CHALLENGE_STATUS) setChallenge('verify');
    } else if (isSignedIn(result)) {
      closeLogin();
    } else {
      // The code is right and the address is new: ask for names, keep the code, send both.
      setNewUser(true);
      setNotice(result.message);
    }
  }

  const canNext = EMAIL_PATTERN.test(email.trim()) && !loading;
  const canLogin =
    code.length === CODE_LENGTH && (!newUser || (firstName.trim() !== '' && lastName.trim() !== '')) && !loading;
  // What a disabled Next or Login waits for, beside it and as its description (read when a screen
  // reader meets the dimmed button). Before anything is typed it is a plain instruction, not an error.
  const nextWaitsFor =
    canNext || loading
      ? null
      : email.trim()
        ? 'To continue, add a full email address, like name@example.com.'
        : 'To continue, add your email address.';
  const loginWaitsFor = [
    ...(code.length === CODE_LENGTH ? [] : [`the ${CODE_LENGTH}-digit code`]),
    ...(newUser && !firstName.trim() ? ['a first name'] : []),
    ...(newUser && !lastName.trim() ? ['a last name'] : []),
  ];
  const loginWaiting =
    loading || !loginWaitsFor.length
      ? null
      : `To ${newUser ? 'create your account' : 'log in'}, add ${listInWords(loginWaitsFor)}.`;

  return (
    <dialog
      ref={dialog}
      className="login-dialog"
      aria-labelledby={titleId}
      // Escape closes the dialog at once but says so a task later, after a key the visitor may press
      // meanwhile (Enter on Login, where the focus went back). A request made since it was shown
      // opens it again, so this late 'close' only resets the form.
      onClose={() => {
        reset();
        if (dialog.current?.open || $loginRequests.get() !== shownFor.current) return;
        closeLogin();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, outside the inner panel.
        if (event.target === event.currentTarget) closeLogin();
      }}
    >
      <div className="login-panel">
        <div className="login-head">
          <h2 id={titleId}>{step === 0 ? 'Log in or sign up' : 'Enter your code'}</h2>
          <button type="button" className="icon-btn" aria-label="Close" onClick={closeLogin}>
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {step === 0 ? (
          <form onSubmit={sendCode} noValidate>
            <p className="login-hint">We will email you a {CODE_LENGTH}-digit code. No password needed.</p>
            <label className="field">
              <span>Email address</span>
              <input
                type="email"
                name="email"
                autoComplete="email"
                inputMode="email"
                required
                ref={emailInput}
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </label>
            <button
              type="submit"
              className="btn btn-primary btn-block"
              disabled={!canNext}
              aria-describedby={nextWaitsFor ? waitingId : undefined}
            >
              {loading ? 'Sending…' : 'Next'}
            </button>
            {nextWaitsFor && (
              <p className="login-waiting" id={waitingId}>
                {nextWaitsFor}
              </p>
            )}
          </form>
        ) : (
          <form onSubmit={submitCode} noValidate>
            <p className="login-hint" role="status">
              {notice || `Check ${email.trim()} for a ${CODE_LENGTH}-digit code.`}
            </p>
            <label className="field">
              <span>{CODE_LENGTH}-digit code</span>
              <input
                ref={codeInput}
                name="code"
                autoComplete="one-time-code"
                inputMode="numeric"
                required
                maxLength={CODE_LENGTH}
                value={code}
                onChange={(e) => setCode(e.target.value.slice(0, CODE_LENGTH))}
                className="code-input"
              />
            </label>
            {newUser && (
              <div className="name-fields">
                <NameField label="First name" name="first_name" value={firstName} onChange={setFirstName} />
                <NameField label="Last name" name="last_name" value={lastName} onChange={setLastName} />
                <ConsentField id="signup" checked={keepUpdated} onChange={setKeepUpdated} />
              </div>
            )}
            <button
              type="submit"
              className="btn btn-primary btn-block"
              disabled={!canLogin}
              aria-describedby={loginWaiting ? waitingId : undefined}
            >
              {loading ? 'Checking…' : newUser ? 'Create account' : 'Login'}
            </button>
            {loginWaiting && (
              <p className="login-waiting" id={waitingId}>
                {loginWaiting}
              </p>
            )}
            <div className="login-links">
              <button type="button" className="link-btn" disabled={loading} onClick={backToEmail}>
                Use a different email
              </button>
              <button type="button" className="link-btn" disabled={loading} onClick={() => sendCode()}>
                Send a new code
              </button>
            </div>
          </form>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {challenge && (
          <TurnstileCheck
            key={challenge}
            action={challenge === 'send' ? 'sign-in-code' : 'sign-in'}
            onToken={(token) =>
              challenge === 'send' ? void sendCode(undefined, token) : void submitCode(undefined, token)
            }
          />
        )}
      </div>
    </dialog>
  );
}

/** A new account's first or last name, required, as long as the API accepts. */
function NameField(props: {
  label: string;
  name: 'first_name' | 'last_name';
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        name={props.name}
        autoComplete={props.name === 'first_name' ? 'given-name' : 'family-name'}
        required
        maxLength={PERSON_NAME_MAX}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}
