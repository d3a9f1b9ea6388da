import { formatPence } from '../../../domain';
import type { CharityIdentity } from '../../../domain';
import type { MailMessage } from './mailer';
import { greetingFor, render } from './template';

export type FailedRenewal = {
  invoiceId: string;
  donor: { email: string; firstName: string | null };
  charity: CharityIdentity;
  amount: number;
  cause: string;
  updateCardUrl: string;
  cancelUrl: string;
};

/** A monthly payment that did not go through: no money taken, and how to fix the card. */
export function renewalFailedEmail(r: FailedRenewal): MailMessage {
  return render({
    to: r.donor.email,
    subject: `Your monthly gift to ${r.charity.name} did not go through`,
    greeting: greetingFor(r.donor.firstName),
    heading: "This month's payment did not go through",
    blocks: [
      {
        kind: 'p',
        text: `We tried to take your monthly gift of ${formatPence(r.amount)} for ${r.cause}, but your card was declined. No money was taken.`,
      },
      {
        kind: 'p',
        text: 'If your card has expired or changed, you can update it here. We will try again automatically over the next few days.',
      },
      { kind: 'button', label: 'Update my card', href: r.updateCardUrl },
      { kind: 'small', text: `If you would rather stop giving monthly, you can cancel instead: ${r.cancelUrl}` },
    ],
    charity: r.charity,
    key: `renewal-failed:${r.invoiceId}`,
  });
}
