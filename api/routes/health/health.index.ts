import { sql } from 'drizzle-orm';
import { createRouter } from '../../lib/create-app';
import { RETRY_AFTER_SECONDS } from '../../lib/unavailable';
import { errorSummary, logLine } from '../../middlewares/logger';

export const healthRouter = createRouter().get('/health', async (c) => {
  const started = Date.now();
  try {
    await c.var.db.run(sql`select 1`);
    return c.json({ status: 'ok', database: { reachable: true, latency_ms: Date.now() - started } });
  } catch (err) {
    logLine('error', 'health check: database unreachable', { request_id: c.var.requestId, error: errorSummary(err) });
    c.header('Retry-After', String(RETRY_AFTER_SECONDS));
    return c.json({ status: 'degraded', database: { reachable: false } }, 503);
  }
});
