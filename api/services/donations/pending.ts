import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { campaigns, donations, prices, users } from '../../../db/schema';
import { badRequest, HttpError } from '../../lib/errors';
import { endedMessage, hasEnded, lastGivingDay } from '../../../domain/giving-ends';
import { firstGivingDay, notOpenYet, opensMessage } from '../../../domain/giving-opens';
import type { OnlinePaymentMethod } from '../../../domain';

/** Where a gift goes: the campaign always, plus the appeal when given through an appeal page. */
export type DonationTarget = { campaignId: string; appealId: string | null };

/**
 * Checks the campaign (and appeal) exist, are approved, and belong together. Every failure is a
 * 400 that names the field, so nothing is stored for a bad target. An item whose end date has
 * passed (an appeal also ends with its campaign, domain/giving-ends.ts) answers 409: it takes no
 * new gifts (docs/decisions/056). So does one whose start date is still ahead (an appeal also waits
 * for its campaign, domain/giving-opens.ts; 059). Only new checkouts come here: a payment already
 * started is recorded by the webhook whatever the date.
 */
export async function resolveDonationTarget(
  db: Db,
  campaignRef: string,
  appealRef: string | null | undefined,
  now: Date,
): Promise<DonationTarget> {
  const campaignId = parseId(campaignRef);
  if (!campaignId) throw badRequest('campaign_id: must be a campaign id (UUID or short id)');
  const appealId = appealRef ? parseId(appealRef) : null;
  if (appealRef && !appealId) throw badRequest('appeal_id: must be an appeal id (UUID or short id)');

  const [campaign] = await db
    .select({
      id: campaigns.id,
      parent: campaigns.campaignId,
      status: campaigns.status,
      kind: campaigns.kind,
      dateFrom: campaigns.dateFrom,
      dateTo: campaigns.dateTo,
    })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .limit(1);
  // A general fund takes offline income only: it has no public page to give from.
  if (!campaign || campaign.parent !== null || campaign.kind !== 'campaign')
    throw badRequest('campaign_id: no such campaign');
  if (campaign.status !== 'approved') throw badRequest('campaign_id: this campaign is not accepting donations');

  if (!appealId) {
    if (hasEnded(campaign.dateTo, now)) throw new HttpError(409, endedMessage('campaign', campaign.dateTo!));
    if (notOpenYet(campaign.dateFrom, now)) throw new HttpError(409, opensMessage('campaign', campaign.dateFrom!));
    return { campaignId, appealId: null };
  }
  const [appeal] = await db
    .select({
      id: campaigns.id,
      parent: campaigns.campaignId,
      status: campaigns.status,
      dateFrom: campaigns.dateFrom,
      dateTo: campaigns.dateTo,
    })
    .from(campaigns)
    .where(eq(campaigns.id, appealId))
    .limit(1);
  if (!appeal || appeal.parent === null) throw badRequest('appeal_id: no such appeal');
  if (appeal.status !== 'approved') throw badRequest('appeal_id: this appeal is not accepting donations');
  if (appeal.parent !== campaignId) throw badRequest('appeal_id: this appeal belongs to a different campaign');
  const lastDay = lastGivingDay(appeal.dateTo, campaign.dateTo);
  if (hasEnded(lastDay, now)) throw new HttpError(409, endedMessage('appeal', lastDay!));
  const firstDay = firstGivingDay(appeal.dateFrom, campaign.dateFrom);
  if (notOpenYet(firstDay, now)) throw new HttpError(409, opensMessage('appeal', firstDay!));
  return { campaignId, appealId };
}

export type Donor = {
  id: string;
  email: string;
  stripeCustomerId: string | null /** Made by this checkout (findOrCreateDonor). */;
  created?: boolean;
};

/**
 * The donor with this email (stored lower-cased), created on first gift; safe under concurrency.
 * A row made here is marked `checkout`: housekeeping expires it if no gift ever goes through.
 */
