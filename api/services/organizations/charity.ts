import { eq, sql } from 'drizzle-orm';
import type { IdValue } from '../../../db/prepared';
import type { Db } from '../../../db/client';
import { campaigns, organizations } from '../../../db/schema';
import type { CharityIdentity } from '../../../domain';
import type { AppConfig } from '../../lib/config';

export type OrganizationIdentityRow = Pick<
  typeof organizations.$inferSelect,
  'name' | 'legalName' | 'charityNumber' | 'regulator' | 'address' | 'city' | 'postalCode'
>;

/**
 * The one place that says which charity receives a gift: the organization's own identity where it
 * has a charity number, else the platform's charity from configuration (CHARITY_*).
 */
export function charityFromOrganization(
  org: OrganizationIdentityRow | null | undefined,
  config: Pick<AppConfig, 'charity'>,
): CharityIdentity {
  if (!org?.charityNumber) return config.charity;
  const address = [org.address, org.city, org.postalCode].filter(Boolean).join(', ');
  return {
    name: org.name,
    legalName: org.legalName?.trim() || org.name,
    number: org.charityNumber,
    regulator: org.regulator,
    address: address || null,
  };
}

export const identityColumns = {
  name: organizations.name,
  legalName: organizations.legalName,
  charityNumber: organizations.charityNumber,
  regulator: organizations.regulator,
  address: organizations.address,
  city: organizations.city,
  postalCode: organizations.postalCode,
};

export async function charityForOrganization(
  db: Db,
  config: Pick<AppConfig, 'charity'>,
  organizationId: string | null,
): Promise<CharityIdentity> {
  if (!organizationId) return config.charity;
  const [org] = await db
    .select(identityColumns)
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return charityFromOrganization(org, config);
}

/**
 * The identity of the organization a campaign belongs to, as a query for the same db.batch as the
 * campaign's own reads (public pages: one round trip). Its row goes to charityFromOrganization.
 */
export function organizationOfCampaignQuery(db: Db, campaignId: IdValue) {
  return db
    .select(identityColumns)
    .from(organizations)
    .where(
      eq(
        organizations.id,
        sql`(select ${campaigns.organizationId} from ${campaigns} where ${campaigns.id} = ${campaignId})`,
      ),
    )
    .limit(1);
}
