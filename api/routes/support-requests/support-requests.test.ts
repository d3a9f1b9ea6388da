import type { InferResponseType } from 'hono/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SUPPORT_REQUEST_LIMITS, SUPPORT_REQUESTS_PER_HOUR } from '../../../domain/support';
import { signedIn } from '../../../tests/factories';
import {
  bodyOf,
  devOutbox,
  engineName,
  errorOf,
  messageOf,
  setupTestApp,
  type TestApp,
  type TestClient,
} from '#test-app';

/** A sent message as the route answers it (read from the raw requests below). */
type Sent = InferResponseType<TestClient['api']['support-requests']['$post'], 201>;

const stamp = () => crypto.randomUUID().slice(0, 8);

const support = (t: TestApp, token?: string) => t.client(token).api['support-requests'];
const send = (t: TestApp, token: string | undefined, json: { name: string; subject: string; message: string }) =>
  support(t, token).$post({ json });
/** The open (or `status`) messages the caller may read. */
const inboxOf = async (t: TestApp, token: string, status?: 'open' | 'handled' | 'all') =>
  bodyOf(await support(t, token).$get({ query: status ? { status } : {} }), 200);
const handle = (t: TestApp, token: string, id: string) =>
  support(t, token)[':id'].$put({ param: { id }, json: { handled: true } });

// Bodies with an unknown field or of the wrong types, and a status the query does not know, are what some
// requests below check: those are sent raw (t.request), as the typed client would refuse them.

