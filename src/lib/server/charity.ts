import type { AppConfig } from '../../../api/lib/config';
import { charityForOrganization } from '../../../api/services/charity';
import type { Db } from '../../../db/client';

/** The legal name of the charity receiving gifts to a campaign, as the Gift Aid declaration names it. */
export async function receivingCharityName(db: Db, config: Pick<AppConfig, 'charity'>, organizationId: string | null): Promise<string> {
  return (await charityForOrganization(db, config, organizationId)).legalName;
}
