import { describe, expect, it, vi } from 'vitest';
import { devOutbox, engineName, errorOf, setupTestApp } from '#test-app';

describe(`dev outbox (${engineName})`, () => {
  it('exists only when APP_ENV=development: a deploy that forgets APP_ENV keeps sign-in codes private', async () => {
    const dev = await setupTestApp({ APP_ENV: 'development' });
    expect(Array.isArray(await devOutbox(dev, 'a@example.org'))).toBe(true);
    for (const appEnv of [undefined, '', 'production', 'staging']) {
      const t = await setupTestApp({ APP_ENV: appEnv, AUTH_SECRET: 'a-test-secret-of-reasonable-length' });
      const res = await t.client().api.dev.outbox.$get({ query: { to: 'a@example.org' } });
      expect(res.status, `APP_ENV=${appEnv}`).toBe(404);
      await errorOf(res, 404);
    }
  });

  it('turns sign-in off in production without an auth secret, instead of using the development key', async () => {
    const t = await setupTestApp({ APP_ENV: undefined, MAIL_API_KEY: 're_test' });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await t.client().api.auth.login.$post({ json: { email: 'a@example.org' } });
    expect(log).toHaveBeenCalledWith(
      JSON.stringify({ level: 'error', msg: 'AUTH_SECRET is not set; sign-in is disabled' }),
    );
    log.mockRestore();
    expect(await errorOf(res, 503)).toEqual({
      statusCode: 503,
      message: 'Sign-in is temporarily unavailable. Please try again later.',
    });
    // The rest of the API keeps working.
    expect((await t.client().api.campaigns.$get({ query: {} })).status).toBe(200);
  });
});
