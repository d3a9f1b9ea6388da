import { drizzle } from 'drizzle-orm/d1';
import type { Db } from '../../db/client';
import { countD1Rows } from '../../db/usage';
import * as schema from '../../db/schema';
import { fileBindings } from './file-bindings.workers';
import type { Outage } from './outage';

export const engineName: string = 'd1';

/** D1's own message for a transient network failure (Cloudflare lists it as safe to retry). */
const lost = () => new Error('D1_ERROR: Network connection lost.');

/** The binding, except that while the outage is on every query fails like a lost D1 connection. */
function withOutage(d1: D1Database, outage: { on: boolean }): D1Database {
  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        if (prop === 'bind') return (...args: unknown[]) => wrapStatement(value.apply(target, args));
        return (...args: unknown[]) => (outage.on ? Promise.reject(lost()) : value.apply(target, args));
      },
    });
  return new Proxy(d1, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop === 'prepare') return (query: string) => wrapStatement(value.call(target, query));
      if (prop === 'batch' || prop === 'exec' || prop === 'dump') {
        return (...args: unknown[]) => (outage.on ? Promise.reject(lost()) : value.apply(target, args));
      }
      return value.bind(target);
    },
  });
}

/**
 * The D1 database of this test file, inside workerd: the shared one, or the file's own where it
 * needs one (vitest.config.ts). Migrations were applied by apply-migrations.workers.ts.
 */
export async function createEngineDb(): Promise<{ db: Db; env: Record<string, unknown>; outage: Outage }> {
  const state = { on: false };
  const d1 = withOutage(countD1Rows(fileBindings().db), state);
  return {
    db: drizzle(d1, { schema }) as unknown as Db,
    env: { DB: d1 },
    outage: { down: () => (state.on = true), up: () => (state.on = false) },
  };
}

/** The real R2 binding of this test file: shared, or its own alongside its own database. */
export function createEngineBucket(): R2Bucket {
  return fileBindings().images;
}
