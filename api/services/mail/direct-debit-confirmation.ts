import {
  DIRECT_DEBIT_FIRST_PAYMENT_DAYS,
  directDebitGuarantee,
  firstCollectionDate,
  formatLongUkDate,
  formatPence,
  formatSortCode,
  statementName,
} from '../../../domain';
import type { MailMessage } from './mailer';
import { type GiftFacts, causeLine } from './facts';
import { greetingFor, render } from './template';

/**
 * The bank details the donor gave: only the sort code and the account's last four digits are printed,
 * with the account holder's name and address as the mandate names them (Stripe's billing_details).
 */
export type MandateBank = {
  sortCode: string;
  accountNumber: string;
  holder?: { name: string; address: { line1: string; line2: string | null; city: string; postal_code: string } };
};

/**
 * The confirmation of a new Direct Debit Instruction, with the advance notice of its first collection:
 * what the Bacs scheme requires the payer to receive once the mandate is set up (the collector's name,
 * the masked account, the sort code, the mandate reference, the right to cancel and the Guarantee).
 * Stripe sends it in live mode; demo mode sends this one instead (docs/decisions/053).
 */
export function directDebitConfirmationEmail(gift: GiftFacts, bank: MandateBank): MailMessage {
  const monthly = gift.type === 'monthly';
  const amount = `${formatPence(gift.amount)}${monthly ? ' a month' : ''}`;
  const first = formatLongUkDate(firstCollectionDate(gift.date));
  const holder = bank.holder;
  const rows: [string, string][] = [
    ...(holder
      ? ([
          ['Account holder', holder.name],
          [
            'Address',
            [holder.address.line1, holder.address.line2, holder.address.city, holder.address.postal_code]
              .filter(Boolean)
              .join(', '),
          ],
        ] as [string, string][])
      : []),
    ['Collected by', `${gift.charity.name} (your bank statement shows ${statementName(gift.charity.name)})`],
    ['Account number', `****${bank.accountNumber.replace(/\s/g, '').slice(-4)}`],
    ['Sort code', formatSortCode(bank.sortCode)],
    ['Mandate reference', gift.directDebit?.mandateReference ?? 'to follow with your receipt'],
    ['Amount', amount],
    ['First payment', `on or about ${first}`],
    ['For', causeLine(gift)],
  ];
  return render({
    to: gift.donor.email,
    subject: `Important: confirmation of your Direct Debit to ${gift.charity.name}`,
    greeting: greetingFor(gift.donor.firstName),
    heading: 'Your Direct Debit Instruction is set up',
    blocks: [
      {
        kind: 'p',
        text: 'Please check the details below. If anything is wrong, reply to this email straight away.',
      },
      { kind: 'facts', rows },
      {
        kind: 'p',
        text: `This is your advance notice: ${gift.charity.name} will collect ${formatPence(gift.amount)} from this account on or about ${first}${monthly ? ', then the same amount each month until you cancel (each receipt gives the date of the next payment)' : ''}. If the amount, date or frequency changes, we will tell you at least ${DIRECT_DEBIT_FIRST_PAYMENT_DAYS} working days before. We email your receipt once the bank has paid.`,
      },
      {
        kind: 'p',
        text: `You can cancel this Direct Debit at any time by contacting your bank or building society${monthly ? ', or by cancelling the monthly gift in My Donations' : ''}.`,
      },
      { kind: 'p', text: 'The Direct Debit Guarantee' },
      ...directDebitGuarantee(gift.charity.name).map((text) => ({ kind: 'small' as const, text })),
    ],
    charity: gift.charity,
    key: `direct-debit-set-up:${gift.donationId}`,
  });
}
