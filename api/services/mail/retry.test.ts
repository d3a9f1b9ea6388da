import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { outbox } from '../../../db/schema';
import { readConfig } from '../../lib/config';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { MAX_BOUND_PARAMS } from '../../../db/chunks';
import { createMailer, loginCodeEmail, logMailFailure, MAX_BATCH, MailProviderBusy } from './mailer';
import { MAIL_RETRY, retryUnsentMail } from './retry';

const MINUTE = 60_000;
const noWait = async () => {};

/**
 * The mail provider at the network boundary: answers each request with the next status (then 200;
 * 0: no answer at all). `calls` lists every message, alone or in a batch; `requests` every request.
 */
function provider(statuses: number[] = []) {
  const calls: { to: string; subject: string; key: string | null }[] = [];
  const requests: { url: string; key: string | null; messages: { to: string; subject: string }[] }[] = [];
  const send = (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as
      | { to: string[]; subject: string }
      | { to: string[]; subject: string }[];
    const key = new Headers(init.headers).get('idempotency-key');
    const messages = (Array.isArray(body) ? body : [body]).map((m) => ({ to: m.to[0], subject: m.subject }));
    requests.push({ url, key, messages });
    for (const m of messages) calls.push({ ...m, key });
    const status = statuses.shift() ?? 200;
    if (status === 0) throw new TypeError('fetch failed: the answer was lost');
    const answer = Array.isArray(body) ? { data: messages.map((_, i) => ({ id: `msg_${i}` })) } : { id: 'msg' };
    return new Response(JSON.stringify(status < 300 ? answer : { message: 'no' }), {
      status,
      headers: status === 429 ? { 'retry-after': '1' } : {},
    });
  }) as unknown as typeof globalThis.fetch;
  return { calls, requests, fetch: send };
}

