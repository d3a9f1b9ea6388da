import { type CharityIdentity, formatLongUkDate } from '../../../domain';
import type { MailMessage } from './mailer';
import { greetingFor, render } from './template';

export type ConfirmationFacts = {
  declarationId: string;
  to: string;
  firstName: string;
  fullName: string;
  address: string;
  declaredAt: Date;
  coversPast: boolean;
  coversFuture: boolean;
  wording: string;
  charity: CharityIdentity;
};

/**
 * The written record of an oral Gift Aid declaration (HMRC: a declaration made orally is valid only
 * once the charity has sent the donor a written record of it; the donor may cancel it within 30 days
 * of that record being sent, and the cancellation then goes back to the date it was made).
 */
export function declarationConfirmationEmail(facts: ConfirmationFacts): MailMessage {
  const covers = [
    facts.coversPast && 'gifts in the past 4 years',
    'the gifts you told us about',
    facts.coversFuture && 'future gifts',
  ]
    .filter(Boolean)
    .join(', ');
  return render({
    to: facts.to,
    subject: `Your Gift Aid declaration to ${facts.charity.name}`,
    greeting: greetingFor(facts.firstName),
    heading: 'The Gift Aid declaration you gave us',
    blocks: [
      {
        kind: 'p',
        text: `On ${formatLongUkDate(facts.declaredAt)} you told us you want to Gift Aid your donations. This is our written record of that declaration.`,
      },
      {
        kind: 'facts',
        rows: [
          ['Name', facts.fullName],
          ['Home address', facts.address],
          ['Made on', formatLongUkDate(facts.declaredAt)],
          ['Covers', covers],
        ],
      },
      { kind: 'p', text: `The declaration: "${facts.wording}"` },
      {
        kind: 'p',
        text: 'You can cancel this declaration within 30 days of this email, and it will then be as if you had never made it: reply to this email or contact us. You can also cancel it at any time later, from then on.',
      },
      {
        kind: 'small',
        text: 'Please tell us if you change your name or address, or no longer pay enough Income Tax or Capital Gains Tax.',
      },
    ],
    charity: facts.charity,
    key: `gift-aid-confirmation:${facts.declarationId}`,
  });
}
