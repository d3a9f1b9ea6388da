import { type CharityIdentity, formatPence } from '../../../domain';
import type { MailMessage } from './mailer';
import { greetingFor, render } from './template';

/** What a monthly donor is told when the appeal or campaign their gift supports leaves the site (decision 070). */
export type ItemDownNotice = {
  subscriptionId: string;
  donor: { email: string; firstName: string | null };
  charity: CharityIdentity;
  /** Pence a month. */
  amount: number;
  /** What the gift supports: an appeal (under its campaign) or a campaign. */
  item: { kind: 'appeal' | 'campaign'; title: string };
  /** Set when an appeal left the site because its campaign did: that campaign's title. */
  campaignTitle: string | null;
  /** Names the take-down (its time), so each one is told once. */
  version: string;
  cancelUrl: string;
  manageUrl: string;
};

/**
 * The gift goes on (it is the donor's agreement with the charity, which a page leaving the site does
 * not end), so the email says so, and how to stop it without signing in if they would rather.
 */
export function itemDownEmail(n: ItemDownNotice): MailMessage {
  const why = n.campaignTitle ? `, with its campaign “${n.campaignTitle}”` : '';
  const heading = `The ${n.item.kind} your monthly gift supports is no longer on the site`;
  return render({
    to: n.donor.email,
    subject: `“${n.item.title}” is no longer on the site: your monthly gift`,
    greeting: greetingFor(n.donor.firstName),
    heading,
    blocks: [
      {
        kind: 'p',
        text: `“${n.item.title}”, the ${n.item.kind} your monthly gift of ${formatPence(n.amount)} supports, has been taken off the site${why}.`,
      },
      {
        kind: 'p',
        text: `Your gift continues to go to ${n.charity.name} each month, as you set it up: you need do nothing to keep giving. Thank you.`,
      },
      {
        kind: 'p',
        text: 'If you would rather stop it, you can cancel it here without signing in; nothing more is taken after that:',
      },
      { kind: 'button', label: 'Cancel my monthly gift', href: n.cancelUrl },
      {
        kind: 'small',
        text: `Or see your gifts in My Donations: ${n.manageUrl}. Questions? Reply to this email.`,
      },
    ],
    charity: n.charity,
    key: `monthly-item-down:${n.subscriptionId}:${n.version}`,
  });
}

/** What a monthly donor told of a take-down is told when the item is back on the site. */
export type ItemBackNotice = Pick<
  ItemDownNotice,
  'subscriptionId' | 'donor' | 'charity' | 'amount' | 'item' | 'version'
> & {
  /** The item's public page. */
  itemUrl: string;
  manageUrl: string;
};

/** The other half of itemDownEmail: the page is back, and the gift never stopped. */
export function itemBackEmail(n: ItemBackNotice): MailMessage {
  return render({
    to: n.donor.email,
    subject: `“${n.item.title}” is back on the site: your monthly gift`,
    greeting: greetingFor(n.donor.firstName),
    heading: `The ${n.item.kind} your monthly gift supports is back on the site`,
    blocks: [
      {
        kind: 'p',
        text: `We wrote when “${n.item.title}”, the ${n.item.kind} your monthly gift of ${formatPence(n.amount)} supports, left the site. It is back, and you can share it again:`,
      },
      { kind: 'button', label: `See the ${n.item.kind}`, href: n.itemUrl },
      {
        kind: 'p',
        text: `Your gift went on to ${n.charity.name} while it was away, and goes on as before: you need do nothing. Thank you.`,
      },
      {
        kind: 'small',
        text: `See or change your gifts in My Donations: ${n.manageUrl}. Questions? Reply to this email.`,
      },
    ],
    charity: n.charity,
    key: `monthly-item-back:${n.subscriptionId}:${n.version}`,
  });
}
