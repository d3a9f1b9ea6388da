import { directDebitGuarantee, formatLongUkDate, formatPence, giftAidOn } from '../../../domain';
import type { MailMessage } from './mailer';
import { type GiftFacts, causeLine } from './facts';
import { greetingFor, render } from './template';

/** The receipt for one succeeded gift: one-off, a monthly invoice, or a manual gift an admin recorded. */
export function receiptEmail(gift: GiftFacts): MailMessage {
  const rows: [string, string][] = [
    ['Amount', formatPence(gift.amount)],
    ['Date', formatLongUkDate(gift.date)],
    ['For', causeLine(gift)],
    [
      'Gift type',
      gift.type === 'monthly'
        ? 'Monthly gift'
        : gift.source === 'manual'
          ? 'Gift recorded by our team'
          : 'One-off gift',
    ],
    ['Payment reference', gift.reference],
  ];
  if (gift.directDebit) {
    rows.push([
      'Paid by',
      gift.directDebit.last4 ? `Direct Debit from the account ending ${gift.directDebit.last4}` : 'Direct Debit',
    ]);
    if (gift.directDebit.mandateReference) rows.push(['Mandate reference', gift.directDebit.mandateReference]);
  }
  if (gift.giftAid) rows.push(['Gift Aid', `Yes: we will claim ${formatPence(giftAidOn(gift.amount))} from HMRC`]);
  const blocks: Parameters<typeof render>[0]['blocks'] = [
    {
      kind: 'p',
      text: `Thank you for your gift of ${formatPence(gift.amount)} to ${gift.charity.name}. This email is your receipt.`,
    },
    { kind: 'facts', rows },
  ];
  if (gift.giftAid) {
    blocks.push({
      kind: 'small',
      text: 'You told us you are a UK taxpayer and want us to treat this gift as Gift Aid. If you pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed on all your donations in the tax year, it is your responsibility to pay any difference. Tell us if your name, address or tax status changes.',
    });
  }
  if (gift.directDebit) {
    blocks.push({ kind: 'p', text: 'The Direct Debit Guarantee' });
    for (const line of directDebitGuarantee(gift.charity.name)) blocks.push({ kind: 'small', text: line });
  }
  if (gift.monthly) {
    const next = gift.monthly.nextPaymentAt ? formatLongUkDate(gift.monthly.nextPaymentAt) : 'next month';
    blocks.push({
      kind: 'p',
      text: `Your next monthly payment of ${formatPence(gift.monthly.amount)} is due on ${next}. You can change, pause or cancel it at any time in My Donations.`,
    });
    blocks.push({ kind: 'button', label: 'Cancel this monthly gift', href: gift.monthly.cancelUrl });
    blocks.push({
      kind: 'small',
      text: 'The cancel link works without signing in, asks you to confirm before anything changes, and expires after 60 days.',
    });
  }
  return render({
    to: gift.donor.email,
    subject: `Your receipt: ${formatPence(gift.amount)} to ${gift.charity.name}`,
    greeting: greetingFor(gift.donor.firstName),
    heading: 'Thank you for your donation',
    blocks,
    charity: gift.charity,
    key: `receipt:${gift.donationId}`,
  });
}
