import { formatLongUkDate, formatPence } from '../../../domain';
import type { MailMessage } from './mailer';
import { type GiftFacts, causeLine } from './facts';
import { greetingFor, render } from './template';

/** Sent once per refunded total: a later, larger partial refund sends a new notice. */
export function refundNoticeEmail(gift: GiftFacts): MailMessage {
  const full = gift.refundedAmount >= gift.amount;
  return render({
    to: gift.donor.email,
    subject: `${full ? 'Refund' : 'Partial refund'} of your gift to ${gift.charity.name}`,
    greeting: greetingFor(gift.donor.firstName),
    heading: full ? 'Your gift has been refunded' : 'Part of your gift has been refunded',
    blocks: [
      {
        kind: 'p',
        text: `We have refunded ${formatPence(gift.refundedAmount)} of your gift of ${formatPence(gift.amount)}. It usually reaches your card within 5 to 10 working days.`,
      },
      {
        kind: 'facts',
        rows: [
          ['Original gift', `${formatPence(gift.amount)} on ${formatLongUkDate(gift.date)}`],
          ['For', causeLine(gift)],
          ['Refunded', formatPence(gift.refundedAmount)],
          ['Payment reference', gift.reference],
        ],
      },
      ...(gift.giftAid ? [{ kind: 'small' as const, text: 'We will not claim Gift Aid on the refunded amount.' }] : []),
    ],
    charity: gift.charity,
    key: `refund:${gift.donationId}:${gift.refundedAmount}`,
  });
}
