import { eq, inArray } from 'drizzle-orm';
import { donorOfGift } from '../../../db/gift-joins';
import { campaigns, checkoutDetails, donations, monthlyGifts, organizations, users } from '../../../db/schema';
import type { CharityIdentity, DonationSource } from '../../../domain';
import { charityFromOrganization, identityColumns, type OrganizationIdentityRow } from '../organizations/charity';
import { cancelLinkUrl } from '../monthly-gifts/link-tokens';
import { pausedDates } from '../monthly-gifts/records';
import { findMandate } from '../payments/direct-debit';
import type { ServiceContext } from '../../lib/service-context';

/** Everything a receipt or refund notice says about one gift, read from the database. */
export type GiftFacts = {
  donationId: string;
  amount: number;
  refundedAmount: number;
  date: Date;
  status: string;
  type: 'once' | 'monthly';
  source: DonationSource;
  reference: string;
  campaignTitle: string;
  appealTitle: string | null;
  giftAid: boolean;
  donor: { email: string; firstName: string | null; erased: boolean };
  charity: CharityIdentity;
  monthly: { amount: number; nextPaymentAt: Date | null; cancelUrl: string; status: string } | null;
  /** Paid by Bacs Direct Debit: the account's last four digits and the mandate reference the bank shows. */
  directDebit: { last4: string | null; mandateReference: string | null } | null;
};

/** What sending an email needs: ServiceContext's `mail`. */
export type MailContext = ServiceContext['mail'];

export const causeLine = (gift: Pick<GiftFacts, 'campaignTitle' | 'appealTitle'>) =>
  gift.appealTitle ? `${gift.appealTitle} (${gift.campaignTitle})` : gift.campaignTitle;

/** Campaign and appeal titles plus the charity that receives gifts to them. */
export async function causeOf(ctx: MailContext, campaignId: string, appealId: string | null) {
  const ids = [campaignId, appealId].filter((x): x is string => !!x);
  // The charity's identity comes with the titles: one read.
  const rows = await ctx.db
    .select({ id: campaigns.id, title: campaigns.title, org: campaigns.organizationId, identity: identityColumns })
    .from(campaigns)
    .leftJoin(organizations, eq(organizations.id, campaigns.organizationId))
    .where(inArray(campaigns.id, ids));
  const campaign = rows.find((r) => r.id === campaignId);
  const appeal = appealId ? rows.find((r) => r.id === appealId) : undefined;
  return causeFrom(ctx.config, campaign, appeal?.title ?? null);
}

/** What a gift's email says of its cause: the campaign's title and charity (the platform's without one), the appeal's title. */
export function causeFrom(
  config: MailContext['config'],
  campaign: { title: string; org: string | null; identity: OrganizationIdentityRow | null } | undefined,
  appealTitle: string | null,
) {
  const charity = campaign?.org ? charityFromOrganization(campaign.identity, config) : config.charity;
  return { campaignTitle: campaign?.title ?? 'our work', appealTitle, charity };
}

/** The receipt greets the name typed with the gift, else the account's. */
export const greetedName = (typed: string | null | undefined, account: string | null | undefined) =>
  typed || account || null;

export async function giftFacts(ctx: MailContext, donationId: string): Promise<GiftFacts | null> {
  const [row] = await ctx.db
    .select({
      d: donations,
      email: users.email,
      firstName: users.firstName,
      typedFirstName: checkoutDetails.firstName,
      erasedAt: users.erasedAt,
    })
    .from(donations)
    .innerJoin(users, donorOfGift)
    .leftJoin(checkoutDetails, eq(checkoutDetails.donationId, donations.id))
    .where(eq(donations.id, donationId))
    .limit(1);
  if (!row) return null;
  const d = row.d;
  const cause = await causeOf(ctx, d.campaignId, d.appealId);
  let monthly: GiftFacts['monthly'] = null;
  if (d.type === 'monthly' && d.subscriptionId) {
    const [gift] = await ctx.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, d.subscriptionId)).limit(1);
    // A gift that never started (its first Direct Debit failed) has no schedule to describe.
    if (gift && gift.status !== 'cancelled' && gift.status !== 'incomplete') {
      monthly = {
        amount: gift.amount,
        // Paused: the first payment after the pause, not the period end the pause skips.
        nextPaymentAt: pausedDates(gift)?.next ?? gift.nextPaymentAt,
        status: gift.status,
        cancelUrl: await cancelLinkUrl(ctx.config.authSecret, ctx.origin, gift.id),
      };
    }
  }
  return {
    donationId: d.id,
    amount: d.amount,
    refundedAmount: d.refundedAmount,
    date: d.date,
    status: d.status,
    type: d.type,
    source: d.source,
    reference: d.invoiceId ?? d.paymentIntentId ?? d.id,
    ...cause,
    giftAid: d.giftAid,
    donor: {
      email: row.email,
      firstName: greetedName(row.typedFirstName, row.firstName),
      erased: row.erasedAt !== null,
    },
    monthly,
    directDebit:
      d.paymentMethod === 'bacs_debit'
        ? { last4: d.bankLast4, mandateReference: (await findMandate(ctx.db, d.mandateId))?.reference ?? d.mandateId }
        : null,
  };
}
