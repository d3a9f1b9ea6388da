import { env } from 'cloudflare:workers';
import { readConfig } from '../../../api/lib/config';
import type { Bindings } from '../../../api/lib/types';
import { charityForOrganization } from '../../../api/services/charity';
import type { Db } from '../../../db/client';
import { type CharityIdentity, registrationLine } from '../../../domain';

export type ReceivingCharity = Pick<CharityIdentity, 'name' | 'legalName'> & { registration: string | null };

/**
 * The charity that receives gifts made on a campaign's pages: the campaign's organization when it
 * has a charity number, else the platform's charity (CHARITY_*). Named on the page and in the
 * donation box's Gift Aid declaration, the same wording the API stores (api/services/checkout.ts).
 */
export async function receivingCharity(db: Db, organizationId: string | null): Promise<ReceivingCharity> {
  const charity = await charityForOrganization(db, readConfig(env as unknown as Bindings), organizationId);
  return { name: charity.name, legalName: charity.legalName, registration: registrationLine(charity) };
}
