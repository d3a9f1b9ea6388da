import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createRouter } from './create-app';
import { engineName, setupTestApp } from '#test-app';

describe(`API foundation (${engineName})`, () => {
  it('reports database reachability on /api/health', async () => {
    const t = await setupTestApp();
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: { reachable: true } });
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const t = await setupTestApp();
    const res = await t.request('/api/no-such-thing', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: 404, message: 'No route for POST /api/no-such-thing' });
  });

  it('turns malformed JSON into a 400 and oversized bodies into a 413', async () => {
    const t = await setupTestApp();
    // A real route with a declared body: the app's zod hook and body limit answer for every route.
    const bad = await t.request('/api/auth/login', {
      method: 'POST',
      body: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()) as { statusCode: number; message: string }).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/valid JSON/),
    });
    const big = await t.request('/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ email: 'a@example.org', first_name: 'x'.repeat(200 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { statusCode: number }).statusCode).toBe(413);
  });

  it('hides unexpected errors behind a generic 500 with a request id, and logs them', async () => {
    const t = await setupTestApp();
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    t.app.get('/boom', async (c) => {
      await c.var.db.run(sql`select * from no_such_table`);
      return c.text('unreachable');
    });
    const res = await t.request('/api/boom');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { statusCode: number; message: string };
    expect(body.statusCode).toBe(500);
    expect(body.message).toMatch(/^Something went wrong on our side\. Reference: /);
    expect(body.message).not.toMatch(/no_such_table/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  it('builds routers that share the error contract', () => {
    expect(typeof createRouter().get).toBe('function');
  });
});
