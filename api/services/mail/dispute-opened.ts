import { and, eq, isNull } from 'drizzle-orm';
import { campaignOfGift, giftOf } from '../../../db/gift-joins';
import { campaigns, donationDisputes, donations, organizationAdmins, users } from '../../../db/schema';
import { type CharityIdentity, formatLongUkDate, formatPence } from '../../../domain';
import { createMailer, type MailMessage } from './mailer';
import { charityForOrganization } from '../organizations/charity';
import type { MailContext } from './facts';
import { greetingFor, render } from './template';

export type DisputeOpenedFacts = {
  disputeId: string;
  donationId: string;
  amount: number;
  giftAmount: number;
  giftDate: Date;
  reason: string;
  feePence: number;
  evidenceDueBy: Date | null;
  campaignTitle: string;
};

const REASONS: Record<string, string> = {
  fraudulent: 'the cardholder says they did not make the payment',
  duplicate: 'the cardholder says they were charged twice',
  product_not_received: 'the cardholder says they did not receive what they paid for',
  subscription_canceled: 'the cardholder says they cancelled the monthly gift',
  unrecognized: 'the cardholder does not recognise the payment',
  credit_not_processed: 'the cardholder says a refund was promised and not made',
  general: 'no specific reason was given',
};
export const disputeReasonText = (reason: string) => REASONS[reason] ?? reason.replace(/_/g, ' ');

/** To one admin: a card gift is disputed, how much is at stake, and by when Stripe needs evidence. */
export function disputeOpenedEmail(input: {
  to: { id: string; email: string; firstName: string | null };
  dispute: DisputeOpenedFacts;
  pageUrl: string;
  charity: CharityIdentity;
}): MailMessage {
  const { dispute } = input;
  const due = dispute.evidenceDueBy ? formatLongUkDate(dispute.evidenceDueBy) : null;
  return render({
    to: input.to.email,
    subject: `A gift of ${formatPence(dispute.giftAmount)} is disputed${due ? `: respond by ${due}` : ''}`,
    greeting: greetingFor(input.to.firstName),
    heading: 'A donor’s card payment has been disputed',
    blocks: [
      {
        kind: 'p',
        text: `The card issuer has opened a dispute (chargeback) on a gift to ${dispute.campaignTitle}: ${disputeReasonText(dispute.reason)}. Stripe has taken the disputed amount and its dispute fee from the balance until the dispute is decided.`,
      },
      {
        kind: 'facts',
        rows: [
          ['Gift', `${formatPence(dispute.giftAmount)} on ${formatLongUkDate(dispute.giftDate)}`],
          ['Disputed', formatPence(dispute.amount)],
          ['Dispute fee', formatPence(dispute.feePence)],
          ['Evidence due', due ?? 'Not stated'],
          ['Stripe dispute', dispute.disputeId],
        ],
      },
      { kind: 'button', label: 'Open the donation', href: input.pageUrl },
      {
        kind: 'small',
        text: 'Submit evidence in the Stripe Dashboard before the due date. If the dispute is lost, the gift leaves the totals and any Gift Aid on it is adjusted.',
      },
    ],
    charity: input.charity,
    key: `dispute-opened:${dispute.disputeId}:${input.to.id}`,
  });
}

/**
 * After charge.dispute.created: one email per admin of the gift's organization and per site
 * admin. Each carries an outbox key of the dispute and the recipient, so a duplicated or replayed
 * event writes nothing new.
 */
export async function sendDisputeOpened(
  ctx: MailContext,
  providerId: string,
): Promise<'sent' | 'duplicate' | 'skipped'> {
  const [row] = await ctx.db
    .select({
      dispute: donationDisputes,
      gift: donations,
      campaignTitle: campaigns.title,
      organizationId: campaigns.organizationId,
    })
    .from(donationDisputes)
    .innerJoin(donations, giftOf(donationDisputes))
    .innerJoin(campaigns, campaignOfGift)
    .where(eq(donationDisputes.providerId, providerId))
    .limit(1);
  if (!row) return 'skipped';
  const orgId = row.organizationId;
  const contact = { id: users.id, email: users.email, firstName: users.firstName };
  const [siteAdmins, orgAdmins] = await Promise.all([
    ctx.db
      .select(contact)
      .from(users)
      .where(and(eq(users.type, 'admin'), isNull(users.erasedAt))),
    orgId
      ? ctx.db
          .select(contact)
          .from(organizationAdmins)
          .innerJoin(users, eq(users.id, organizationAdmins.userId))
          .where(and(eq(organizationAdmins.organizationId, orgId), eq(users.type, 'org_admin'), isNull(users.erasedAt)))
      : Promise.resolve([]),
  ]);
  const recipients = [...new Map([...orgAdmins, ...siteAdmins].map((u) => [u.id, u])).values()];
  if (!recipients.length) return 'skipped';
  const charity = await charityForOrganization(ctx.db, ctx.config, orgId);
  const facts: DisputeOpenedFacts = {
    disputeId: row.dispute.providerId,
    donationId: row.gift.id,
    amount: row.dispute.amount,
    giftAmount: row.gift.amount,
    giftDate: row.gift.date,
    reason: row.dispute.reason,
    feePence: row.dispute.feePence,
    evidenceDueBy: row.dispute.evidenceDueBy,
    campaignTitle: row.campaignTitle,
  };
  const mailer = createMailer(ctx.db, ctx.config);
  const pageUrl = `${ctx.origin}/dashboard/donations/edit/${encodeURIComponent(row.gift.id)}`;
  let sent = false;
  for (const to of recipients) {
    const result = await mailer.send(
      disputeOpenedEmail({
        to: { id: to.id, email: to.email, firstName: to.firstName || null },
        dispute: facts,
        pageUrl,
        charity,
      }),
    );
    sent ||= !result.duplicate;
  }
  return sent ? 'sent' : 'duplicate';
}