describe(`the scheduled mail retry (${engineName})`, () => {
  let t: TestApp;
  let now: Date;
  /** A provider URL of the test's own: the mailer remembers a busy provider by its URL. */
  const config = (url = 'https://mail.test/emails') =>
    readConfig({ ...t.env, MAIL_API_KEY: 're_test', MAIL_API_URL: url });
  const tag = () => crypto.randomUUID().slice(0, 8);
  /** An outbox row as the webhook leaves it when the provider refused its send. */
  const unsent = async (fields: { key?: string | null; ageMs?: number; attempts?: number; sentAt?: Date } = {}) => {
    const id = tag();
    const [row] = await t.db
      .insert(outbox)
      .values({
        to: `${id}@example.org`,
        subject: `Your receipt ${id}`,
        text: 'Thank you',
        html: '<p>Thank you</p>',
        key: fields.key === undefined ? `receipt:${id}` : fields.key,
        attempts: fields.attempts ?? 0,
        sentAt: fields.sentAt ?? null,
        createdAt: new Date(now.getTime() - (fields.ageMs ?? 5 * MINUTE)),
      })
      .returning();
    return row;
  };
  const stored = async (id: string) => (await t.db.select().from(outbox).where(eq(outbox.id, id)))[0];
  /** Marks every row unsent so far as sent, so each test sees only its own. */
  const settleOthers = () => t.db.update(outbox).set({ sentAt: new Date(0) });

  beforeAll(async () => {
    t = await setupTestApp();
    now = new Date();
  });

  it('sends a refused receipt once, with the outbox id as the provider’s idempotency key; a second run sends nothing', async () => {
    await settleOthers();
    const row = await unsent();
    const mail = provider();
    expect(await retryUnsentMail(t.db, config(), { now, fetch: mail.fetch, sleep: noWait })).toEqual({
      mail_retried: 1,
      mail_retry_failed: 0,
      mail_retry_deferred: false,
    });
    expect(mail.calls).toEqual([{ to: row.to, subject: row.subject, key: `outbox/${row.id}` }]);
    expect((await stored(row.id)).sentAt).toBeInstanceOf(Date);
    await retryUnsentMail(t.db, config(), { now: new Date(now.getTime() + 20 * MINUTE), fetch: mail.fetch });
    expect(mail.calls).toHaveLength(1);
  });

  it('leaves rows still on their way, sign-in codes (no key), sent rows and rows too old', async () => {
    await settleOthers();
    const young = await unsent({ ageMs: MAIL_RETRY.afterMs - 10_000 });
    await unsent({ key: null });
    await unsent({ sentAt: new Date() });
    const old = await unsent({ ageMs: MAIL_RETRY.giveUpAfterMs + MINUTE });
    const mail = provider();
    expect((await retryUnsentMail(t.db, config(), { now, fetch: mail.fetch, sleep: noWait })).mail_retried).toBe(0);
    expect(mail.calls).toEqual([]);
    expect((await stored(young.id)).attempts).toBe(0);
    expect((await stored(old.id)).sentAt).toBeNull();
  });

  it('stops at a 429 and gives the attempt back; the next run sends the rest, oldest first', async () => {
    await settleOthers();
    const first = await unsent({ ageMs: 9 * MINUTE });
    const second = await unsent({ ageMs: 8 * MINUTE });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const busy = provider([200, 429]);
    const waits: number[] = [];
    const busyConfig = config('https://busy.mail.test/emails');
    const counts = await retryUnsentMail(t.db, busyConfig, {
      now,
      fetch: busy.fetch,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(counts).toEqual({ mail_retried: 1, mail_retry_failed: 0, mail_retry_deferred: true });
    // Paced at the provider's rate between sends.
    expect(waits).toEqual([1000 / MAIL_RETRY.perSecond]);
    expect(busy.calls.map((c) => c.to)).toEqual([first.to, second.to]);
    expect(JSON.stringify(warn.mock.calls)).toContain('mail provider busy');
    warn.mockRestore();
    const after = await stored(second.id);
    expect(after).toMatchObject({ sentAt: null, attempts: 0, lastAttemptAt: null });
    // Within the provider's Retry-After (1 s) nothing is offered; after it, the rest goes.
    const later = provider();
    await retryUnsentMail(t.db, busyConfig, { now, fetch: later.fetch, sleep: noWait });
    expect(later.calls).toEqual([]);
    const afterPause = () => Date.now() + 1_500;
    await retryUnsentMail(t.db, busyConfig, { now, fetch: later.fetch, sleep: noWait, clock: afterPause });
    expect(later.calls.map((c) => c.to)).toEqual([second.to]);
  });

  it('while the provider is busy, offers sign-in codes (no key) but not receipts, which the retry sends later', async () => {
    await settleOthers();
    const busyConfig = config('https://pause.mail.test/emails');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const mail = provider([429]);
    const mailer = createMailer(t.db, busyConfig, { fetch: mail.fetch });
    const receipt = { to: 'r@example.org', subject: 'Your receipt', text: 't', html: 'h', key: `receipt:${tag()}` };
    await expect(mailer.send(receipt)).rejects.toBeInstanceOf(MailProviderBusy);
    // The provider asked for a pause: the next receipt is kept for the retry without a call.
    const next = { ...receipt, key: `receipt:${tag()}` };
    await expect(mailer.send(next)).rejects.toBeInstanceOf(MailProviderBusy);
    expect(mail.calls).toHaveLength(1);
    await mailer.send(loginCodeEmail({ to: 'code@example.org', code: '123456', minutes: 10 }));
    expect(mail.calls.map((c) => c.to)).toEqual(['r@example.org', 'code@example.org']);
    warn.mockRestore();
    const rows = await t.db.select().from(outbox).where(eq(outbox.subject, 'Your receipt'));
    expect(rows.filter((r) => r.sentAt === null)).toHaveLength(2);
  });

  it('tries a refused message at most MAIL_RETRY.maxAttempts times, then logs that it gave up', async () => {
    await settleOthers();
    const row = await unsent({ attempts: MAIL_RETRY.maxAttempts - 1 });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const down = provider([500]);
    expect((await retryUnsentMail(t.db, config(), { now, fetch: down.fetch, sleep: noWait })).mail_retry_failed).toBe(
      1,
    );
    const logged = JSON.stringify(errors.mock.calls);
    expect(logged).toContain('email given up after its retries');
    expect(logged).toContain(row.id);
    errors.mockRestore();
    const again = provider();
    await retryUnsentMail(t.db, config(), { now: new Date(now.getTime() + 60 * MINUTE), fetch: again.fetch });
    expect(again.calls).toEqual([]);
    expect(await stored(row.id)).toMatchObject({ sentAt: null, attempts: MAIL_RETRY.maxAttempts });
  });

  it('sends each row once when two runs overlap', async () => {
    await settleOthers();
    const rows = [await unsent(), await unsent(), await unsent()];
    const mail = provider();
    await Promise.all([
      retryUnsentMail(t.db, config(), { now, fetch: mail.fetch, sleep: noWait }),
      retryUnsentMail(t.db, config(), { now, fetch: mail.fetch, sleep: noWait }),
    ]);
    expect(mail.calls.map((c) => c.to).sort()).toEqual(rows.map((r) => r.to).sort());
  });

  /** A row's message as the webhook hands it over. */
  const messageOf = (row: typeof outbox.$inferSelect) => ({
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    key: row.key ?? undefined,
  });
  /** Four receipts handed over after a worker's answer in the same second: the first alone, three in a batch. */
  const sendAfterAnswer = async (url: string, statuses: number[] = []) => {
    // A quiet second first: the gathering window of the last test's sends has closed.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const rows = [await unsent(), await unsent(), await unsent(), await unsent()];
    const mail = provider(statuses);
    const mailer = createMailer(t.db, config(url), { fetch: mail.fetch });
    const outcomes = await Promise.allSettled(
      rows.map((row) => mailer.transmit(row.id, messageOf(row), { gather: true })),
    );
    const batched = rows.slice(1).sort((a, b) => (a.id < b.id ? -1 : 1));
    return { rows, batched, mail, outcomes };
  };

  it('after a worker’s answer, the receipts of one second go in one batch request and one sent write', async () => {
    await settleOthers();
    const { rows, batched, mail, outcomes } = await sendAfterAnswer('https://gather.mail.test/emails');
    expect(outcomes.every((o) => o.status === 'fulfilled')).toBe(true);
    // The first of a quiet spell goes at once and alone; the other three wait for the second's end.
    expect(mail.requests.map((r) => [r.url, r.key, r.messages.length])).toEqual([
      ['https://gather.mail.test/emails', `outbox/${rows[0].id}`, 1],
      ['https://gather.mail.test/emails/batch', `outbox/batch/${batched[0].id}`, 3],
    ]);
    // In id order, so that a retry of the batch sends the very same body.
    expect(mail.requests[1].messages.map((m) => m.to)).toEqual(batched.map((r) => r.to));
    const after = await Promise.all(rows.map((row) => stored(row.id)));
    expect(after.every((row) => row.sentAt instanceof Date)).toBe(true);
    expect(new Set(after.slice(1).map((row) => row.sentAt?.getTime())).size).toBe(1);
    expect((after[1].sentAt?.getTime() ?? 0) - (after[0].sentAt?.getTime() ?? 0)).toBeGreaterThanOrEqual(500);
    expect(after.map((row) => row.batchKey)).toEqual([null, ...Array(3).fill(`outbox/batch/${batched[0].id}`)]);
  });

  it('a second of 101 receipts goes in batches that one D1 statement can key and mark (90, then 10)', async () => {
    await settleOthers();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const rows = await Promise.all(Array.from({ length: 101 }, () => unsent()));
    const mail = provider();
    const mailer = createMailer(t.db, config('https://storm.mail.test/emails'), { fetch: mail.fetch });
    const outcomes = await Promise.allSettled(
      rows.map((row) => mailer.transmit(row.id, messageOf(row), { gather: true })),
    );
    // D1 refuses more than 100 bound parameters: a batch of 100 ids failed there before the limit.
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    expect(MAX_BATCH).toBe(MAX_BOUND_PARAMS);
    expect(mail.requests.map((r) => r.messages.length)).toEqual([1, MAX_BATCH, 100 - MAX_BATCH]);
    const after = await Promise.all(rows.map((row) => stored(row.id)));
    expect(after.filter((row) => row.sentAt === null)).toEqual([]);
  });

  it('a batch whose answer was lost is sent again whole, same key and body, never one by one', async () => {
    await settleOthers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { batched, outcomes } = await sendAfterAnswer('https://lost.mail.test/emails', [200, 0]);
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(3);
    expect(JSON.stringify(error.mock.calls)).toContain('mail provider unreachable');
    error.mockRestore();
    const key = `outbox/batch/${batched[0].id}`;
    for (const row of batched) expect(await stored(row.id)).toMatchObject({ sentAt: null, batchKey: key });
    const later = new Date(now.getTime() + MAIL_RETRY.afterMs + 60_000);
    const mail = provider();
    const counts = await retryUnsentMail(t.db, config('https://lost.mail.test/emails'), {
      now: later,
      fetch: mail.fetch,
      sleep: noWait,
    });
    expect(counts).toEqual({ mail_retried: 3, mail_retry_failed: 0, mail_retry_deferred: false });
    expect(mail.requests).toEqual([
      {
        url: 'https://lost.mail.test/emails/batch',
        key,
        messages: batched.map((row) => ({ to: row.to, subject: row.subject })),
      },
    ]);
    for (const row of batched) expect((await stored(row.id)).sentAt).toBeInstanceOf(Date);
    await retryUnsentMail(t.db, config('https://lost.mail.test/emails'), {
      now: new Date(later.getTime() + 20 * MINUTE),
      fetch: mail.fetch,
      sleep: noWait,
    });
    expect(mail.requests).toHaveLength(1);
  });

  it('a batch the provider refused outright (422) goes one by one, each under its own key', async () => {
    await settleOthers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { batched } = await sendAfterAnswer('https://strict.mail.test/emails', [200, 422]);
    expect(JSON.stringify(error.mock.calls)).toContain('mail provider refused');
    error.mockRestore();
    for (const row of batched) expect(await stored(row.id)).toMatchObject({ sentAt: null, batchKey: null });
    const mail = provider();
    const counts = await retryUnsentMail(t.db, config('https://strict.mail.test/emails'), {
      now: new Date(now.getTime() + MAIL_RETRY.afterMs + 60_000),
      fetch: mail.fetch,
      sleep: noWait,
    });
    expect(counts.mail_retried).toBe(3);
    expect(mail.requests.map((r) => [r.url, r.key]).sort()).toEqual(
      batched.map((row) => ['https://strict.mail.test/emails', `outbox/${row.id}`]).sort(),
    );
  });

  it('a batch the provider was too busy for (429) keeps its key and waits for the retry', async () => {
    await settleOthers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { batched, outcomes } = await sendAfterAnswer('https://full.mail.test/emails', [200, 429]);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason)).toEqual(
      Array(3).fill(expect.any(MailProviderBusy)),
    );
    expect(JSON.stringify(warn.mock.calls)).toContain('mail provider busy');
    warn.mockRestore();
    const key = `outbox/batch/${batched[0].id}`;
    for (const row of batched) expect(await stored(row.id)).toMatchObject({ sentAt: null, batchKey: key });
    const mail = provider();
    await retryUnsentMail(t.db, config('https://full.mail.test/emails'), {
      now: new Date(now.getTime() + MAIL_RETRY.afterMs + 60_000),
      fetch: mail.fetch,
      sleep: noWait,
      clock: () => Date.now() + 1_500,
    });
    expect(mail.requests.map((r) => [r.key, r.messages.length])).toEqual([[key, 3]]);
  });

  it('logs a busy provider as a warning (the retry sends it) and any other failure as an error', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    logMailFailure('fundraiser email failed', new MailProviderBusy(), { appeal_id: 'a1' });
    expect(JSON.stringify(warn.mock.calls)).toContain('fundraiser email failed');
    expect(error).not.toHaveBeenCalled();
    logMailFailure('fundraiser email failed', new Error('provider is down'));
    expect(JSON.stringify(error.mock.calls)).toContain('provider is down');
    warn.mockRestore();
    error.mockRestore();
  });

  it('does nothing without a mail provider (development keeps its outbox)', async () => {
    await settleOthers();
    const row = await unsent();
    const mail = provider();
    const counts = await retryUnsentMail(t.db, readConfig({ ...t.env, MAIL_API_KEY: '' }), { now, fetch: mail.fetch });
    expect(counts.mail_retried).toBe(0);
    expect(mail.calls).toEqual([]);
    expect((await stored(row.id)).attempts).toBe(0);
  });
});
