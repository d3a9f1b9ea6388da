import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { formatPence } from '../../../../domain/money';
import { api, client } from '../../../lib/api';
import { penceToPounds, poundsToPence } from '../../lib/money';
import { useConfirmFocus } from '../../lib/use-confirm-focus';
import { $dashToken } from '../../session';
import { Alert, SelectInput, TextInput } from '../../ui/primitives';
import type { DonationStory } from './story';
import { reasonsFor } from './labels';

/**
 * Refund (card and Direct Debit, through Stripe) or Reverse (offline income) part or all of what
 * remains on the gift. Amounts are typed in pounds and sent in pence; nothing is sent before the
 * confirmation, and one confirmation carries one Idempotency-Key, so a double click is one refund.
 */
export function RefundPanel({
  story,
  offline,
  onDone,
  onReview,
}: {
  story: DonationStory;
  offline: boolean;
  onDone: (message: string) => void;
  onReview?: () => void;
}) {
  const token = useStore($dashToken);
  const verb = offline ? 'Reverse' : 'Refund';
  const reasons = reasonsFor(offline);
  const [amount, setAmount] = useState(penceToPounds(story.remaining_pence));
  // A bounced cheque is a cheque's likely reason; other offline money was more likely entered in error.
  const firstReason = offline && story.payment_method !== 'cheque' ? 'entered_in_error' : reasons[0].value;
  const [reason, setReason] = useState<string>(firstReason);
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState<{ key: string; pence: number } | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // After a refund the default follows what now remains.
  useEffect(() => setAmount(penceToPounds(story.remaining_pence)), [story.remaining_pence]);
  const pence = poundsToPence(amount);
  const donor = story.donation.donor.label;
  // The confirmation replaces the button that opened it: focus moves into it, and back on leaving it.
  const { inside: backRef, opener: reviewRef } = useConfirmFocus(!!confirming);

  const review = () => {
    onReview?.();
    if (pence === null || pence <= 0) return setError('Amount: enter an amount in pounds, e.g. 10 or 12.50');
    // Asked before the confirmation, in pounds: the server's refusal would come only after it.
    if (pence > story.remaining_pence)
      return setError(`Amount: at most ${formatPence(story.remaining_pence)} remains on this gift`);
    setError(null);
    setConfirming({ key: crypto.randomUUID(), pence });
  };

  const send = async () => {
    if (!confirming) return;
    setSending(true);
    setError(null);
    const res = await api(
      (o) =>
        client.api.donations[':id'].refund.$post(
          {
            param: { id: story.donation._id },
            json: { amount: confirming.pence, reason, ...(note.trim() ? { note: note.trim() } : {}) },
            header: { 'idempotency-key': confirming.key },
          },
          o,
        ),
      { token },
    );
    setSending(false);
    if (!res.ok) {
      // No answer (ours, or Stripe's: 504): the refund may have been made. The confirmation stays, so
      // sending it again carries the same Idempotency-Key and cannot refund twice.
      if (res.error.statusCode !== 0 && res.error.statusCode !== 504) setConfirming(null);
      return setError(res.error.message);
    }
    setConfirming(null);
    // The note belonged to this refund; the next one starts without it.
    setNote('');
    const r = res.data.reversal;
    onDone(
      r.status === 'succeeded'
        ? `${offline ? 'Reversed' : 'Refunded'} ${formatPence(r.amount)}. ${formatPence(res.data.donation.remaining)} remains.`
        : `Refund of ${formatPence(r.amount)} asked of Stripe: it shows as ${r.status} until Stripe confirms it.`,
    );
  };

  return (
    <section className="donation-card donation-refund" aria-labelledby="donation-refund">
      <h2 className="dash-h2" id="donation-refund">
        {offline ? 'Reverse this gift' : 'Refund this gift'}
      </h2>
      <p className="dash-hint">
        {offline
          ? 'A reversal is recorded as its own row against this gift; the gift itself is never edited. Totals, reports and any Gift Aid claim follow.'
          : 'The money goes back to the donor’s card or bank account through Stripe, and the donor is told by email.'}{' '}
        Up to {formatPence(story.remaining_pence)} remains.
      </p>
      {error ? <Alert>{error}</Alert> : null}
      <div className="dash-grid-2">
        <TextInput
          label="Amount (£)"
          value={amount}
          onChange={setAmount}
          inputMode="decimal"
          required
          readOnly={!!confirming}
          hint={`In pounds; at most ${formatPence(story.remaining_pence)}`}
        />
        <SelectInput
          label="Reason"
          value={reason}
          onChange={setReason}
          options={reasons}
          required
          placeholder="Choose a reason"
          disabled={!!confirming}
        />
      </div>
      <TextInput
        label="Note (optional)"
        value={note}
        onChange={setNote}
        maxLength={500}
        hint={`Kept with the ${offline ? 'reversal' : 'refund'} in the audit log`}
      />
      {confirming ? (
        <div
          className="dash-batch-confirm donation-confirm"
          role="alertdialog"
          aria-label={`Confirm the ${verb.toLowerCase()}`}
        >
          <p>
            {/* A reversal takes money off the gift's record; only a refund sends any back. */}
            {offline
              ? `Reverse ${formatPence(confirming.pence)} of ${donor}’s gift?`
              : `Refund ${formatPence(confirming.pence)} to ${donor}?`}
          </p>
          <div className="dash-form-actions">
            <button
              ref={backRef}
              type="button"
              className="btn btn-outline"
              onClick={() => setConfirming(null)}
              disabled={sending}
            >
              Back
            </button>
            <button type="button" className="btn btn-primary" onClick={send} disabled={sending}>
              {sending ? 'Working…' : `Yes, ${verb.toLowerCase()} ${formatPence(confirming.pence)}`}
            </button>
          </div>
        </div>
      ) : (
        <div className="dash-form-actions">
          <button ref={reviewRef} type="button" className="btn btn-primary" onClick={review} disabled={!reason}>
            {verb}…
          </button>
        </div>
      )}
    </section>
  );
}
