import { type CharityIdentity, formatPence } from '../../../domain';
import type { MailMessage } from './mailer';
import { type GiftFacts, causeLine } from './facts';
import { type Block, greetingFor, render } from './template';

/** One email for every payment that did not go through: what failed, that no money was taken, what to do next. */
type PaymentFailed = {
  donor: { email: string; firstName: string | null };
  charity: CharityIdentity;
  /** What did not go through, as the subject names it. */
  payment: 'Direct Debit' | 'monthly gift';
  heading: string;
  /** What happened, in one sentence; the email adds that no money was taken. */
  whatHappened: string;
  whatToDo: string;
  /** What follows the advice: the references to quote, or the links to act on. */
  then: Block[];
  key: string;
};

function paymentFailedEmail(p: PaymentFailed): MailMessage {
  return render({
    to: p.donor.email,
    subject: `Your ${p.payment} to ${p.charity.name} did not go through`,
    greeting: greetingFor(p.donor.firstName),
    heading: p.heading,
    blocks: [{ kind: 'p', text: `${p.whatHappened} No money was taken.` }, { kind: 'p', text: p.whatToDo }, ...p.then],
    charity: p.charity,
    key: p.key,
  });
}

/** A Direct Debit that Bacs returned unpaid: the donor checks the account with their bank or gives another way. */
export function directDebitFailedEmail(gift: GiftFacts): MailMessage {
  const mandate = gift.directDebit?.mandateReference;
  return paymentFailedEmail({
    donor: gift.donor,
    charity: gift.charity,
    payment: 'Direct Debit',
    heading: 'Your Direct Debit did not go through',
    // A monthly gift's later payments are recorded only once paid: a failed one is always its first.
    whatHappened:
      gift.type === 'monthly'
        ? `Your bank did not pay the first Direct Debit of ${formatPence(gift.amount)} for ${causeLine(gift)}, so your monthly gift has not started.`
        : `Your bank did not pay the Direct Debit of ${formatPence(gift.amount)} for ${causeLine(gift)}.`,
    whatToDo:
      'Please check the account details with your bank, or give again by card or with another account. If you think this is a mistake, reply to this email.',
    then: [
      {
        kind: 'facts',
        rows: [
          ['Payment reference', gift.reference],
          ...(mandate ? [['Mandate reference', mandate] as [string, string]] : []),
        ],
      },
    ],
    key: `direct-debit-failed:${gift.donationId}`,
  });
}

export type FailedRenewal = {
  invoiceId: string;
  donor: { email: string; firstName: string | null };
  charity: CharityIdentity;
  amount: number;
  cause: string;
  updateCardUrl: string;
  cancelUrl: string;
};

/** A monthly card payment that was declined: the donor updates the card (we retry) or cancels. */
export function renewalFailedEmail(r: FailedRenewal): MailMessage {
  return paymentFailedEmail({
    donor: r.donor,
    charity: r.charity,
    payment: 'monthly gift',
    heading: "This month's payment did not go through",
    whatHappened: `We tried to take your monthly gift of ${formatPence(r.amount)} for ${r.cause}, but your card was declined.`,
    whatToDo:
      'If your card has expired or changed, you can update it here. We will try again automatically over the next few days.',
    then: [
      { kind: 'button', label: 'Update my card', href: r.updateCardUrl },
      { kind: 'small', text: `If you would rather stop giving monthly, you can cancel instead: ${r.cancelUrl}` },
    ],
    key: `renewal-failed:${r.invoiceId}`,
  });
}
