import { asc, isNotNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { organizations } from '../../../db/schema';

/** The partner charity shown on the home page: the oldest organization with a charity number. */
export async function partnerCharity(db: Db): Promise<{ name: string; charityNumber: string | null } | null> {
  const [row] = await db
    .select({ name: organizations.name, charityNumber: organizations.charityNumber })
    .from(organizations)
    .where(isNotNull(organizations.charityNumber))
    .orderBy(asc(organizations.createdAt), asc(organizations.name))
    .limit(1);
  return row ?? null;
}
