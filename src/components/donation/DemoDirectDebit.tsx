import { useId, useRef, useState } from 'react';
import {
  ACCOUNT_HOLDER_LIMITS,
  type AccountHolder,
  accountHolderProblems,
  DEMO_ACCOUNT_FAILS,
  DEMO_ACCOUNT_SUCCEEDS,
  DEMO_SORT_CODE,
  formatSortCode,
} from '../../../domain';
import { formatPence } from '../../lib/format';
import type { PaymentStepProps } from './DemoPayment';
import { confirmDemoDirectDebit, type DemoAccount } from './donation-api';
import { TextField } from './TextField';

/** The account holder's fields, in the order the form shows them (the first wrong one gets the focus). */
const HOLDER_FIELDS: { field: keyof AccountHolder; label: string; autoComplete: string; max: number }[] = [
  { field: 'name', label: "Account holder's name", autoComplete: 'name', max: ACCOUNT_HOLDER_LIMITS.name },
  { field: 'line1', label: 'Address line 1', autoComplete: 'address-line1', max: ACCOUNT_HOLDER_LIMITS.line },
  {
    field: 'line2',
    label: 'Address line 2 (optional)',
    autoComplete: 'address-line2',
    max: ACCOUNT_HOLDER_LIMITS.line,
  },
  { field: 'city', label: 'Town or city', autoComplete: 'address-level2', max: ACCOUNT_HOLDER_LIMITS.city },
  { field: 'postcode', label: 'Postcode', autoComplete: 'postal-code', max: 10 },
];

type BankField = 'sortCode' | 'account';

/**
 * What is wrong with the bank details, by field. Demo mode takes only Stripe's test sort code and
 * accounts (the server refuses others), so the form says so under the field rather than after a round trip.
 */
function bankProblems(sortCode: string, account: string): Partial<Record<BankField, string>> {
  const problems: Partial<Record<BankField, string>> = {};
  const sortDigits = sortCode.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(sortDigits)) problems.sortCode = 'Enter a 6-digit sort code';
  else if (sortDigits !== DEMO_SORT_CODE) problems.sortCode = `Use Stripe's test sort code ${DEMO_SORT_CODE}`;
  const accountDigits = account.replace(/\s/g, '');
  if (!/^\d{8}$/.test(accountDigits)) problems.account = 'Enter an 8-digit account number';
  else if (accountDigits !== DEMO_ACCOUNT_SUCCEEDS && accountDigits !== DEMO_ACCOUNT_FAILS)
    problems.account = `Use one of Stripe's test accounts: ${DEMO_ACCOUNT_SUCCEEDS} or ${DEMO_ACCOUNT_FAILS}`;
  return problems;
}

/**
 * Demo payments mode: a labelled stand-in for Stripe's Bacs form, with Stripe's test bank details and
 * the account holder's name and billing address, which Stripe requires for a Bacs mandate.
 */
