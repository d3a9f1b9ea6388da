import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';

/** Milliseconds the database took to answer `select 1`; throws when it does not answer. */
export async function pingDatabase(db: Db): Promise<number> {
  const started = Date.now();
  await db.run(sql`select 1`);
  return Date.now() - started;
}
