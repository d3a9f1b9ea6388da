import { randomUUID } from 'node:crypto';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { inject } from 'vitest';
import { createTursoDb, type Db } from '../../db/client';
import type { Outage } from './outage';

export const engineName: string = 'turso';

/**
 * A fresh database on the local libSQL protocol server (turso-local.global.ts), through the
 * client and fetch wrapper production uses (db/client.ts createTursoDb), migrated over HTTP.
 * An outage sends the client's requests to a closed port: the client fails as it does when
 * Turso cannot be reached.
 */
export async function createEngineDb(): Promise<{ db: Db; env: Record<string, unknown>; outage: Outage }> {
  const url = `${inject('tursoLocalUrl')}/db/${randomUUID()}/`;
  const state = { on: false };
  const network: typeof fetch = (input, init) =>
    state.on ? fetch('http://127.0.0.1:1/', { method: 'POST', body: '{}' }) : fetch(input, init);
  const db = createTursoDb(url, undefined, network);
  await migrate(db, { migrationsFolder: 'db/migrations' });
  return { db, env: {}, outage: { down: () => (state.on = true), up: () => (state.on = false) } };
}

/** Node has no R2: an in-memory bucket with the same calls. */
export { memoryBucket as createEngineBucket } from '../mocks/r2-memory';
