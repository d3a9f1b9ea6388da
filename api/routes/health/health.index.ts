import { z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import { createRouter } from '../../lib/create-app';
import { defineRoute, errorResponses, jsonContent } from '../../lib/openapi';

const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: z.object({ reachable: z.boolean(), latency_ms: z.number().optional() }),
  })
  .openapi('Health');

const healthRoute = defineRoute({
  method: 'get',
  path: '/health',
  tags: ['Operations'],
  summary: 'Status and database reachability',
  responses: {
    ...errorResponses,
    200: jsonContent(HealthSchema, 'The worker and its database answer'),
    503: jsonContent(HealthSchema, 'The database does not answer'),
  },
});

export const healthRouter = createRouter().openapi(healthRoute, async (c) => {
  const started = Date.now();
  try {
    await c.var.db.run(sql`select 1`);
    return c.json({ status: 'ok' as const, database: { reachable: true, latency_ms: Date.now() - started } }, 200);
  } catch (err) {
    console.error(`[api] ${c.var.requestId} health check: database unreachable`, err);
    return c.json({ status: 'degraded' as const, database: { reachable: false } }, 503);
  }
});
