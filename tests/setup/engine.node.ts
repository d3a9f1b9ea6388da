import { type Client, createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema';
import type { Outage } from './outage';

export const engineName: string = 'libsql';

/** What the libSQL client throws when its server cannot be reached (fetch fails to connect). */
function unreachable(): Error {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), { code: 'ECONNREFUSED' });
  return new TypeError('fetch failed', { cause: refused });
}

/** The client, except that while the outage is on every call fails like an unreachable server. */
function withOutage(client: Client, outage: { on: boolean }): Client {
  const calls = new Set(['execute', 'batch', 'migrate', 'transaction', 'executeMultiple', 'sync']);
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (!calls.has(String(prop))) return value.bind(target);
      return (...args: unknown[]) => (outage.on ? Promise.reject(unreachable()) : value.apply(target, args));
    },
  });
}

/** A fresh, migrated in-memory libSQL database for one test file. */
export async function createEngineDb(): Promise<{ db: Db; env: Record<string, unknown>; outage: Outage }> {
  const client = createClient({ url: ':memory:' });
  await client.execute('PRAGMA foreign_keys = ON');
  const state = { on: false };
  const db = drizzle(withOutage(client, state), { schema });
  await migrate(db, { migrationsFolder: 'db/migrations' });
  return { db, env: {}, outage: { down: () => (state.on = true), up: () => (state.on = false) } };
}

/** Node has no R2: an in-memory bucket with the same calls. */
export { memoryBucket as createEngineBucket } from '../mocks/r2-memory';
