import type { Db } from '../client';
import { organizationAdmins, organizations, users } from '../schema';
import { unique } from './unique';

type UserInsert = typeof users.$inferInsert;
type OrganizationInsert = typeof organizations.$inferInsert;

/** A user row: a donor named Test User with an address of its own unless `fields` say otherwise. */
export function userRow(fields: Partial<UserInsert> = {}): UserInsert {
  return { email: `user-${unique()}@example.com`, firstName: 'Test', lastName: 'User', ...fields };
}

export async function createUser(db: Db, fields: Partial<UserInsert> = {}) {
  const [row] = await db.insert(users).values(userRow(fields)).returning();
  return row;
}

export function organizationRow(fields: Partial<OrganizationInsert> = {}): OrganizationInsert {
  return { name: `Organization ${unique()}`, ...fields };
}

export async function createOrganization(db: Db, fields: Partial<OrganizationInsert> = {}) {
  const [row] = await db.insert(organizations).values(organizationRow(fields)).returning();
  return row;
}

export async function addOrganizationAdmin(db: Db, organizationId: string, userId: string) {
  await db.insert(organizationAdmins).values({ organizationId, userId });
}
