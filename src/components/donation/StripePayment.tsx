import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useState } from 'react';
import type { PaymentStepProps } from './DemoPayment';
import { returnUrl } from './donation-api';
import PaymentActions from './PaymentActions';

const loaders = new Map<string, Promise<Stripe | null>>();
const stripeFor = (key: string) => {
  if (!loaders.has(key)) loaders.set(key, loadStripe(key));
  return loaders.get(key)!;
};

/** The real card step: Stripe's Payment Element, loaded only once a payment session exists. */
export default function StripePayment(props: PaymentStepProps) {
  if (!props.publishableKey) {
    return (
      <p className="form-error" role="alert">
        Card payments are not set up on this site yet. Please try again later.
      </p>
    );
  }
  return (
    <Elements
      stripe={stripeFor(props.publishableKey)}
      options={{ clientSecret: props.clientSecret, appearance: { theme: 'stripe' } }}
    >
      <CardForm {...props} />
    </Elements>
  );
}

function CardForm({ amount, type, onSuccess, onBack }: PaymentStepProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setError(null);
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: returnUrl() },
      redirect: 'if_required',
    });
    setBusy(false);
    if (result.error) {
      // Card and validation errors carry a message meant for the payer; others get a plain one.
      setError(result.error.message ?? 'Your payment could not be completed. Please try again.');
      // A field left wrong (a sort code, an account number): Stripe marks and describes it inside its
      // own frame, out of our reach, so the focus goes back into the element rather than staying on Pay.
      if (result.error.type === 'validation_error') elements.getElement('payment')?.focus();
      return;
    }
    // A Direct Debit is submitted, not yet paid: the thank-you says so.
    onSuccess(result.paymentIntent?.status);
  }

  return (
    <form className="payment-form" onSubmit={pay}>
      {/* Wallets (Apple Pay, Google Pay) show where the device, the browser and the Stripe account offer them. */}
      <PaymentElement options={{ layout: 'accordion', wallets: { applePay: 'auto', googlePay: 'auto' } }} />
      <PaymentActions amount={amount} type={type} error={error} busy={busy} payDisabled={!stripe} onBack={onBack} />
    </form>
  );
}
