import { useId, useState } from 'react';
import { confirmDemo } from './donation-api';
import PaymentActions from './PaymentActions';

export type PaymentStepProps = {
  clientSecret: string;
  amount: number;
  type: 'once' | 'monthly';
  publishableKey: string | null;
  /** The charity collecting the gift, as a Direct Debit's mandate names it. */
  charityName: string;
  /** What the box already knows of the Direct Debit's account holder (the donor's name, a Gift Aid address). */
  accountHolder?: { name: string; line1: string; postcode: string };
  /** `processing`: a Direct Debit submitted to the bank and not yet settled. */
  onSuccess: (status?: string) => void;
  onBack: () => void;
};

const DECLINE_CARD = '4000000000000002';

/** Demo payments mode: a labelled stand-in for the card form that confirms through the server. */
export default function DemoPayment({ clientSecret, amount, type, onSuccess, onBack }: PaymentStepProps) {
  const [card, setCard] = useState('4242 4242 4242 4242');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const result = await confirmDemo(clientSecret, card.replace(/\s/g, '') === DECLINE_CARD ? 'decline' : 'success');
    setBusy(false);
    if ('statusCode' in result) setError(result.message);
    else onSuccess();
  }

  return (
    <form className="payment-form demo-payment" onSubmit={pay} aria-describedby={`${id}-note`}>
      <p className="demo-badge" id={`${id}-note`}>
        <strong>Demo mode: no card is charged.</strong> Payments are simulated on this server.
      </p>
      <label htmlFor={`${id}-card`}>Card number</label>
      <input
        id={`${id}-card`}
        inputMode="numeric"
        autoComplete="off"
        value={card}
        onChange={(e) => setCard(e.target.value)}
        aria-describedby={`${id}-hint`}
      />
      <p className="field-hint" id={`${id}-hint`}>
        Use 4242 4242 4242 4242 to succeed, or 4000 0000 0000 0002 to see a declined card.
      </p>
      <div className="demo-row">
        <div>
          <label htmlFor={`${id}-exp`}>Expiry</label>
          <input id={`${id}-exp`} defaultValue="12 / 34" autoComplete="off" />
        </div>
        <div>
          <label htmlFor={`${id}-cvc`}>CVC</label>
          <input id={`${id}-cvc`} defaultValue="123" autoComplete="off" inputMode="numeric" />
        </div>
      </div>
      <PaymentActions amount={amount} type={type} error={error} busy={busy} onBack={onBack} />
    </form>
  );
}
