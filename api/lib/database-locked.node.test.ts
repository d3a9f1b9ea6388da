import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, createClient } from '@libsql/client';
import Database from 'libsql';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '..';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema';
import { createCampaign, createSession, createUser } from '../../tests/factories';
import { RETRY_AFTER_SECONDS } from './unavailable';

/**
 * A real lock, not a simulated outage: a second connection to the same libSQL file holds
 * BEGIN EXCLUSIVE while the app reads. Every answer is the 503 with Retry-After, never a 500.
 */
describe('a libSQL database locked by another connection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'uknfp-lock-'));
  const url = `file:${join(dir, 'locked.db')}`;
  let appClient: Client;
  let lockConnection: Database.Database;
  let db: Db;

  beforeAll(async () => {
    appClient = createClient({ url });
    db = drizzle(appClient, { schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder: 'db/migrations' });
    lockConnection = new Database(join(dir, 'locked.db'));
  });
  afterAll(() => {
    appClient.close();
    lockConnection.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers GET /api/campaigns and GET /api/auth with 503 and Retry-After while the lock is held', async () => {
    await createCampaign(db);
    const user = await createUser(db);
    const token = await createSession(db, user.id);
    const app = createApp({ db });
    const env = { APP_ENV: 'development' };
    expect((await app.request('/api/campaigns', {}, env)).status).toBe(200);

    lockConnection.exec('BEGIN EXCLUSIVE');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const [path, init] of [
        ['/api/campaigns', {}],
        ['/api/auth', { headers: { authorization: `Bearer ${token}` } }],
      ] as const) {
        const res = await app.request(path, init, env);
        expect(res.status, path).toBe(503);
        expect(res.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
        expect(((await res.json()) as { message: string }).message).toMatch(/^The service is busy right now/);
      }
    } finally {
      errors.mockRestore();
      lockConnection.exec('ROLLBACK');
    }
    expect((await app.request('/api/campaigns', {}, env)).status).toBe(200);
  });
});
