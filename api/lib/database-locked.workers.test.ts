import { drizzle } from 'drizzle-orm/d1';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '..';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema';
import { createSession, createUser } from '../../tests/factories';
import { fileBindings } from '../../tests/setup/file-bindings.workers';
import { RETRY_AFTER_SECONDS } from './unavailable';

/**
 * D1 cannot be locked from a test: it refuses BEGIN, SAVEPOINT and PRAGMA locking_mode, and runs
 * one query at a time, so a long write only queues the others. A busy or locked D1 answers with
 * these errors instead (its storage is a Durable Object); each goes through the real app.
 */
const D1_UNAVAILABLE = [
  'D1_ERROR: Failed to get session commit token: internal error',
  'D1 DB is overloaded. Too many requests queued.',
  'D1_ERROR: database is locked: SQLITE_BUSY',
  'D1_ERROR: Internal error in D1 DB storage caused object to be reset.',
];

function failingWith(d1: D1Database, message: string): D1Database {
  const fail = () => Promise.reject(new Error(message));
  const statement = (s: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(s, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        if (prop === 'bind') return (...args: unknown[]) => statement(value.apply(target, args));
        return fail;
      },
    });
  return new Proxy(d1, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop === 'prepare') return (query: string) => statement(value.call(target, query));
      if (prop === 'batch' || prop === 'exec') return fail;
      return value.bind(target);
    },
  });
}

describe('a D1 database that is busy, locked or overloaded', () => {
  it.each(D1_UNAVAILABLE)(
    'answers GET /api/campaigns and GET /api/auth with 503 and Retry-After: %s',
    async (message) => {
      const d1 = fileBindings().db;
      const user = await createUser(drizzle(d1, { schema }) as unknown as Db);
      const token = await createSession(drizzle(d1, { schema }) as unknown as Db, user.id);
      const db = drizzle(failingWith(d1, message), { schema }) as unknown as Db;
      const app = createApp({ db });
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      for (const [path, init] of [
        ['/api/campaigns', {}],
        ['/api/auth', { headers: { authorization: `Bearer ${token}` } }],
      ] as const) {
        const res = await app.request(path, init, { APP_ENV: 'development' });
        expect(res.status, path).toBe(503);
        expect(res.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
        expect(((await res.json()) as { message: string }).message).toMatch(/^The service is busy right now/);
      }
      errors.mockRestore();
    },
  );
});
