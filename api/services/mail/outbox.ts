import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { outbox } from '../../../db/schema';
import type { z } from '@hono/zod-openapi';
import type { OutboxMessageSchema } from '../../schemas/dev';

/** The 20 newest emails the development mailer kept, optionally for one recipient. */
export async function latestOutboxMessages(db: Db, to?: string): Promise<z.infer<typeof OutboxMessageSchema>[]> {
  const rows = await db
    .select()
    .from(outbox)
    .where(to ? eq(outbox.to, to) : undefined)
    .orderBy(desc(outbox.createdAt))
    .limit(20);
  return rows.map((row) => ({
    _id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
  }));
}
