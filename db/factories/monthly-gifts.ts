import type { Db } from '../client';
import { monthlyGifts } from '../schema';

type MonthlyGiftInsert = typeof monthlyGifts.$inferInsert;
export type MonthlyGiftFields = Partial<MonthlyGiftInsert> & { donorId: string; campaignId: string };

/**
 * An active demo-mode monthly gift of £10, unless `fields` say otherwise. Its id is `sub_demo_` and letters and
 * digits, the form the routes accept.
 */
export function monthlyGiftRow(fields: MonthlyGiftFields): MonthlyGiftInsert {
  const id = `sub_demo_${crypto.randomUUID().replace(/-/g, '')}`;
  return { id, amount: 1000, status: 'active', source: 'demo', ...fields };
}

export async function createMonthlyGift(db: Db, fields: MonthlyGiftFields) {
  const [row] = await db.insert(monthlyGifts).values(monthlyGiftRow(fields)).returning();
  return row;
}