describe(`Contact Support (${engineName})`, () => {
  afterEach(() => vi.restoreAllMocks());

  it('stores the message, emails the charity and a copy to the sender, and admins see it in the inbox until handled', async () => {
    const support = `support-${stamp()}@charity.example`;
    const t = await setupTestApp({ SUPPORT_EMAIL: support });
    const donor = await signedIn(t.db, 'donor', {
      overrides: { email: `donor-${stamp()}@example.com`, firstName: 'Priya', lastName: 'Patel' },
    });
    const subject = `Change my monthly gift ${stamp()}`;

    const res = await t.request('/api/support-requests', {
      method: 'POST',
      token: donor.token,
      json: {
        name: '  Priya   Patel ',
        subject,
        message: 'Please move my gift\r\nto the 15th.',
        email: 'someone-else@example.com',
      },
    });
    expect(res.status).toBe(201);
    const sent: Sent = await res.json();
    // The reply address is the account's, whatever the body says; whitespace and line breaks are tidied.
    expect(sent).toMatchObject({
      name: 'Priya Patel',
      email: donor.user.email,
      subject,
      message: 'Please move my gift\nto the 15th.',
      handled_at: null,
      email_sent: true,
    });

    const [toCharity] = await devOutbox(t, support);
    expect(toCharity.subject).toBe(`Contact Support: ${subject}`);
    expect(toCharity.text).toContain(`Priya Patel <${donor.user.email}>`);
    expect(toCharity.text).toContain('Please move my gift\nto the 15th.');
    expect(toCharity.text).toContain('/dashboard/support-inbox');
    const [copy] = await devOutbox(t, donor.user.email);
    expect(copy.subject).toBe(`We received your message: ${subject}`);
    expect(copy.text).toContain('Please move my gift');
    expect(await devOutbox(t, 'someone-else@example.com')).toEqual([]);

    const admin = await signedIn(t.db, 'admin', { overrides: { firstName: 'Ada', lastName: 'Admin' } });
    const open = await inboxOf(t, admin.token);
    expect(open.find((m) => m._id === sent._id)).toMatchObject({ subject, email: donor.user.email });

    const handled = await handle(t, admin.token, sent._id);
    expect(await bodyOf(handled, 200)).toMatchObject({ _id: sent._id, handled_by: 'Ada Admin' });
    const stillOpen = await inboxOf(t, admin.token);
    expect(stillOpen.map((m) => m._id)).not.toContain(sent._id);
    const done = await inboxOf(t, admin.token, 'handled');
    expect(done.find((m) => m._id === sent._id)?.handled_at).toEqual(expect.any(String));
    // A status the inbox does not have is named plainly, not in zod's words.
    const bogus = await t.request('/api/support-requests?status=closed', { token: admin.token });
    expect(bogus.status).toBe(400);
    expect(await messageOf(bogus)).toBe('status: Must be one of: open, handled, all');
    // The sender sees it answered among their own messages.
    const mine = await inboxOf(t, donor.token);
    expect(mine.map((m) => m._id)).toEqual([sent._id]);
    expect(mine[0].handled_at).toEqual(expect.any(String));
  });

  it('donors and organization admins read only their own messages and cannot mark any handled', async () => {
    const t = await setupTestApp();
    const donor = await signedIn(t.db, 'donor');
    const other = await signedIn(t.db, 'donor');
    const orgAdmin = await signedIn(t.db, 'org_admin');
    const secret = `Private question ${stamp()}`;
    const sent = await bodyOf(
      await send(t, donor.token, { name: 'Dana Donor', subject: secret, message: 'About my Gift Aid' }),
      201,
    );

    for (const token of [other.token, orgAdmin.token]) {
      const list = await support(t, token).$get({ query: { status: 'all' } });
      expect(list.headers.get('x-total-count')).toBe('0');
      expect(JSON.stringify(await bodyOf(list, 200))).not.toContain(secret);
      const put = await handle(t, token, sent._id);
      expect(put.status).toBe(403);
    }
    expect((await handle(t, donor.token, sent._id)).status).toBe(403);
    expect((await support(t).$get({ query: {} })).status).toBe(401);
    expect((await send(t, undefined, { name: 'A', subject: 'B', message: 'C' })).status).toBe(401);
  });

  it('refuses empty, oversized and HTML input with a message naming the field, and stores nothing', async () => {
    const t = await setupTestApp();
    const donor = await signedIn(t.db, 'donor');
    const ok = { name: 'Dana Donor', subject: 'Receipts', message: 'Where is my receipt?' };
    const cases: [unknown, RegExp][] = [
      [{ ...ok, subject: '   ' }, /^subject: A subject is required$/],
      [{ ...ok, message: '' }, /^message: A message is required$/],
      [{ ...ok, name: undefined }, /^name: Your name is required$/],
      [
        { ...ok, message: 'x'.repeat(SUPPORT_REQUEST_LIMITS.message + 1) },
        new RegExp(`^message: Use at most ${SUPPORT_REQUEST_LIMITS.message} characters$`),
      ],
      [{ ...ok, subject: 's'.repeat(SUPPORT_REQUEST_LIMITS.subject + 1) }, /^subject: Use at most 150 characters$/],
      [{ ...ok, message: 'Hello <script>alert(1)</script>' }, /^message: Write plain text/],
      [{ ...ok, name: '<b>Dana</b>' }, /^name: Write plain text/],
      [{ ...ok, message: 42 }, /^message: /],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('/api/support-requests', { method: 'POST', token: donor.token, json: body });
      expect((await errorOf(res, 400)).message, JSON.stringify(body).slice(0, 80)).toMatch(message);
    }
    // Plain text with a less-than sign is fine.
    expect((await send(t, donor.token, { ...ok, message: 'I gave < £5 by mistake' })).status).toBe(201);
    expect(await inboxOf(t, donor.token)).toHaveLength(1);
  });

  it(`allows ${SUPPORT_REQUESTS_PER_HOUR} messages an hour per account, then 429 with Retry-After`, async () => {
    const t = await setupTestApp();
    const donor = await signedIn(t.db, 'donor');
    const other = await signedIn(t.db, 'donor');
    for (let i = 0; i < SUPPORT_REQUESTS_PER_HOUR; i++) {
      expect((await send(t, donor.token, { name: 'Dana', subject: `Question ${i}`, message: 'Hello' })).status).toBe(
        201,
      );
    }
    const refused = await send(t, donor.token, { name: 'Dana', subject: 'One more', message: 'Hello' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await messageOf(refused)).toMatch(/wait \d+ minutes?/);
    // Another account is not held up.
    expect((await send(t, other.token, { name: 'Olu', subject: 'Hi', message: 'Hello' })).status).toBe(201);
  });

  it('keeps the message when the mail provider is down and says the email did not go', async () => {
    const t = await setupTestApp({ MAIL_API_KEY: 're_test_key', MAIL_API_URL: 'http://127.0.0.1:9/emails' });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const donor = await signedIn(t.db, 'donor');
    const admin = await signedIn(t.db, 'admin');
    const subject = `Mail down ${stamp()}`;
    const res = await send(t, donor.token, { name: 'Dana', subject, message: 'Hello' });
    expect((await bodyOf(res, 201)).email_sent).toBe(false);
    expect(errors.mock.calls.some((call) => String(call[0]).includes('support request mail failed'))).toBe(true);
    const inbox = await inboxOf(t, admin.token);
    expect(inbox.map((m) => m.subject)).toContain(subject);
  });
});
