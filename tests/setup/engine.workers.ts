import { env } from 'cloudflare:workers';
import { drizzle } from 'drizzle-orm/d1';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema';

export const engineName: string = 'd1';

/**
 * The D1 database of this test file, inside workerd. Migrations were applied by
 * apply-migrations.workers.ts; the plugin gives each test file its own storage.
 */
export async function createEngineDb(): Promise<{ db: Db; env: Record<string, unknown> }> {
  const bindings = env as unknown as { DB: D1Database };
  return { db: drizzle(bindings.DB, { schema }) as unknown as Db, env: { DB: bindings.DB } };
}