export async function findOrCreateDonor(db: Db, rawEmail: string): Promise<Donor> {
  const email = rawEmail.trim().toLowerCase();
  const created = await db
    .insert(users)
    .values({ email, type: 'donor', origin: 'checkout' })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  const [donor] = await db
    .select({ id: users.id, email: users.email, stripeCustomerId: users.stripeCustomerId })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  return { ...donor, created: created.length > 0 };
}

export async function findDonorById(db: Db, id: string): Promise<Donor | null> {
  const [donor] = await db
    .select({ id: users.id, email: users.email, stripeCustomerId: users.stripeCustomerId })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return donor ?? null;
}

/** Keeps the first Stripe customer id stored for a donor and returns the one that won. */
export async function saveStripeCustomerId(db: Db, donorId: string, customerId: string): Promise<string> {
  await db
    .update(users)
    .set({ stripeCustomerId: customerId })
    .where(and(eq(users.id, donorId), sql`${users.stripeCustomerId} is null`));
  const [row] = await db.select({ id: users.stripeCustomerId }).from(users).where(eq(users.id, donorId)).limit(1);
  return row?.id ?? customerId;
}

export type MonthlyPrice = { id: string; unit_amount: number; currency: string; recurring: { interval: 'month' } };

/** Demo-mode monthly prices from the local mirror, cheapest first. */
export async function listLocalPrices(db: Db): Promise<MonthlyPrice[]> {
  const rows = await db
    .select()
    .from(prices)
    .where(and(eq(prices.active, true), eq(prices.currency, 'gbp'), eq(prices.interval, 'month')))
    .orderBy(prices.unitAmount, prices.id);
  return rows.map((row) => ({
    id: row.id,
    unit_amount: row.unitAmount,
    currency: row.currency,
    recurring: { interval: 'month' },
  }));
}

export async function findLocalPrice(db: Db, id: string): Promise<MonthlyPrice | null> {
  return (await listLocalPrices(db)).find((price) => price.id === id) ?? null;
}

export type PendingDonation = {
  id: string;
  amount: number;
  donorId: string;
  target: DonationTarget;
  type: 'once' | 'monthly';
  giftAidDeclarationId: string | null;
  paymentIntentId: string | null;
  invoiceId: string | null;
  subscriptionId: string | null;
  source: 'card' | 'demo';
  /** Card unless the donor chose Direct Debit. */
  method?: OnlinePaymentMethod;
  /** The donor's own checkout: signed in as them, or the one that created the account (decision 077). */
  ownCheckout: boolean;
};

/**
 * Records the gift as pending once the provider has accepted it. If a webhook already recorded
 * the same payment (it can arrive first), the stored row wins and this insert does nothing.
 */
export async function insertPendingDonation(db: Db, pending: PendingDonation): Promise<void> {
  await db
    .insert(donations)
    .values({
      id: pending.id,
      amount: pending.amount,
      donorId: pending.donorId,
      campaignId: pending.target.campaignId,
      appealId: pending.target.appealId,
      status: 'pending',
      type: pending.type,
      giftAid: pending.giftAidDeclarationId !== null,
      giftAidDeclarationId: pending.giftAidDeclarationId,
      paymentIntentId: pending.paymentIntentId,
      invoiceId: pending.invoiceId,
      subscriptionId: pending.subscriptionId,
      source: pending.source,
      paymentMethod: pending.method ?? 'card',
      ownCheckout: pending.ownCheckout,
    })
    .onConflictDoNothing();
}

/** What we put in Stripe metadata so any event can be attributed without our database. */
export type DonationMetadata = {
  kind: 'one_off' | 'monthly';
  donation_id: string;
  campaign_id: string;
  appeal_id: string;
  donor_id: string;
  gift_aid_declaration_id: string;
  source: 'card' | 'demo';
};

export function toMetadata(pending: PendingDonation): DonationMetadata {
  return {
    kind: pending.type === 'monthly' ? 'monthly' : 'one_off',
    donation_id: pending.id,
    campaign_id: pending.target.campaignId,
    appeal_id: pending.target.appealId ?? '',
    donor_id: pending.donorId,
    gift_aid_declaration_id: pending.giftAidDeclarationId ?? '',
    source: pending.source,
  };
}
