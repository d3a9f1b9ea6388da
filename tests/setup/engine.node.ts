import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema';

export const engineName: string = 'libsql';

/** A fresh, migrated in-memory libSQL database for one test file. */
export async function createEngineDb(): Promise<{ db: Db; env: Record<string, unknown> }> {
  const client = createClient({ url: ':memory:' });
  await client.execute('PRAGMA foreign_keys = ON');
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: 'db/migrations' });
  return { db, env: {} };
}
