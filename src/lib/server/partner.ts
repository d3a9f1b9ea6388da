import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { campaigns, organizations } from '../../../db/schema';
import type { CharityIdentity } from '../../../domain';

/** A charity that receives gifts on this site: the organization behind at least one public campaign. */
export type ReceivingCharity = Pick<CharityIdentity, 'name' | 'number' | 'regulator'>;

/**
 * The charities gifts go to (home page, /fees): every organization with an approved campaign and a
 * charity number on file, by name. Each campaign's page names its own (charityFromOrganization).
 */
export function receivingCharitiesQuery(db: Db) {
  return db
    .selectDistinct({
      name: organizations.name,
      number: organizations.charityNumber,
      regulator: organizations.regulator,
    })
    .from(campaigns)
    .innerJoin(organizations, eq(organizations.id, campaigns.organizationId))
    .where(and(isNull(campaigns.campaignId), eq(campaigns.status, 'approved'), isNotNull(organizations.charityNumber)))
    .orderBy(asc(organizations.name))
    .limit(50);
}
