import { createClient } from '@libsql/client/web';
import { drizzle as drizzleD1 } from 'drizzle-orm/d1';
import { drizzle as drizzleLibsql, type LibSQLDatabase } from 'drizzle-orm/libsql';
import * as schema from './schema';
import { countD1Rows, countingFetch } from './usage';

export { schema };

/**
 * Both drivers expose the same query builder and `batch`; we type the union as the libSQL
 * database so callers write one dialect (docs/decisions/003-one-db-type.md).
 */
export type Db = LibSQLDatabase<typeof schema>;

export type DbEnv = {
  DB?: D1Database;
  TURSO_DATABASE_URL?: string;
  TURSO_AUTH_TOKEN?: string;
};

const libsqlByUrl = new Map<string, Db>();
/** One drizzle instance per D1 binding: building one derives the schema's relations again (~3% of a profiled API request). */
const d1ByBinding = new WeakMap<D1Database, Db>();

/** Turso when TURSO_DATABASE_URL is set, else the D1 binding `DB`. */
export function createDb(env: DbEnv): Db {
  if (env.TURSO_DATABASE_URL) {
    const cached = libsqlByUrl.get(env.TURSO_DATABASE_URL);
    if (cached) return cached;
    const db = createTursoDb(env.TURSO_DATABASE_URL, env.TURSO_AUTH_TOKEN);
    libsqlByUrl.set(env.TURSO_DATABASE_URL, db);
    return db;
  }
  if (env.DB) {
    let db = d1ByBinding.get(env.DB);
    if (!db) {
      db = drizzleD1(countD1Rows(env.DB), { schema }) as unknown as Db;
      d1ByBinding.set(env.DB, db);
    }
    return db;
  }
  throw new Error('No database configured: set TURSO_DATABASE_URL or bind a D1 database as DB');
}

/**
 * A Turso (libSQL over HTTP) database through the client's web build, the one the worker runs.
 * Its fetch counts the rows each statement read and wrote for the request's log line; `fetch`
 * replaces the network underneath (tests make the server unreachable with it).
 */
export function createTursoDb(url: string, authToken?: string, fetchImpl?: typeof fetch): Db {
  const client = createClient({ url, authToken, fetch: countingFetch(fetchImpl) });
  return drizzleLibsql(client, { schema });
}
