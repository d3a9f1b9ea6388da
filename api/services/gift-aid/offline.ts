import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { parseId } from '../../../db/ids';
import { campaigns, donations, giftAidClaimedGifts } from '../../../db/schema';
import type { GiftAidDetails } from '../../../domain';
import type { AppConfig } from '../../lib/config';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import type { AuthUser } from '../../lib/types';
import { charityForOrganization } from '../charity';
import { canManageOrganization } from '../organizations';
import { getUser } from '../users';
import { coversGift, createDeclaration, declarationTextFor, listDonorDeclarations, type DeclarationRow } from './declarations';

export type OfflineDeclarationInput = {
  donor_id: string;
  organization_id: string;
  details: GiftAidDetails;
  covers_past: boolean;
  covers_future: boolean;
  /** The day the donor signed or said it (London), YYYY-MM-DD. */
  declared_on: string;
};

/** A paper or spoken declaration recorded by an admin (method 'admin'), to the organization's charity. */
export async function recordOfflineDeclaration(
  db: Db,
  config: Pick<AppConfig, 'charity'>,
  viewer: AuthUser,
  input: OfflineDeclarationInput,
  declaredAt: Date,
): Promise<DeclarationRow> {
  const organizationId = parseId(input.organization_id);
  if (!organizationId) throw badRequest('organization_id: must be an organization id');
  if (!canManageOrganization(viewer, organizationId)) throw new HttpError(403, 'You can only record declarations for your own organizations');
  let donorId: string;
  try {
    donorId = (await getUser(db, input.donor_id, viewer))._id;
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw badRequest('donor_id: no donor with this id');
    throw error;
  }
  if (declaredAt.getTime() > Date.now()) throw badRequest('declared_on: cannot be in the future');
  const charity = await charityForOrganization(db, config, organizationId);
  const id = await createDeclaration(db, {
    donorId,
    details: input.details,
    text: declarationTextFor(charity.legalName),
    organizationId,
    method: 'admin',
    coversPast: input.covers_past,
    coversFuture: input.covers_future,
    declaredAt,
    recordedBy: viewer.id,
  });
  const rows = await listDonorDeclarations(db, donorId);
  return rows.find((row) => row.id === id)!;
}

/**
 * Marks a gift recorded by hand (cash, cheque) as Gift Aid once an admin has checked the donor's
 * declaration: the donor must have one to this gift's charity that covers the gift's date. Card
 * gifts take their flag from the donation box only.
 */
export async function verifyOfflineGift(db: Db, viewer: AuthUser, idRef: string): Promise<{ _id: string; gift_aid: true; declaration_id: string }> {
  const id = parseId(idRef);
  const [row] = id
    ? await db
        .select({ gift: donations, organizationId: campaigns.organizationId })
        .from(donations)
        .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
        .where(eq(donations.id, id))
        .limit(1)
    : [];
  if (!row || !canManageOrganization(viewer, row.organizationId)) throw notFound('Donation Not Found');
  const gift = row.gift;
  if (gift.source !== 'manual') throw badRequest('Only gifts recorded by hand can be verified for Gift Aid; card gifts carry the donor’s own declaration');
  if (gift.status !== 'succeeded') throw badRequest(`This gift is ${gift.status}; only a received gift can be claimed`);
  const declaration = (await listDonorDeclarations(db, gift.donorId)).find(
    (d) => !d.replacedBy && d.organizationId === row.organizationId && coversGift(d, gift.date),
  );
  if (!declaration) {
    throw badRequest("declaration: this donor has no Gift Aid declaration to this charity covering the gift's date; record one first");
  }
  await db
    .update(donations)
    .set({ giftAid: true, giftAidDeclarationId: declaration.id })
    .where(and(eq(donations.id, gift.id), sql`not exists (select 1 from ${giftAidClaimedGifts} where ${giftAidClaimedGifts.donationId} = ${gift.id})`));
  return { _id: gift.id, gift_aid: true, declaration_id: declaration.id };
}
