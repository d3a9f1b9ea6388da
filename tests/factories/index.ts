import type { Db } from '../../db/client';
import { campaigns, donations, organizationAdmins, organizations, sessions, users } from '../../db/schema';
import { newSessionToken, sha256Hex, SESSION_ABSOLUTE_MS } from '../../api/services/auth/sessions';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;

export async function createUser(db: Db, overrides: Partial<typeof users.$inferInsert> = {}) {
  const [row] = await db
    .insert(users)
    .values({ email: `user-${unique()}@example.com`, firstName: 'Test', lastName: 'User', ...overrides })
    .returning();
  return row;
}

export async function createOrganization(db: Db, overrides: Partial<typeof organizations.$inferInsert> = {}) {
  const [row] = await db
    .insert(organizations)
    .values({ name: `Organization ${unique()}`, ...overrides })
    .returning();
  return row;
}

export async function addOrganizationAdmin(db: Db, organizationId: string, userId: string) {
  await db.insert(organizationAdmins).values({ organizationId, userId });
}

export async function createCampaign(db: Db, overrides: Partial<typeof campaigns.$inferInsert> = {}) {
  const [row] = await db
    .insert(campaigns)
    .values({
      title: `Campaign ${unique()}`,
      description: 'A test campaign',
      story: 'Line one\nLine two',
      goal: 100_000,
      status: 'approved',
      images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png', size: 0, type: 'image/png' }],
      ...overrides,
    })
    .returning();
  return row;
}

export async function createAppeal(db: Db, campaignId: string, overrides: Partial<typeof campaigns.$inferInsert> = {}) {
  return createCampaign(db, { title: `Appeal ${unique()}`, goal: 50_000, campaignId, ...overrides });
}

export async function createDonation(
  db: Db,
  overrides: Partial<typeof donations.$inferInsert> & { donorId: string; campaignId: string },
) {
  const [row] = await db
    .insert(donations)
    .values({ amount: 1000, status: 'succeeded', type: 'once', source: 'manual', ...overrides })
    .returning();
  return row;
}

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
