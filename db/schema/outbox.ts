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
  },
  (t) => [
    index('outbox_to_idx').on(t.to, t.createdAt),
    uniqueIndex('outbox_key_unique').on(t.key),
    index('outbox_created_idx').on(t.createdAt),
  ],
);
