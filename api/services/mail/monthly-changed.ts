import { formatLongUkDate, formatPence } from '../../../domain';
import type { CharityIdentity } from '../../../domain';
import type { MailMessage } from './mailer';
import { greetingFor, render } from './template';

export type MonthlyNotice = {
  subscriptionId: string;
  donor: { email: string; firstName: string | null };
  charity: CharityIdentity;
  cause: string;
  amount: number;
  /** What this notice is about; the key makes each change go once. */
  change:
    | { kind: 'amount' }
    | { kind: 'paused'; resumesAt: Date }
    | { kind: 'resumed'; nextPaymentAt: Date | null }
    | { kind: 'cancelled'; at: Date };
  /** Identifies the change (event id or timestamp) so the same change is announced once. */
  version: string;
  manageUrl: string;
};

/** Confirms a change the donor (or an admin, or Stripe) made to a monthly gift. */
export function monthlyChangedEmail(n: MonthlyNotice): MailMessage {
  const { change } = n;
  const subject =
    change.kind === 'cancelled'
      ? `Your monthly gift to ${n.charity.name} is cancelled`
      : change.kind === 'paused'
        ? `Your monthly gift to ${n.charity.name} is paused`
        : change.kind === 'resumed'
          ? `Your monthly gift to ${n.charity.name} is running again`
          : `Your monthly gift to ${n.charity.name} is now ${formatPence(n.amount)}`;
  const text =
    change.kind === 'cancelled'
      ? `Your monthly gift of ${formatPence(n.amount)} for ${n.cause} was cancelled on ${formatLongUkDate(change.at)}. No further payments will be taken. Thank you for everything you have given.`
      : change.kind === 'paused'
        ? `Your monthly gift of ${formatPence(n.amount)} for ${n.cause} is paused. No payments will be taken until ${formatLongUkDate(change.resumesAt)}, when it restarts on its own.`
        : change.kind === 'resumed'
          ? `Your monthly gift of ${formatPence(n.amount)} for ${n.cause} is running again.${change.nextPaymentAt ? ` The next payment is due on ${formatLongUkDate(change.nextPaymentAt)}.` : ''} Thank you.`
          : `From your next payment, your monthly gift for ${n.cause} will be ${formatPence(n.amount)}. Nothing extra is taken now.`;
  return render({
    to: n.donor.email,
    subject,
    greeting: greetingFor(n.donor.firstName),
    heading: subject.replace(/^Your/, 'Your'),
    blocks: [
      { kind: 'p', text },
      {
        kind: 'small',
        text: `If you did not ask for this, reply to this email or see your gifts in My Donations: ${n.manageUrl}`,
      },
    ],
    charity: n.charity,
    key: `monthly-${change.kind}:${n.subscriptionId}:${n.version}`,
  });
}
