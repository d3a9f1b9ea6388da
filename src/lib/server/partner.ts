import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { campaigns, organizations } from '../../../db/schema';

/**
 * The partner charity shown on the home page: the organization behind the longest-running approved
 * campaign, among those with a charity number on file.
 */
export async function partnerCharity(db: Db): Promise<{ name: string; charityNumber: string | null } | null> {
  const [row] = await partnerCharityQuery(db);
  return row ?? null;
}

/** The query behind partnerCharity (at most one row), for a db.batch with the page's other reads. */
export function partnerCharityQuery(db: Db) {
  return db
    .select({ name: organizations.name, charityNumber: organizations.charityNumber })
    .from(campaigns)
    .innerJoin(organizations, eq(organizations.id, campaigns.organizationId))
    .where(and(isNull(campaigns.campaignId), eq(campaigns.status, 'approved'), isNotNull(organizations.charityNumber)))
    .orderBy(asc(campaigns.createdAt), asc(campaigns.id))
    .limit(1);
}
