import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCampaign, createUser, signedIn } from '../../tests/factories';
import { bodyOf, devOutbox, engineName, setupTestApp } from '#test-app';
import { errorSummary, requestIdFrom, withRequestId } from './logger';

afterEach(() => vi.restoreAllMocks());

/** The JSON lines written to the console while `work` runs. */
async function jsonLogs(work: () => Promise<unknown>): Promise<{ lines: Record<string, unknown>[]; raw: string[] }> {
  const raw: string[] = [];
  for (const level of ['log', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void raw.push(args.map(String).join(' ')));
  }
  await work();
  vi.restoreAllMocks();
  const lines = raw.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { lines, raw };
}

describe(`request logs (${engineName})`, () => {
  it('writes one JSON line per request: request id, route pattern, status, ms and the user id when signed in', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const { user, token } = await signedIn(t.db, 'donor');
    let anonymousId = '';
    let signedInId = '';
    const { lines } = await jsonLogs(async () => {
      anonymousId = (await t.request(`/api/campaigns/${campaign.id}?utm=secret-value`)).headers.get('x-request-id')!;
      signedInId = (await t.request('/api/donations?type=me', { token })).headers.get('x-request-id')!;
      await t.request('/api/no-such-route');
    });
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(3);
    // Rows read and written: D1's meta and the remote protocol's stats; libSQL's file engine has none.
    const rows = engineName === 'libsql' ? null : expect.any(Number);
    expect(requests[0]).toEqual({
      level: 'info',
      msg: 'request',
      request_id: anonymousId,
      method: 'GET',
      route: '/api/campaigns/:id',
      status: 200,
      ms: expect.any(Number),
      user_id: null,
      rows_read: rows,
      rows_written: rows,
    });
    expect(requests[1]).toMatchObject({
      request_id: signedInId,
      route: '/api/donations',
      status: 200,
      user_id: user.id,
    });
    expect(requests[2]).toMatchObject({ level: 'warn', route: 'unmatched', status: 404 });
    // Ids and query strings stay out of the log.
    expect(JSON.stringify(requests)).not.toContain(campaign.id);
    expect(JSON.stringify(requests)).not.toContain('secret-value');
  });

  it('counts the rows each request read and wrote, per request (none on the file engine, which reports none)', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const email = `rows-${crypto.randomUUID().slice(0, 8)}@example.org`;
    await createUser(t.db, { email });
    const { lines } = await jsonLogs(async () => {
      await t.request(`/api/campaigns/${campaign.id}`);
      await t.request('/api/auth/login', { method: 'POST', json: { email } });
      await t.request('/api/health');
    });
    const [read, signIn, health] = lines.filter((line) => line.msg === 'request') as {
      rows_read: number | null;
      rows_written: number | null;
    }[];
    if (engineName === 'libsql') {
      expect([read, signIn, health].map((line) => [line.rows_read, line.rows_written])).toEqual([
        [null, null],
        [null, null],
        [null, null],
      ]);
      return;
    }
    expect(read.rows_read).toBeGreaterThanOrEqual(1);
    expect(read.rows_written).toBe(0);
    // A sign-in code is stored: at least one row written, and the count is this request's alone.
    expect(signIn.rows_written).toBeGreaterThanOrEqual(1);
    expect(health.rows_written ?? 0).toBe(0);
  });

  it('never logs sign-in codes, bearer tokens or the email in a query string', async () => {
    const t = await setupTestApp();
    const email = `logs-${crypto.randomUUID().slice(0, 8)}@example.org`;
    await createUser(t.db, { email });
    let code = '';
    let token = '';
    const { raw } = await jsonLogs(async () => {
      const auth = t.client().api.auth;
      await auth.login.$post({ json: { email } });
      const mail = await devOutbox(t, email);
      code = /code is: (\d{6})/.exec(mail[0].text)![1];
      await auth.login.$post({ json: { email, code: String((Number(code) + 1) % 1e6).padStart(6, '0') } });
      const signedIn = await bodyOf(await auth.login.$post({ json: { email, code } }), 200);
      token = 'token' in signedIn ? signedIn.token : '';
      await t.request('/api/auth', { token });
      await t.request('/api/auth/logout', { method: 'POST', token });
    });
    expect(code).toMatch(/^\d{6}$/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The local outbox prints its emails on purpose (development only, no mail provider); nothing else may.
    const logged = raw.filter((line) => !line.startsWith('[mail] outbox')).join('\n');
    expect(logged).toContain('"route":"/api/auth/login"');
    expect(logged).not.toContain(code);
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(email);
  });

  it("uses the worker's request id, or a fresh one, never arbitrary caller text", () => {
    const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });
    expect(requestIdFrom(headers({ 'x-request-id': '8f3c2a1b-0000-4000-8000-000000000001' }))).toBe(
      '8f3c2a1b-0000-4000-8000-000000000001',
    );
    expect(requestIdFrom(headers({ 'cf-ray': '8a1b2c3d4e5f6a7b-LHR' }))).toBe('8a1b2c3d4e5f6a7b-LHR');
    const forged = requestIdFrom(headers({ 'x-request-id': 'hi"}\n{"level":"info' }));
    expect(forged).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('prefers the id the worker entry assigned over any header, through awaits', async () => {
    const callerSays = { get: (name: string) => (name === 'x-request-id' ? 'caller-chosen-id-0001' : null) };
    const seen = await withRequestId('assigned-by-worker-01', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return requestIdFrom(callerSays);
    });
    expect(seen).toBe('assigned-by-worker-01');
    expect(requestIdFrom(callerSays)).toBe('caller-chosen-id-0001');
  });

  it("summarises errors without a failed query's values", () => {
    const error = new Error('Failed query: select * from users where email = ? params: a@example.org', {
      cause: new Error('D1_ERROR: Network connection lost.'),
    });
    expect(errorSummary(error)).toBe('Error: D1_ERROR: Network connection lost.');
    expect(errorSummary(new Error('Failed query: x params: secret'))).toBe('Error: Failed query: x params: [redacted]');
  });
});
