import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt, id } from './columns';

/** Every email the app sends is written here first; the local mailer stops there. */
export const outbox = sqliteTable(
  'outbox',
  {
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    /** Set for messages that must go once ("receipt:<donation id>"): a second insert is a no-op. */
    key: text('key'),
    createdAt: createdAt(),
    /** Sends tried by the mail retry (api/services/mail/retry.ts); it gives up after MAIL_RETRY.maxAttempts. */
    attempts: integer('attempts').notNull().default(0),
    /** When the mail retry last claimed the row: another run leaves it alone for MAIL_RETRY.claimMs. */
    lastAttemptAt: integer('last_attempt_at', { mode: 'timestamp_ms' }),
    /** The Idempotency-Key of the batch request that carried the row (sendBatch, api/services/mail/mailer.ts); null when sent alone. */
    batchKey: text('batch_key'),
  },
  (t) => [
    index('outbox_to_idx').on(t.to, t.createdAt),
    uniqueIndex('outbox_key_unique').on(t.key),
    index('outbox_created_idx').on(t.createdAt),
    // The mail retry's look-up reads the keyed messages still unsent, never the sent ones.
    index('outbox_unsent_idx').on(t.createdAt).where(sql`${t.sentAt} is null and ${t.key} is not null`),
    // The retry sends an unsent batch whole: it finds the batch's other rows by their key.
    index('outbox_batch_idx').on(t.batchKey).where(sql`${t.batchKey} is not null and ${t.sentAt} is null`),
  ],
);
