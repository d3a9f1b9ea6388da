import { z } from '@hono/zod-openapi';
import { describe, expect, it, vi } from 'vitest';
import { engineName, setupTestApp } from '#test-app';
import { createRouter } from './create-app';
import { defineRoute, errorResponses, jsonContent } from './openapi';

type Spec = { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/** "/api/campaigns/:id" and "/api/images/:key{.+}" as the document writes them. */
const asSpecPath = (path: string) => path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, '{$1}');

describe(`OpenAPI document (${engineName})`, () => {
  it('is served at /api/openapi.json and lists every route the app answers, with its method', async () => {
    const { request, app } = await setupTestApp();
    const res = await request('/api/openapi.json');
    expect(res.status).toBe(200);
    const spec = (await res.json()) as Spec;
    expect(spec.openapi).toBe('3.1.0');

    const served = app.routes
      .filter((r) => r.method !== 'ALL' && !['/api/openapi.json', '/api/docs'].includes(r.path))
      .map((r) => `${r.method.toLowerCase()} ${asSpecPath(r.path)}`);
    const documented = Object.entries(spec.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    const unique = [...new Set(served)].sort();
    expect(unique.length).toBeGreaterThanOrEqual(25);
    expect(unique.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !unique.includes(route))).toEqual([]);
    // Every operation documents the error contract next to its answers.
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(Object.keys(op.responses), `${method} ${path}`).toContain('400');
      }
    }
  });

  it('serves the reference page at /api/docs, reading the document', async () => {
    const { request } = await setupTestApp();
    const res = await request('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('/api/openapi.json');
  });

  it('fails loudly (500, logged) when a handler answers a body that does not match its schema, outside production', async () => {
    const route = defineRoute({
      method: 'get',
      path: '/contract-probe',
      responses: { 200: jsonContent(z.object({ n: z.number() }), 'A number'), ...errorResponses },
    });
    const probe = createRouter().openapi(route, (c) => c.json({ n: 'not a number' } as unknown as { n: number }, 200));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const dev = await setupTestApp();
      dev.app.route('/', probe);
      const res = await dev.request('/api/contract-probe');
      expect(res.status).toBe(500);
      // One error line besides the request's own access line (api/middlewares/logger.ts).
      expect(log.mock.calls.filter((call) => !String(call[0]).includes('"msg":"request"'))).toHaveLength(1);
      expect(log.mock.calls.map((call) => call.map(String).join(' ')).join('\n')).toMatch(
        /does not match its schema: n: /,
      );

      // Production trusts the tested contract and skips the check.
      const prod = await setupTestApp({ APP_ENV: 'production', AUTH_SECRET: 'x'.repeat(32) });
      prod.app.route('/', probe);
      const live = await prod.request('/api/contract-probe');
      expect(live.status).toBe(200);
    } finally {
      log.mockRestore();
    }
  });

  it('fails loudly when a handler answers a status its route does not declare', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const t = await setupTestApp();
      const teapot = createRouter().openapi(
        defineRoute({
          method: 'get',
          path: '/teapot-probe',
          responses: { 200: jsonContent(z.object({ ok: z.boolean() }), 'ok') },
        }),
        (c) => c.json({ ok: true }, 418 as 200),
      );
      t.app.route('/', teapot);
      const res = await t.request('/api/teapot-probe');
      expect(res.status).toBe(500);
      expect(log.mock.calls.map((call) => call.map(String).join(' ')).join('\n')).toMatch(
        /answered 418, a status its route does not declare/,
      );
    } finally {
      log.mockRestore();
    }
  });
});
