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
    | { kind: 'paused'; skipped: Date[]; nextPaymentAt: Date }
    | { kind: 'resumed'; nextPaymentAt: Date | null }
    | { kind: 'cancelled'; at: Date };
  /** Identifies the change (event id or timestamp) so the same change is announced once. */
  version: string;
  manageUrl: string;
};

/** Names the payments a pause skips, so no one mistakes the pause's end for a payment date. */
export function skippedSentence(skipped: Date[]): string {
  if (skipped.length === 0) return '';
  const dates = skipped.map((d) => formatLongUkDate(d));
  const list = dates.length === 1 ? dates[0] : `${dates.slice(0, -1).join(', ')} and ${dates.at(-1)}`;
  return `The payment${dates.length === 1 ? '' : 's'} due on ${list} will not be taken. `;
}

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
        ? `Your monthly gift of ${formatPence(n.amount)} for ${n.cause} is paused. ${skippedSentence(change.skipped)}It restarts on its own: the next payment is on ${formatLongUkDate(change.nextPaymentAt)}.`
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
