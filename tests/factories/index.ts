import type { Db } from '../../db/client';
import {
  addOrganizationAdmin,
  type createAppeal,
  type createCampaign,
  type createDonation,
  type createOrganization,
  createUser,
} from '../../db/factories';
import { sessions, type users } from '../../db/schema';
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
