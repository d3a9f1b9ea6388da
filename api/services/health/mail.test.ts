import { beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../../db/schema';
import { signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';
import { MAIL_RETRY } from '../mail/retry';

const MINUTE = 60_000;

describe(`GET /api/health/mail: email delivery as an admin sees it (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupTestApp({ MAIL_API_KEY: 're_test', MAIL_API_URL: 'https://mail.test/emails' });
  });

  const row = (fields: { ageMs: number; sentAt?: Date; attempts?: number; key?: string | null }) => {
    const id = crypto.randomUUID();
    return {
      to: `${id.slice(0, 8)}@example.org`,
      subject: 'Your receipt',
      text: 'Thank you',
      html: '<p>Thank you</p>',
      key: fields.key === undefined ? `receipt:${id}` : fields.key,
      createdAt: new Date(Date.now() - fields.ageMs),
      sentAt: fields.sentAt ?? null,
      attempts: fields.attempts ?? 0,
    };
  };

  it('counts receipts waiting for the provider, the oldest one, those given up after their retries and the last day’s sent', async () => {
    const admin = (await signedIn(t.db, 'admin')).token;
    const health = t.client(admin).api.health.mail.$get;
    const before = await bodyOf(await health(), 200);
    expect(before.provider).toBe(true);
    const oldest = row({ ageMs: 30 * MINUTE, attempts: 2 });
    await t.db.insert(outbox).values([
      oldest,
      row({ ageMs: 5 * MINUTE }),
      // Given up: out of tries, or too old for the retry.
      row({ ageMs: 60 * MINUTE, attempts: MAIL_RETRY.maxAttempts }),
      row({ ageMs: MAIL_RETRY.giveUpAfterMs + MINUTE }),
      // Sent within the day, and a sign-in code (no key) that was never sent: neither waits.
      row({ ageMs: 10 * MINUTE, sentAt: new Date() }),
      row({ ageMs: 2 * MINUTE, key: null }),
    ]);
    const after = await bodyOf(await health(), 200);
    expect(after.waiting - before.waiting).toBe(2);
    expect(after.given_up - before.given_up).toBe(2);
    expect(after.sent_last_day - before.sent_last_day).toBe(1);
    expect(Date.parse(after.oldest_waiting_at ?? '')).toBeLessThanOrEqual(oldest.createdAt.getTime());
  });

  it('is for admins only', async () => {
    const orgAdmin = (await signedIn(t.db, 'org_admin')).token;
    await errorOf(await t.client(orgAdmin).api.health.mail.$get(), 403);
    await errorOf(await t.client().api.health.mail.$get(), 401);
  });
});
