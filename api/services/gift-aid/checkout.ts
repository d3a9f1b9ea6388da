import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { campaigns } from '../../../db/schema';
import type { GiftAidDetails, GiftAidDetailsInput } from '../../../domain';
import type { AppConfig } from '../../lib/config';
import { badRequest } from '../../lib/errors';
import { charityForOrganization } from '../organizations/charity';
import { createDeclaration, declarationTextFor, parseGiftAidDetails } from './declarations';

export type CheckoutGiftAid = { details: GiftAidDetails; text: string; organizationId: string | null };

/**
 * The donation box's Gift Aid part, checked before anything is stored: the details (each problem
 * a 400 naming `gift_aid.<field>`) and the wording, which names the campaign's charity and must be
 * the one the donor was shown.
 */
export async function prepareCheckoutGiftAid(
  db: Db,
  config: Pick<AppConfig, 'charity'>,
  campaignId: string,
  input: GiftAidDetailsInput & { declaration?: string | null },
): Promise<CheckoutGiftAid> {
  const details = parseGiftAidDetails(input, 'gift_aid.');
  const [campaign] = await db
    .select({ organizationId: campaigns.organizationId })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId))
    .limit(1);
  const organizationId = campaign?.organizationId ?? null;
  const charity = await charityForOrganization(db, config, organizationId);
  const text = declarationTextFor(charity.legalName);
  if (input.declaration != null && input.declaration !== text) {
    throw badRequest('gift_aid.declaration: the Gift Aid wording has changed; reload the page and confirm it again');
  }
  return { details, text, organizationId };
}

/**
 * Stores the declaration made online with this donation (covers past and future gifts, as its
 * wording says), held with the pending gift: the donor's account gets it when the payment succeeds.
 */
export function createCheckoutDeclaration(
  db: Db,
  donorId: string,
  donationId: string,
  prepared: CheckoutGiftAid,
): Promise<string> {
  return createDeclaration(db, {
    donorId,
    details: prepared.details,
    text: prepared.text,
    organizationId: prepared.organizationId,
    method: 'online',
    pendingDonationId: donationId,
  });
}
