import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { outbox } from '../../../db/schema';
import type { ReceivedMail } from '../../../tests/mocks/mail-provider';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { readConfig } from '../../lib/config';
import { createMailer } from './mailer';

/**
 * The HTTP mailer with the runtime's own fetch against a real HTTP provider (the run's fake): in
 * workerd a fetch called as a method of another object is refused, which only a real send shows.
 */
describe(`the mail provider over the runtime's fetch (${engineName})`, () => {
  let t: TestApp;
  const url = inject('mailProviderUrl');
  const received = async (tag: string) => {
    const all = (await (await fetch(url.replace(/\/emails$/, '/received'))).json()) as ReceivedMail[];
    return all.filter((mail) => String(mail.body?.to?.[0]).startsWith(tag));
  };

  beforeAll(async () => {
    t = await setupTestApp({ MAIL_API_KEY: 're_test', MAIL_API_URL: url });
  });

  it('sends a message alone, and the receipts of one second after an answer in one batch request', async () => {
    const tag = `provider-${crypto.randomUUID().slice(0, 8)}`;
    const mailer = createMailer(t.db, readConfig(t.env));
    const message = (i: number) => ({
      to: `${tag}-${i}@example.org`,
      subject: `Your receipt ${i}`,
      text: 'Thank you',
      html: '<p>Thank you</p>',
      key: `receipt:${tag}-${i}`,
    });
    const { id } = await mailer.send(message(0));
    const rows = await t.db.insert(outbox).values([1, 2, 3].map(message)).returning({ id: outbox.id });
    await Promise.all(rows.map((row, i) => mailer.transmit(row.id, message(i + 1), { gather: true })));
    const mails = await received(tag);
    expect(mails.map((mail) => mail.body.to[0]).sort()).toEqual([0, 1, 2, 3].map((i) => message(i).to));
    expect(mails.find((mail) => mail.body.to[0] === message(0).to)).toMatchObject({
      url: '/emails',
      headers: { 'idempotency-key': `outbox/${id}` },
    });
    // The first of the three went at once; the other two shared one batch request.
    expect(mails.filter((mail) => mail.url === '/emails/batch')).toHaveLength(2);
    for (const row of [{ id }, ...rows]) {
      const [stored] = await t.db.select().from(outbox).where(eq(outbox.id, row.id));
      expect(stored.sentAt).toBeInstanceOf(Date);
    }
  });
});