export default function DemoDirectDebit({
  clientSecret,
  amount,
  type,
  charityName,
  accountHolder,
  onSuccess,
  onBack,
}: PaymentStepProps) {
  const [sortCode, setSortCode] = useState(formatSortCode(DEMO_SORT_CODE));
  const [account, setAccount] = useState(DEMO_ACCOUNT_SUCCEEDS);
  const [holder, setHolder] = useState(false);
  const [details, setDetails] = useState<AccountHolder>({
    name: accountHolder?.name ?? '',
    line1: accountHolder?.line1 ?? '',
    line2: '',
    city: '',
    postcode: accountHolder?.postcode ?? '',
  });
  /** Problems shown once the donor has pressed the button; they update as the fields are corrected. */
  const [checked, setChecked] = useState(false);
  const problems = checked ? accountHolderProblems(details) : {};
  const bank = checked ? bankProblems(sortCode, account) : {};
  const fieldRefs = useRef<Partial<Record<keyof AccountHolder | BankField, HTMLInputElement | null>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const holderBox = useRef<HTMLInputElement>(null);

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    if (busy) return;
    setChecked(true);
    // The first wrong field in the form's order takes the focus; each says what is wrong
    // (aria-describedby), read out as the focus lands on it.
    const bankNow = bankProblems(sortCode, account);
    const holderNow = accountHolderProblems(details);
    const wrong =
      (['sortCode', 'account'] as const).find((field) => bankNow[field]) ??
      HOLDER_FIELDS.find(({ field }) => holderNow[field])?.field;
    if (wrong) {
      setError(null);
      fieldRefs.current[wrong]?.focus();
      return;
    }
    if (!holder) {
      setError('Confirm that you are the account holder and the only person needed to authorise debits from it.');
      holderBox.current?.focus();
      return;
    }
    // bankProblems has checked it is one of the test accounts.
    const accountNumber = account.replace(/\s/g, '') as DemoAccount;
    setBusy(true);
    setError(null);
    const result = await confirmDemoDirectDebit(clientSecret, {
      sort_code: sortCode,
      account_number: accountNumber,
      billing_details: {
        name: details.name.trim(),
        address: {
          line1: details.line1.trim(),
          line2: details.line2?.trim() || null,
          city: details.city.trim(),
          postal_code: details.postcode.trim(),
        },
      },
    });
    setBusy(false);
    if ('statusCode' in result) setError(result.message);
    else onSuccess(result.status);
  }

  return (
    <form className="payment-form demo-payment" onSubmit={pay} aria-describedby={`${id}-note`}>
      <p className="demo-badge" id={`${id}-note`}>
        <strong>Demo mode: no bank account is debited.</strong> The Direct Debit is simulated on this server and settles
        on the next housekeeping run.
      </p>
      <div className="demo-row">
        <div>
          <label htmlFor={`${id}-sort`}>Sort code</label>
          <input
            id={`${id}-sort`}
            ref={(el) => {
              fieldRefs.current.sortCode = el;
            }}
            inputMode="numeric"
            autoComplete="off"
            value={sortCode}
            onChange={(e) => setSortCode(e.target.value)}
            aria-invalid={Boolean(bank.sortCode)}
            aria-describedby={bank.sortCode ? `${id}-sort-error` : undefined}
          />
          {bank.sortCode && (
            <p className="field-error" id={`${id}-sort-error`}>
              {bank.sortCode}
            </p>
          )}
        </div>
        <div>
          <label htmlFor={`${id}-account`}>Account number</label>
          <input
            id={`${id}-account`}
            ref={(el) => {
              fieldRefs.current.account = el;
            }}
            inputMode="numeric"
            autoComplete="off"
            value={account}
            onChange={(e) => setAccount(e.target.value)}
            aria-invalid={Boolean(bank.account)}
            aria-describedby={bank.account ? `${id}-account-error ${id}-hint` : `${id}-hint`}
          />
          {bank.account && (
            <p className="field-error" id={`${id}-account-error`}>
              {bank.account}
            </p>
          )}
        </div>
      </div>
      <p className="field-hint" id={`${id}-hint`}>
        Stripe's test sort code {DEMO_SORT_CODE}: account {DEMO_ACCOUNT_SUCCEEDS} succeeds, {DEMO_ACCOUNT_FAILS} fails
        after it was submitted.
      </p>
      <fieldset className="field account-holder">
        <legend>The account holder</legend>
        {HOLDER_FIELDS.map(({ field, label, autoComplete, max }) => (
          <TextField
            key={field}
            id={`${id}-${field}`}
            label={label}
            narrow={field === 'postcode'}
            inputRef={(el) => {
              fieldRefs.current[field] = el;
            }}
            autoComplete={autoComplete}
            maxLength={max}
            value={details[field] ?? ''}
            onChange={(e) => setDetails({ ...details, [field]: e.target.value })}
            error={problems[field]}
          />
        ))}
      </fieldset>
      {/* Stripe's wording for a mandate form of one's own (its Payment Element shows its own in live mode). */}
      <label className="checkbox">
        <input
          ref={holderBox}
          type="checkbox"
          checked={holder}
          onChange={(e) => setHolder(e.target.checked)}
          aria-invalid={Boolean(error) && !holder}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {`I understand that ${charityName} has partnered with Stripe, who collects Direct Debits on behalf of ${charityName}, and confirm that I am the account holder and the only person required to authorise debits from this account.`}
      </label>
      {error && (
        <p className="form-error" role="alert" id={`${id}-error`}>
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" aria-disabled={busy || undefined}>
        {busy
          ? 'Setting up…'
          : `Set up Direct Debit for ${formatPence(amount)}${type === 'monthly' ? ' every month' : ''}`}
      </button>
      <button type="button" className="btn btn-ghost btn-block" onClick={onBack} disabled={busy}>
        Back
      </button>
    </form>
  );
}
