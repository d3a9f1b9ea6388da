import { env } from 'cloudflare:workers';
import { readConfig } from '../../../api/lib/config';
import type { Bindings } from '../../../api/lib/types';
import { charityForOrganization } from '../../../api/services/charity';
import type { Db } from '../../../db/client';

/** The legal name of the charity receiving gifts to a campaign, as the Gift Aid declaration names it. */
export async function receivingCharityName(db: Db, organizationId: string | null): Promise<string> {
  return (await charityForOrganization(db, readConfig(env as unknown as Bindings), organizationId)).legalName;
}
