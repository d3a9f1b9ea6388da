import { createEngineBucket, createEngineDb, engineName } from '#test-engine';
import { inject } from 'vitest';
import { createApp } from '../../api';
import type { Bindings } from '../../api/lib/types';
import type { Db } from '../../db/client';
import type { Outage } from './outage';

export { createEngineBucket, engineName };
export type { Outage };

export type TestApp = {
  db: Db;
  env: Bindings;
  app: ReturnType<typeof createApp>;
  /** Makes the database unreachable (and reachable again) for this app. */
  outage: Outage;
  /** app.request with the test bindings; `token` adds the bearer header, `json` a JSON body. */
  request: (path: string, init?: RequestInit & { token?: string; json?: unknown }) => Promise<Response>;
};

/**
 * The real Hono app on a fresh migrated database of the current engine: libSQL in the "node"
 * project, D1 in workerd in the "workers" project. The same test files run on both.
 */
export async function setupTestApp(env: Partial<Bindings> = {}): Promise<TestApp> {
  const engine = await createEngineDb();
  // Tests run as a local development deployment unless they say otherwise (production is the default).
  // Turnstile's siteverify is the local fake (tests/mocks/turnstile-fake.ts), never the real one.
  const bindings = { APP_ENV: 'development', TURNSTILE_VERIFY_URL: inject('turnstileVerifyUrl'), ...engine.env, ...env } as Bindings;
  const app = createApp({ db: engine.db });
  const request: TestApp['request'] = (path, init = {}) => {
    const { token, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    let body = rest.body;
    if (json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(json);
    }
    return Promise.resolve(app.request(path, { ...rest, headers, body }, bindings));
  };
  return { db: engine.db, env: bindings, app, request, outage: engine.outage };
}
