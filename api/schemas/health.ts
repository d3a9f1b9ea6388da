import { z } from '@hono/zod-openapi';

/** GET /health. */

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: z.object({ reachable: z.boolean(), latency_ms: z.number().optional() }),
  })
  .openapi('Health');
