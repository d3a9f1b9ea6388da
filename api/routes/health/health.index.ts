import { createRouter } from '../../lib/create-app';
import { RETRY_AFTER_SECONDS } from '../../lib/unavailable';
import { errorSummary, logLine } from '../../middlewares/logger';
import { bearerAuth, errorResponses, jsonContent, okResponses, routesOf } from '../../lib/openapi';
import { adminOnly } from '../../lib/policy';
import { serviceContext } from '../../lib/service-context';
import { HealthSchema, MailHealthSchema } from '../../schemas/health';
import { mailHealth } from '../../services/health/mail';
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

const mailHealthRoute = routesOf({ tags: ['Operations'], security: bearerAuth }).get('/health/mail', {
  summary:
    'Email delivery: receipts waiting for the provider, given up after their retries, sent in the last day (admins)',
  middleware: [adminOnly()],
  responses: okResponses(MailHealthSchema, 'Email delivery now'),
});

export const healthRouter = createRouter()
  .openapi(healthRoute, async (c) => {
    try {
      const latency = await pingDatabase(c.var.db);
      return c.json({ status: 'ok' as const, database: { reachable: true, latency_ms: latency } }, 200);
    } catch (err) {
      logLine('error', 'health check: database unreachable', { request_id: c.var.requestId, error: errorSummary(err) });
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json({ status: 'degraded', database: { reachable: false } }, 503);
    }
  })
  .openapi(mailHealthRoute, async (c) => c.json(await mailHealth(serviceContext(c)), 200));
