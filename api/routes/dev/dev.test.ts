import { describe, expect, it, vi } from 'vitest';
import { engineName, setupTestApp } from '../../../tests/setup/test-app';

describe(`dev outbox (${engineName})`, () => {
  it('exists only when APP_ENV=development: a deploy that forgets APP_ENV keeps sign-in codes private', async () => {
    const dev = await setupTestApp({ APP_ENV: 'development' });
    expect((await dev.request('/api/dev/outbox?to=a@example.org')).status).toBe(200);
    for (const appEnv of [undefined, '', 'production', 'staging']) {
      const t = await setupTestApp({ APP_ENV: appEnv, AUTH_SECRET: 'a-test-secret-of-reasonable-length' });
      const res = await t.request('/api/dev/outbox?to=a@example.org');
      expect(res.status, `APP_ENV=${appEnv}`).toBe(404);
      expect(((await res.json()) as { statusCode: number }).statusCode).toBe(404);
    }
  });

  it('turns sign-in off in production without an auth secret, instead of using the development key', async () => {
    const t = await setupTestApp({ APP_ENV: undefined, MAIL_API_KEY: 're_test' });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await t.request('/api/auth/login', { method: 'POST', json: { email: 'a@example.org' } });
    expect(log).toHaveBeenCalledWith(
      JSON.stringify({ level: 'error', msg: 'AUTH_SECRET is not set; sign-in is disabled' }),
    );
    log.mockRestore();
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      statusCode: 503,
      message: 'Sign-in is temporarily unavailable. Please try again later.',
    });
    // The rest of the API keeps working.
    expect((await t.request('/api/campaigns')).status).toBe(200);
  });
});
