import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, id } from './columns';
import { userRef } from './users';

/** Messages sent from the dashboard's Contact Support form; admins read and mark them handled. */
export const supportRequests = sqliteTable(
  'support_requests',
  {
    id: id(),
    userId: userRef('user_id', { onDelete: 'cascade' }).notNull(),
    /** The name and address as sent: replies go there even if the account changes later. */
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    handledAt: integer('handled_at', { mode: 'timestamp_ms' }),
    handledBy: userRef('handled_by', { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_requests_inbox_idx').on(t.handledAt, t.createdAt),
    index('support_requests_user_idx').on(t.userId, t.createdAt),
  ],
);
