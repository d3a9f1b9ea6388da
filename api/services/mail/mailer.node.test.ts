import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginCodes, outbox } from '../../../db/schema';
import { fakeMailProvider } from '../../../tests/mocks/mail-provider';
import { messageOf, setupTestApp, type TestApp } from '#test-app';
import { appealGiftsEmail } from '../notifications/fundraiser-mail';
import { loginCodeEmail } from './mailer';

describe('HTTP mail provider (node)', () => {
  const provider = fakeMailProvider();
  let t: TestApp;
  let ipCount = 0;
  const login = (email: string) =>
    t.request('/api/auth/login', {
      method: 'POST',
      json: { email },
      headers: { 'x-forwarded-for': `192.0.2.${++ipCount}` },
    });

  beforeAll(async () => {
    const url = await provider.start();
    t = await setupTestApp({ MAIL_API_KEY: 're_test_key', MAIL_API_URL: url, MAIL_FROM: 'UK NFP <codes@uknfp.test>' });
  });
  afterAll(() => provider.stop());

  it('POSTs the branded email as JSON with the bearer key and marks the outbox row sent', async () => {
    const res = await login('Provider.Test@Example.org');
    expect(res.status).toBe(200);
    expect(provider.received).toHaveLength(1);
    const [call] = provider.received;
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/emails');
    expect(call.headers.authorization).toBe('Bearer re_test_key');
    expect(call.headers['content-type']).toContain('application/json');
    expect(call.body).toMatchObject({ from: 'UK NFP <codes@uknfp.test>', to: ['provider.test@example.org'] });
    const code = /code is: (\d{6})/.exec(call.body.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(call.body.subject).toContain(code);
    expect(call.body.html).toContain(code);
    expect(call.body.text).toContain('expires in 10 minutes');
    const [row] = await t.db.select().from(outbox).where(eq(outbox.to, 'provider.test@example.org'));
    expect(row.sentAt).toBeInstanceOf(Date);
    // The code went to the provider only: the stored row does not hold it anywhere.
    for (const field of [row.subject, row.text, row.html]) {
      expect(field).not.toContain(code);
      expect(field).toContain('[redacted]');
    }

    const verified = await t.request('/api/auth/login', {
      method: 'POST',
      json: { email: 'provider.test@example.org', code, first_name: 'Pro', last_name: 'Vider' },
      headers: { 'x-forwarded-for': '192.0.2.200' },
    });
    expect(verified.status).toBe(200);
  });

  it('answers 502 with a clear message when the provider fails, and leaves the outbox row unsent', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    provider.setStatus(500);
    try {
      const res = await login('down@example.org');
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ statusCode: 502, message: expect.stringMatching(/could not send the email/) });
      const [row] = await t.db.select().from(outbox).where(eq(outbox.to, 'down@example.org'));
      expect(row.sentAt).toBeNull();
      expect(errors).toHaveBeenCalled();
      // The code was written before sending; a later request replaces it.
      expect(await t.db.select().from(loginCodes).where(eq(loginCodes.email, 'down@example.org'))).toHaveLength(1);
    } finally {
      provider.setStatus(200);
      errors.mockRestore();
    }
  });

  it('answers 502 when the provider cannot be reached at all', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const offline = await setupTestApp({ MAIL_API_KEY: 'k', MAIL_API_URL: 'http://127.0.0.1:9/emails' });
      const res = await offline.request('/api/auth/login', { method: 'POST', json: { email: 'offline@example.org' } });
      expect(res.status).toBe(502);
    } finally {
      errors.mockRestore();
    }
  });

  it('hides the dev outbox when a provider is configured or in production', async () => {
    expect((await t.request('/api/dev/outbox?to=down@example.org')).status).toBe(404);
    const prod = await setupTestApp({ APP_ENV: 'production', AUTH_SECRET: 'prod-secret-for-test' });
    expect((await prod.request('/api/dev/outbox')).status).toBe(404);
    const local = await setupTestApp();
    expect((await local.request('/api/dev/outbox')).status).toBe(200);
  });

  it('refuses to send in production without a provider instead of leaking codes to logs', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const prod = await setupTestApp({ APP_ENV: 'production', AUTH_SECRET: 'prod-secret-for-test' });
      const res = await prod.request('/api/auth/login', { method: 'POST', json: { email: 'p@example.org' } });
      expect(res.status).toBe(503);
      expect(await messageOf(res)).toMatch(/email delivery is not configured/);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('sign-in email', () => {
  it('escapes user-provided text in the HTML and keeps the plain text readable', () => {
    const mail = loginCodeEmail({
      to: 'a&b@example.org',
      code: '042917',
      firstName: '<script>alert(1)</script>',
      minutes: 10,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('a&amp;b@example.org');
    expect(mail.text).toContain('Your UK NFP sign-in code is: 042917');
    expect(mail.text).toContain('expires in 10 minutes');
    expect(mail.subject).toBe('042917 is your UK NFP sign-in code');
  });
});

describe("the site's own emails", () => {
  it('do not call the site a registered charity: the gift goes to the charity named on its page', () => {
    const mails = [
      loginCodeEmail({ to: 'a@example.org', code: '042917', minutes: 10 }),
      appealGiftsEmail(
        {
          to: 'f@example.org',
          firstName: 'Fran',
          appealTitle: 'Fran runs',
          raised: 1000,
          goal: 45000,
          appealUrl: 'https://example.org/appeals/x',
          settingsUrl: 'https://example.org/dashboard/donors/edit/me',
          myAppealsUrl: 'https://example.org/dashboard/active-appeals',
        },
        { count: 1, total: 1000 },
      ),
    ];
    for (const mail of mails) {
      for (const body of [mail.text, mail.html]) {
        expect(body).not.toContain('a UK registered charity');
        expect(body).toContain('UK NFP: every gift goes to the registered charity named on its page');
      }
    }
  });
});
