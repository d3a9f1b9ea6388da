import { formatPence } from '../../lib/format';

type Props = {
  amount: number;
  type: 'once' | 'monthly';
  error: string | null;
  busy: boolean;
  /** The pay button also waits for this (Stripe.js still loading). */
  payDisabled?: boolean;
  onBack: () => void;
};

/** The end of a card step, demo or Stripe: what went wrong, Pay (the amount, and how often) and Back. */
export default function PaymentActions({ amount, type, error, busy, payDisabled = false, onBack }: Props) {
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {/* Busy, not `disabled`: a disabled button drops the keyboard focus, and a declined card's message follows. */}
      <button
        type="submit"
        className="btn btn-primary btn-block"
        disabled={payDisabled}
        aria-disabled={busy || undefined}
      >
        {busy ? 'Processing…' : `Pay ${formatPence(amount)}${type === 'monthly' ? ' every month' : ''}`}
      </button>
      <button type="button" className="btn btn-ghost btn-block" onClick={onBack} disabled={busy}>
        Back
      </button>
    </>
  );
}
