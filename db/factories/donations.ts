import type { Db } from '../client';
import { donations } from '../schema';

type DonationInsert = typeof donations.$inferInsert;
export type DonationFields = Partial<DonationInsert> & { donorId: string; campaignId: string };

/** A succeeded one-off gift of £10 entered by hand, unless `fields` say otherwise. */
export function donationRow(fields: DonationFields): DonationInsert {
  return { amount: 1000, status: 'succeeded', type: 'once', source: 'manual', ...fields };
}

export async function createDonation(db: Db, fields: DonationFields) {
  const [row] = await db.insert(donations).values(donationRow(fields)).returning();
  return row;
}
