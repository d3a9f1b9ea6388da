import { formatPence } from '../../../domain';
import type { MailMessage } from './mailer';
import { type GiftFacts, causeLine } from './facts';
import { greetingFor, render } from './template';

/** A Direct Debit that Bacs returned unpaid: nothing was taken, and what the donor can do. */
export function directDebitFailedEmail(gift: GiftFacts): MailMessage {
  return render({
    to: gift.donor.email,
    subject: `Your Direct Debit to ${gift.charity.name} did not go through`,
    greeting: greetingFor(gift.donor.firstName),
    heading: 'Your Direct Debit did not go through',
    blocks: [
      {
        kind: 'p',
        text: `Your bank did not pay the Direct Debit of ${formatPence(gift.amount)} for ${causeLine(gift)}. No money was taken.`,
      },
      {
        kind: 'p',
        text: 'Please check the account details with your bank, or give again by card or with another account. If you think this is a mistake, reply to this email.',
      },
      {
        kind: 'facts',
        rows: [
          ['Payment reference', gift.reference],
          ...(gift.directDebit?.mandateReference
            ? [['Mandate reference', gift.directDebit.mandateReference] as [string, string]]
            : []),
        ],
      },
    ],
    charity: gift.charity,
    key: `direct-debit-failed:${gift.donationId}`,
  });
}
