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
