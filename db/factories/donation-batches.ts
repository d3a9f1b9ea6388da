import type { Db } from '../client';
import { donationBatches } from '../schema';

type BatchInsert = typeof donationBatches.$inferInsert;
export type BatchFields = Partial<BatchInsert> & { organizationId: string };

/** An empty cheque batch banked today, with a fresh idempotency key, unless `fields` say otherwise. */
export function donationBatchRow(fields: BatchFields): BatchInsert {
  return {
    method: 'cheque',
    bankedOn: new Date().toISOString().slice(0, 10),
    expectedTotal: 0,
    giftCount: 0,
    idempotencyKey: crypto.randomUUID(),
    ...fields,
  };
}

export async function createDonationBatch(db: Db, fields: BatchFields) {
  const [row] = await db.insert(donationBatches).values(donationBatchRow(fields)).returning();
  return row;
}
