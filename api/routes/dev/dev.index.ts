import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { outbox } from '../../../db/schema';
import { createRouter } from '../../lib/create-app';
import { notFound } from '../../lib/errors';
import { readQuery } from '../../lib/validate';
import { devOutboxEnabled } from '../../services/mailer';

const querySchema = z.object({
  to: z.string().trim().toLowerCase().max(254, 'to must be at most 254 characters').optional(),
});

/** Local-only tools. The outbox answers 404 unless APP_ENV=development and no real mail is configured. */
export const devRouter = createRouter().get('/dev/outbox', async (c) => {
  if (!devOutboxEnabled(c.var.config)) throw notFound(`No route for GET /api/dev/outbox`);
  const { to } = readQuery(c, querySchema);
  const rows = await c.var.db
    .select()
    .from(outbox)
    .where(to ? eq(outbox.to, to) : undefined)
    .orderBy(desc(outbox.createdAt))
    .limit(20);
  return c.json(
    rows.map((row) => ({
      _id: row.id,
      to: row.to,
      subject: row.subject,
      text: row.text,
      html: row.html,
      created_at: row.createdAt.toISOString(),
      sent_at: row.sentAt?.toISOString() ?? null,
    })),
  );
});
