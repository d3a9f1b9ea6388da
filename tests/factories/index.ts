import type { AuthUser } from '../../api/lib/types';
import type { Db } from '../../db/client';
import {
  addOrganizationAdmin,
  createAppeal,
  createCampaign,
  type createDonation,
  createOrganization,
  createUser,
} from '../../db/factories';
import { sessions, type users } from '../../db/schema';
import { insertPendingDonation } from '../../api/services/donations/pending';
import { newSessionToken, sha256Hex, SESSION_ABSOLUTE_MS } from '../../api/services/auth/sessions';

// The row factories live with the schema so the demo seed builds its rows with them too.
export * from '../../db/factories';

/** A signed-in session for `user`; returns the bearer token. */
export async function createSession(db: Db, userId: string, now = new Date()) {
  const token = newSessionToken();
  await db.insert(sessions).values({
    tokenHash: await sha256Hex(token),
    userId,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  return token;
}

/** The rows the factories return, for `let` declarations filled in a `beforeAll`. */
export type UserRow = Awaited<ReturnType<typeof createUser>>;
export type OrganizationRow = Awaited<ReturnType<typeof createOrganization>>;
export type CampaignRow = Awaited<ReturnType<typeof createCampaign>>;
export type AppealRow = Awaited<ReturnType<typeof createAppeal>>;
export type DonationRow = Awaited<ReturnType<typeof createDonation>>;

export type UserType = NonNullable<(typeof users.$inferInsert)['type']>;
export type SignedIn = { user: UserRow; token: string };

/**
 * A signed-in person: a user of `type` (with `overrides` for names, email and the like), made an admin of each of
 * `organizationIds` (what an org admin needs to see anything), then given a session; returns the user and the bearer token.
 */
export async function signedIn(
  db: Db,
  type: UserType,
  {
    organizationIds = [],
    overrides = {},
  }: { organizationIds?: string[]; overrides?: Omit<Partial<typeof users.$inferInsert>, 'type'> } = {},
): Promise<SignedIn> {
  const user = await createUser(db, { ...overrides, type });
  for (const organizationId of organizationIds) await addOrganizationAdmin(db, organizationId, user.id);
  return { user, token: await createSession(db, user.id) };
}

type CampaignFields = Parameters<typeof createCampaign>[1];
type CharityFields = { organization?: Parameters<typeof createOrganization>[1]; campaign?: CampaignFields };
export type Charity = { org: OrganizationRow; campaign: CampaignRow };

/**
 * A charity with one live campaign of its own, the setting of most gifts; with `appeal`, also an appeal under that
 * campaign. Both belong to the organization, so its org admins see them.
 */
export async function createCharity(
  db: Db,
  fields: CharityFields & { appeal: NonNullable<CampaignFields> },
): Promise<Charity & { appeal: AppealRow }>;
export async function createCharity(db: Db, fields?: CharityFields): Promise<Charity>;
export async function createCharity(
  db: Db,
  fields: CharityFields & { appeal?: CampaignFields } = {},
): Promise<Charity & { appeal?: AppealRow }> {
  const org = await createOrganization(db, fields.organization);
  const campaign = await createCampaign(db, { ...fields.campaign, organizationId: org.id });
  if (!fields.appeal) return { org, campaign };
  const appeal = await createAppeal(db, campaign.id, { ...fields.appeal, organizationId: org.id });
  return { org, campaign, appeal };
}

/** A viewer as the auth middleware hands it to services, for service calls that need no stored user. */
export function viewerOf(type: AuthUser['type'], orgIds: string[] = []): AuthUser {
  return { id: 'a', email: 'a@x', firstName: '', lastName: '', type, avatar: null, orgIds, sessionId: 's' };
}

/** A one-off card gift as checkout stores it, pending until Stripe's payment_intent.succeeded; returns its id. */
export async function createPendingCardGift(
  db: Db,
  gift: {
    id?: string;
    amount: number;
    donorId: string;
    campaignId: string;
    appealId?: string | null;
    paymentIntentId: string;
  },
) {
  const id = gift.id ?? crypto.randomUUID();
  await insertPendingDonation(db, {
    id,
    amount: gift.amount,
    donorId: gift.donorId,
    target: { campaignId: gift.campaignId, appealId: gift.appealId ?? null },
    type: 'once',
    giftAidDeclarationId: null,
    paymentIntentId: gift.paymentIntentId,
    invoiceId: null,
    subscriptionId: null,
    source: 'card',
    ownCheckout: true,
  });
  return id;
}
