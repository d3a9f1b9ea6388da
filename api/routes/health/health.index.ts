import { createRouter } from '../../lib/create-app';
import { RETRY_AFTER_SECONDS } from '../../lib/unavailable';
import { errorSummary, logLine } from '../../middlewares/logger';
import { errorResponses, jsonContent, routesOf } from '../../lib/openapi';
import { HealthSchema } from '../../schemas/health';
import { pingDatabase } from '../../services/health/ping';

const operations = routesOf({ tags: ['Operations'] });

const healthRoute = operations.get('/health', {
  summary: 'Status and database reachability',
  responses: {
    ...errorResponses,
    200: jsonContent(HealthSchema, 'The worker and its database answer'),
    503: jsonContent(HealthSchema, 'The database does not answer'),
  },
});

export const healthRouter = createRouter().openapi(healthRoute, async (c) => {
  try {
    const latency = await pingDatabase(c.var.db);
    return c.json({ status: 'ok' as const, database: { reachable: true, latency_ms: latency } }, 200);
  } catch (err) {
    logLine('error', 'health check: database unreachable', { request_id: c.var.requestId, error: errorSummary(err) });
    c.header('Retry-After', String(RETRY_AFTER_SECONDS));
    return c.json({ status: 'degraded', database: { reachable: false } }, 503);
  }
});
