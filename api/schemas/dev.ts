import { z } from '@hono/zod-openapi';

/** Local development's outbox (/dev/outbox). */

export const OutboxQuery = z.object({
  to: z.string().trim().toLowerCase().max(254, 'to must be at most 254 characters').optional(),
});

export const OutboxMessageSchema = z
  .object({
    _id: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    created_at: z.string(),
    sent_at: z.string().nullable(),
  })
  .openapi('OutboxMessage');
