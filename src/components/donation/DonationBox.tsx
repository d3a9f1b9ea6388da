import {
  EMPTY_SUPPORT,
  SupportMessageFields,
  supportBody,
  supportMessageTooLong,
  type SupportChoice,
} from './SupportMessageFields';
import { type ComponentType, lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { PaymentStepProps } from './DemoPayment';
import { ConsentField, consentBody, FeesLink } from './ConsentField';
import {
  DEFAULT_CHARITY_NAME,
  DIRECT_DEBIT_FIRST_PAYMENT_DAYS,
  DIRECT_DEBIT_MAX_PENCE,
  EMAIL_PATTERN,
  firstCollectionDate,
  formatLongUkDate,
  GIFT_AID_BOOST_TEXT,
  giftAidDeclaration,
  MAX_DONATION_PENCE,
  MIN_DONATION_PENCE,
  withGiftAid,
} from '../../../domain';
import { formatPence, listInWords } from '../../lib/format';
import { CHALLENGE_STATUS } from '../../lib/turnstile';
import TurnstileCheck from '../TurnstileCheck';
import { $user, initAuth } from '../../stores/auth';
import { useIslandStore } from '../../stores/use-island-store';
import {
  fetchPrices,
  type MonthlyPrice,
  PAYMENT_NOT_COMPLETED,
  type PaymentSession,
  paymentReturn,
  poundsToPence,
  myDeclarationDetails,
  showFreshMessages,
  showFreshTotal,
  startDonation,
  type StartDonation,
} from './donation-api';
import { DonorNameFields, donorNameBody, donorNameErrors, EMPTY_NAME, type DonorName } from './DonorNameFields';
import {
  EMPTY_GIFT_AID,
  GiftAidFields,
  giftAidReady as giftAidComplete,
  GiftAidWorth,
  type GiftAidValue,
} from './GiftAidFields';
import { DirectDebitNotice } from './DirectDebitNotice';
import '../../styles/donation.css';

/**
 * The donation box island. Detail pages render it as
 * <DonationBox client:visible campaignId=... appealId=... title=... />.
 * The card step (Stripe's Payment Element, or the demo card) loads only after the server has
 * opened a payment session, so the page's first load stays small.
 */
export type DonationBoxProps = {
  campaignId: string;
  appealId: string | null;
  title: string;
  /** Legal name of the receiving charity, named in the Gift Aid declaration. */
  charityName?: string;
};

/** The card step's code by kind, fetched when a session is opened (Stripe.js's wrapper only in Stripe mode). */
const paymentStepLoaders = {
  stripe: () => import('./StripePayment'),
  demoCard: () => import('./DemoPayment'),
  demoDirectDebit: () => import('./DemoDirectDebit'),
} satisfies Record<string, () => Promise<{ default: ComponentType<PaymentStepProps> }>>;
type PaymentStepKind = keyof typeof paymentStepLoaders;
const lazyPaymentSteps = {
  stripe: lazy(paymentStepLoaders.stripe),
  demoCard: lazy(paymentStepLoaders.demoCard),
  demoDirectDebit: lazy(paymentStepLoaders.demoDirectDebit),
};
/** Steps whose code has arrived, rendered directly: no loading placeholder between the heading and the form. */
const loadedPaymentSteps: Partial<Record<PaymentStepKind, ComponentType<PaymentStepProps>>> = {};

const paymentStepKind = (session: PaymentSession): PaymentStepKind =>
  session.mode === 'stripe' ? 'stripe' : session.method === 'bacs_debit' ? 'demoDirectDebit' : 'demoCard';

/**
 * Fetches the card step's code before the step is shown. Its heading takes the focus, and a keyboard
 * user's next Tab must find the form there: a placeholder (React's Suspense shows its fallback for at
 * least a moment) let the Tab skip to the next section of the page. A chunk that fails to load is
 * left to the lazy step and its fallback.
 */
async function loadPaymentStep(session: PaymentSession) {
  const kind = paymentStepKind(session);
  try {
    loadedPaymentSteps[kind] ??= (await paymentStepLoaders[kind]()).default;
  } catch {
    // The lazy step retries the import when it renders.
  }
}

type Frequency = 'monthly' | 'once';
type Step = 'details' | 'payment' | 'done';

function emailState(value: string): 'empty' | 'valid' | 'invalid' {
  if (!value.trim()) return 'empty';
  return EMAIL_PATTERN.test(value.trim()) ? 'valid' : 'invalid';
}

/** Our side is down or unreachable: say so plainly (the server's message carries a reference). */
export const SERVICE_BUSY =
  'Sorry, our service is very busy right now. Your details are still here: please try again in a minute.';
function busyMessage(result: { statusCode: number; message: string }): string | null {
  if (![0, 503, 504].includes(result.statusCode)) return null;
  const reference = /Reference: ([A-Za-z0-9-]+)/.exec(result.message)?.[1];
  return reference ? `${SERVICE_BUSY} (Reference: ${reference})` : SERVICE_BUSY;
}

function amountProblem(pence: number | null, raw: string): string | null {
  if (!raw.trim()) return null;
  if (pence === null) return 'Enter an amount in pounds, like 10 or 12.50';
  if (pence < MIN_DONATION_PENCE) return 'The minimum donation is £1';
  if (pence > MAX_DONATION_PENCE) return 'The maximum donation is £25,000';
  return null;
}

function directDebitProblem(pence: number | null, method: string, frequency: Frequency): string | null {
  if (method !== 'bacs_debit' || frequency !== 'once' || pence === null) return null;
  return pence > DIRECT_DEBIT_MAX_PENCE
    ? `A Direct Debit can be at most ${formatPence(DIRECT_DEBIT_MAX_PENCE)}; give a larger amount by card`
    : null;
}

export default function DonationBox({
  campaignId,
  appealId,
  title,
  charityName = DEFAULT_CHARITY_NAME,
}: DonationBoxProps) {
  const user = useIslandStore($user, null);
  const id = useId();
  // 'details' on the server and in the first client render (no hydration mismatch); the effect
  // below switches to the thank-you on return from a payment redirect.
  const [step, setStep] = useState<Step>('details');
  const [frequency, setFrequency] = useState<Frequency>('once');
  const [method, setMethod] = useState<'card' | 'bacs_debit'>('card');
  /** The payment's status when the step finished: `processing` for a Direct Debit not yet settled. */
  const [paidStatus, setPaidStatus] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [amount, setAmount] = useState('');
  const [prices, setPrices] = useState<MonthlyPrice[] | null>(null);
  const [priceError, setPriceError] = useState<string | null>(null);
  const [priceId, setPriceId] = useState('');
  const [giftAid, setGiftAid] = useState(false);
  const [support, setSupport] = useState<SupportChoice>(EMPTY_SUPPORT);
  const [keepUpdated, setKeepUpdated] = useState(false);
  const [giftAidDetails, setGiftAidDetails] = useState<GiftAidValue>(EMPTY_GIFT_AID);
  const [name, setName] = useState<DonorName>(EMPTY_NAME);
  // Until the donor types a name of their own, it follows the Gift Aid name.
  const nameTyped = useRef(false);
  const declaration = giftAidDeclaration(charityName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [session, setSession] = useState<PaymentSession | null>(null);
  /** Set when the server asks for the security check (428): the gift is sent again with its token. */
  const [challenge, setChallenge] = useState(false);
  const lastRequest = useRef<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  /** Presses of Donate with something missing: each shows what is missing and focuses the first such field. */
  const [attempts, setAttempts] = useState(0);
  const shownStep = useRef<Step>(step);

  useEffect(() => {
    void initAuth();
    // The box is server-rendered and hydrates as it scrolls into view: what a quick visitor typed
    // before that stays in the fields but not in React's state, so take it up once here.
    const typed = (field: string) => (document.getElementById(`${id}-${field}`) as HTMLInputElement | null)?.value;
    const typedEmail = typed('email');
    const typedAmount = typed('amount');
    if (typedEmail) setEmail(typedEmail);
    if (typedAmount) setAmount(typedAmount);
    // Found by its place, so the server-rendered box carries no extra id (its first-window bytes).
    if (form.current?.querySelector<HTMLInputElement>('.gift-aid input[type="checkbox"]')?.checked) setGiftAid(true);
    const returned = paymentReturn();
    if (returned === 'success') setStep('done');
    else if (returned === 'failed') setError(PAYMENT_NOT_COMPLETED);
  }, []);

  useEffect(() => {
    if (frequency !== 'monthly' || prices) return;
    let live = true;
    void fetchPrices().then((result) => {
      if (!live) return;
      if ('statusCode' in result) setPriceError('Monthly amounts could not be loaded. Please try again later.');
      else setPrices(result);
    });
    return () => {
      live = false;
    };
  }, [frequency, prices]);

  const supportMessage = support.message;
  useEffect(() => {
    // Each new step replaces the focused button: focus its heading (not on first render).
    if (shownStep.current !== step) heading.current?.focus();
    shownStep.current = step;
    // The page may be a cached copy: show the total with this gift in it (a Direct Debit joins it once paid).
    if (step === 'done' && paidStatus !== 'processing') {
      void showFreshTotal(appealId ? 'appeal' : 'campaign', appealId ?? campaignId);
      // Their message of support joins the appeal's list without a reload.
      if (appealId && supportMessage.trim()) void showFreshMessages(appealId, supportMessage);
    }
  }, [step, paidStatus, appealId, campaignId, supportMessage]);

  useEffect(() => {
    if (attempts > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempts]);

  const pence = poundsToPence(amount);
  const amountError = amountProblem(pence, amount) ?? directDebitProblem(pence, method, frequency);
  const emailStatus = user ? 'valid' : emailState(email);
  const emailError =
    emailStatus === 'invalid' || (attempts > 0 && emailStatus === 'empty') ? 'Enter a valid email address' : null;
  const amountMessage =
    amountError ?? (attempts > 0 && !amount.trim() ? 'Enter an amount in pounds, like 10 or 12.50' : null);
  const priceMissing = attempts > 0 && !priceId;
  const giftAidReady = !giftAid || giftAidComplete(giftAidDetails);
  const chosen = frequency === 'once' ? pence !== null && !amountError : Boolean(priceId);
  const nameOk = Object.keys(donorNameErrors(name)).length === 0;
  const canDonate =
    emailStatus === 'valid' && chosen && giftAidReady && nameOk && !supportMessageTooLong(support) && !busy;
  const selectedPrice = useMemo(() => prices?.find((p) => p.id === priceId) ?? null, [prices, priceId]);
  // A disabled Donate button says nothing by itself: name what it still waits for.
  const missing = [
    emailStatus !== 'valid' && 'a valid email',
    !chosen && (frequency === 'once' ? (amount.trim() ? 'a valid amount' : 'an amount') : 'a monthly amount'),
    !giftAidReady && 'your Gift Aid name, house and postcode',
    !nameOk && 'a name without < or >',
    supportMessageTooLong(support) && 'a shorter message',
  ].filter((item): item is string => Boolean(item));

  // A signed-in donor's declaration in force fills what they have not typed yet, once per account
  // (ticked before the session had loaded too).
  const declarationAskedFor = useRef<string | null>(null);
  const signedInEmail = user?.email ?? null;
  useEffect(() => {
    if (!giftAid || !signedInEmail || declarationAskedFor.current === signedInEmail) return;
    declarationAskedFor.current = signedInEmail;
    void myDeclarationDetails().then((known) => {
      if (known) setGiftAidDetails((now) => (now.house || now.postcode ? now : known));
    });
  }, [giftAid, signedInEmail]);

  function changeGiftAid(value: GiftAidValue) {
    setGiftAidDetails(value);
    if (!user && !nameTyped.current) setName({ first_name: value.first_name, last_name: value.last_name });
  }

  function changeName(value: DonorName) {
    nameTyped.current = true;
    setName(value);
  }

  async function donate(event?: React.FormEvent, turnstileToken?: string) {
    event?.preventDefault();
    if (!canDonate) {
      if (!busy) setAttempts((n) => n + 1);
      return;
    }
    const body: StartDonation = {
      ...(user ? {} : { email: email.trim(), ...donorNameBody(name) }),
      ...(frequency === 'once' ? { amount: pence! } : { price: priceId }),
      campaign_id: campaignId,
      appeal_id: appealId,
      giftAid,
      ...(giftAid ? { gift_aid: { ...giftAidDetails, declaration } } : {}),
      ...supportBody(support),
      ...consentBody(keepUpdated),
      ...(method === 'bacs_debit' ? { method } : {}),
    };
    const key = JSON.stringify(body);
    // Going back and pressing Donate again with the same details reuses the open session.
    if (session && lastRequest.current === key) {
      setStep('payment');
      return;
    }
    setBusy(true);
    setError(null);
    setChallenge(false);
    const result = await startDonation(turnstileToken ? { ...body, turnstile_token: turnstileToken } : body);
    if (!('statusCode' in result)) await loadPaymentStep(result);
    setBusy(false);
    if ('statusCode' in result) {
      // Everything the donor typed stays in the form, whatever went wrong.
      setError(busyMessage(result) ?? result.message);
      if (result.statusCode === CHALLENGE_STATUS) setChallenge(true);
      return;
    }
    lastRequest.current = key;
    setSession(result);
    setStep('payment');
  }

  function reset() {
    setSession(null);
    lastRequest.current = null;
    setAmount('');
    setStep('details');
    if (new URLSearchParams(window.location.search).has('donation')) {
      const url = new URL(window.location.href);
      ['donation', 'payment_intent', 'payment_intent_client_secret', 'redirect_status'].forEach((k) =>
        url.searchParams.delete(k),
      );
      window.history.replaceState(null, '', url);
    }
  }

  if (step === 'done') {
    return (
      <section className="donation-box donation-done" aria-label={`Donate to ${title}`}>
        <h2 ref={heading} tabIndex={-1}>
          Thank you for your donation
        </h2>
        <p role="status">
          {session && paidStatus === 'processing'
            ? `Your Direct Debit of ${formatPence(session.amount)}${session.type === 'monthly' ? ' a month' : ''} to ${title} is set up and processing: the bank takes the first payment in about ${DIRECT_DEBIT_FIRST_PAYMENT_DAYS} working days, on or about ${formatLongUkDate(firstCollectionDate(new Date()))}. It counts in the ${appealId ? 'appeal' : 'campaign'}'s total once it is paid, and we email your receipt then.`
            : session
              ? `Your ${session.type === 'monthly' ? 'monthly ' : ''}gift of ${formatPence(session.amount)} to ${title} has been received.`
              : `Your gift to ${title} has been received.`}
        </p>
        {session && paidStatus !== 'processing' && (
          <p data-testid="donation-done-details">
            {giftAid
              ? `With Gift Aid it is worth ${formatPence(withGiftAid(session.amount))}${session.type === 'monthly' ? ' a month' : ''} to the charity. `
              : ''}
            Your receipt is on its way to {user?.email ?? email.trim()}.
          </p>
        )}
        <button type="button" className="btn btn-ghost btn-block" onClick={reset}>
          Make another donation
        </button>
      </section>
    );
  }

  if (step === 'payment' && session) {
    // The Direct Debit's account holder is most often the donor: their name, and the Gift Aid address if given.
    const typedName = user?.name ?? name;
    const accountHolderGuess = {
      name: `${typedName.first_name} ${typedName.last_name}`.trim(),
      line1: giftAid ? `${giftAidDetails.house} ${giftAidDetails.address}`.trim() : '',
      postcode: giftAid ? giftAidDetails.postcode : '',
    };
    const kind = paymentStepKind(session);
    const Payment = loadedPaymentSteps[kind] ?? lazyPaymentSteps[kind];
    return (
      <section className="donation-box" aria-label={`Donate to ${title}`}>
        <h2 ref={heading} tabIndex={-1}>
          {session.type === 'monthly'
            ? `Donate ${formatPence(session.amount)} every month`
            : `Donate ${formatPence(session.amount)}`}
        </h2>
        {session.method === 'bacs_debit' && (
          <DirectDebitNotice charityName={charityName} monthly={session.type === 'monthly'} />
        )}
        <Suspense fallback={<p role="status">Loading the payment form…</p>}>
          <Payment
            clientSecret={session.clientSecret}
            amount={session.amount}
            type={session.type}
            publishableKey={session.publishableKey}
            charityName={charityName}
            accountHolder={accountHolderGuess}
            onSuccess={(status) => {
              setPaidStatus(status ?? null);
              setStep('done');
            }}
            onBack={() => setStep('details')}
          />
        </Suspense>
      </section>
    );
  }

  return (
    <section className="donation-box" aria-label={`Donate to ${title}`}>
      <h2 ref={heading} tabIndex={-1}>
        Donate
      </h2>
      <form ref={form} onSubmit={donate} noValidate>
        <fieldset className="frequency-toggle">
          <legend className="visually-hidden">How often</legend>
          {(
            [
              ['monthly', 'Donate Every Month'],
              ['once', 'Donate Once'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className={frequency === value ? 'is-selected' : undefined}>
              <input
                type="radio"
                name={`${id}-frequency`}
                value={value}
                checked={frequency === value}
                onChange={() => setFrequency(value)}
              />
              {label}
            </label>
          ))}
        </fieldset>

        {!user && (
          <div className="field">
            <label htmlFor={`${id}-email`}>Email</label>
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="email"
              className={`email-input email-${emailError ? 'invalid' : emailStatus}`}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={Boolean(emailError)}
              aria-describedby={emailError ? `${id}-email-error` : undefined}
              placeholder="you@example.com"
            />
            {emailError && (
              <p className="field-error" id={`${id}-email-error`}>
                {emailError}
              </p>
            )}
          </div>
        )}

        {!user && <DonorNameFields id={id} value={name} onChange={changeName} />}

        {frequency === 'once' ? (
          <div className="field">
            <label htmlFor={`${id}-amount`}>Amount (£)</label>
            <div className="amount-input">
              <span aria-hidden="true">£</span>
              <input
                id={`${id}-amount`}
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                aria-invalid={Boolean(amountMessage)}
                aria-describedby={amountMessage ? `${id}-amount-error` : undefined}
                placeholder="10.00"
              />
            </div>
            {amountMessage && (
              <p className="field-error" id={`${id}-amount-error`}>
                {amountMessage}
              </p>
            )}
          </div>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-price`}>Monthly amount</label>
            <select
              id={`${id}-price`}
              value={priceId}
              onChange={(e) => setPriceId(e.target.value)}
              disabled={!prices}
              aria-invalid={priceMissing}
              aria-describedby={priceMissing ? `${id}-price-error` : undefined}
            >
              <option value="">{prices ? 'Choose a monthly amount' : priceError ? 'Unavailable' : 'Loading…'}</option>
              {prices?.map((price) => (
                <option key={price.id} value={price.id}>
                  {formatPence(price.unit_amount)} / month
                </option>
              ))}
            </select>
            {priceError ? (
              <p className="field-error">{priceError}</p>
            ) : (
              priceMissing && (
                <p className="field-error" id={`${id}-price-error`}>
                  Choose a monthly amount
                </p>
              )
            )}
          </div>
        )}

        <fieldset className="payment-method">
          <legend>Pay by</legend>
          {(
            [
              ['card', 'Card or wallet'],
              ['bacs_debit', 'Direct Debit'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className={method === value ? 'is-selected' : undefined}>
              <input
                type="radio"
                name={`${id}-method`}
                value={value}
                checked={method === value}
                onChange={() => setMethod(value)}
              />
              {label}
            </label>
          ))}
        </fieldset>
        {method === 'bacs_debit' && <DirectDebitNotice charityName={charityName} monthly={frequency === 'monthly'} />}

        <div className="gift-aid">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={giftAid}
              onChange={(e) => {
                setGiftAid(e.target.checked);
                // The name typed above is the declaration's name unless the donor says otherwise.
                const typed = user?.name ?? name;
                if (e.target.checked && !giftAidDetails.first_name && !giftAidDetails.last_name)
                  setGiftAidDetails({ ...giftAidDetails, first_name: typed.first_name, last_name: typed.last_name });
              }}
              aria-describedby={`${id}-boost`}
            />
            Gift Aid (UK Only)
          </label>
          <p className="field-hint" id={`${id}-boost`}>
            {GIFT_AID_BOOST_TEXT}.
          </p>
          <GiftAidWorth
            pence={frequency === 'once' ? (amountError ? null : pence) : (selectedPrice?.unit_amount ?? null)}
            monthly={frequency === 'monthly'}
          />
          {giftAid && (
            <GiftAidFields
              value={giftAidDetails}
              onChange={changeGiftAid}
              declaration={declaration}
              idPrefix={id}
              donating
              showErrors={attempts > 0}
            />
          )}
        </div>

        <SupportMessageFields value={support} onChange={setSupport} onAppeal={appealId !== null} />
        <ConsentField id={id} checked={keepUpdated} onChange={setKeepUpdated} />

        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {challenge && <TurnstileCheck action="checkout" onToken={(token) => void donate(undefined, token)} />}
        {missing.length > 0 && (
          <p className="field-hint" id={`${id}-missing`} data-testid="donate-missing">
            To donate, add {listInWords(missing)}.
          </p>
        )}
        {/* Never `disabled`: keyboard users reach it, and pressing it shows what is missing. */}
        <button
          type="submit"
          className="btn btn-primary btn-block"
          aria-disabled={!canDonate || undefined}
          aria-describedby={missing.length > 0 ? `${id}-missing` : undefined}
        >
          {busy
            ? 'Please wait…'
            : selectedPrice && frequency === 'monthly'
              ? `Donate ${formatPence(selectedPrice.unit_amount)} monthly`
              : 'Donate'}
        </button>
        <FeesLink />
      </form>
    </section>
  );
}
