import { z } from '@hono/zod-openapi';

/** GET /health. */

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: z.object({ reachable: z.boolean(), latency_ms: z.number().optional() }),
  })
  .openapi('Health');

/** GET /health/mail (admins): whether the site's emails reach the mail provider. */
export const MailHealthSchema = z
  .object({
    /** Keyed emails (receipts, notices) the provider has not taken yet, which the retry still sends. */
    waiting: z.number().int(),
    /** When the oldest of them was written (ISO 8601), null when none waits. */
    oldest_waiting_at: z.string().nullable(),
    /** Keyed emails left unsent after their retries (6 tries or 3 days), kept 30 days in the outbox. */
    given_up: z.number().int(),
    /** Emails the provider took in the last 24 hours. */
    sent_last_day: z.number().int(),
    /** False when no mail provider is configured (development: the outbox is printed to the log). */
    provider: z.boolean(),
  })
  .openapi('MailHealth');
