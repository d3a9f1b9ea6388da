import { createEngineBucket, createEngineDb, engineName } from '#test-engine';
import type { ClientResponse } from 'hono/client';
import { testClient } from 'hono/testing';
import { expect, inject } from 'vitest';
import { createApp } from '../../api';
import type { Bindings } from '../../api/lib/types';
import type { Db } from '../../db/client';
import type { Outage } from './outage';

export { createEngineBucket, engineName };
export type { Outage };

/** Hono's typed client over the app: requests and answers typed by the routes' own schemas. */
export type TestClient = ReturnType<typeof testClient<ReturnType<typeof createApp>>>;

/** The JSON body a typed call takes: `JsonOf<TestClient['api']['campaigns']['$post']>`. */
export type JsonOf<Call extends (...args: never[]) => unknown> =
  NonNullable<Parameters<Call>[0]> extends { json: infer Json } ? Json : never;

export type TestApp = {
  db: Db;
  env: Bindings;
  app: ReturnType<typeof createApp>;
  /** Makes the database unreachable (and reachable again) for this app. */
  outage: Outage;
  /** app.request with the test bindings; `token` adds the bearer header, `json` a JSON body. */
  request: (path: string, init?: RequestInit & { token?: string; json?: unknown }) => Promise<Response>;
  /** The typed client (hono/testing) with the test bindings, signed in as `token` when given. */
  client: (token?: string) => TestClient;
};

/** The `message` of an API answer (an error's, or a plain `{message}`). */
export async function messageOf(response: Response | ClientResponse<unknown, number, string>): Promise<string> {
  const body = (await response.clone().json()) as { message?: unknown };
  expect(typeof body.message, JSON.stringify(body)).toBe('string');
  return body.message as string;
}

/** Checks a refused request's status and returns its `{statusCode, message}` body. */
export async function errorOf(
  response: Response | ClientResponse<unknown, number, string>,
  status: number,
): Promise<{ statusCode: number; message: string }> {
  const body = (await response.json()) as { statusCode: number; message: string };
  expect(response.status, body.message).toBe(status);
  expect(body.statusCode).toBe(status);
  return body;
}

/**
 * Checks a typed call's status and returns its body, typed as that status's answer:
 * `const consent = await bodyOf(await t.client(token).api.me.consent.$get(), 200)`.
 */
export async function bodyOf<R extends ClientResponse<unknown, number, string>, S extends R['status']>(
  response: R,
  status: S,
): Promise<R extends ClientResponse<infer T, S, string> ? T : never> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as R extends ClientResponse<infer T, S, string> ? T : never;
}

/** The totals the public pages show for an appeal and its campaign (anonymous reads, as a visitor sees them). */
export async function publicTotals(t: TestApp, ids: { appealId: string; campaignId: string }) {
  const api = t.client().api;
  const appeal = await bodyOf(await api.appeals[':id'].$get({ param: { id: ids.appealId } }), 200);
  const campaign = await bodyOf(await api.campaigns[':id'].$get({ param: { id: ids.campaignId } }), 200);
  return { appeal: appeal.summary.total_donations, campaign: campaign.summary.total_donations };
}

/** The emails the dev outbox (GET /api/dev/outbox, development only) holds for `to`, newest first. */
export async function devOutbox(t: TestApp, to: string) {
  return bodyOf(await t.client().api.dev.outbox.$get({ query: { to } }), 200);
}

/** The platform charity (CHARITY_*) that mail names when a gift's organization gives no details of its own. */
export const PLATFORM_CHARITY = { name: 'UK NFP', number: '1187342', address: '10 Downing Lane, London, SW1A 2AA' };
/** The bindings that set `PLATFORM_CHARITY`, for `setupTestApp`. */
export const PLATFORM_CHARITY_ENV = {
  CHARITY_NAME: PLATFORM_CHARITY.name,
  CHARITY_NUMBER: PLATFORM_CHARITY.number,
  CHARITY_ADDRESS: PLATFORM_CHARITY.address,
} satisfies Partial<Bindings>;

/**
 * The real Hono app on a fresh migrated database of the current engine: libSQL in the "node"
 * project, D1 in workerd in the "workers" project. The same test files run on both.
 */
export async function setupTestApp(env: Partial<Bindings> = {}): Promise<TestApp> {
  const engine = await createEngineDb();
  // Tests run as a local development deployment unless they say otherwise (production is the default).
  // Turnstile's siteverify is the local fake (tests/mocks/turnstile-fake.ts), never the real one.
  const bindings = {
    APP_ENV: 'development',
    TURNSTILE_VERIFY_URL: inject('turnstileVerifyUrl'),
    ...engine.env,
    ...env,
  } as Bindings;
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
  const client = (token?: string) =>
    testClient(app, bindings, undefined, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { db: engine.db, env: bindings, app, request, client, outage: engine.outage };
}
