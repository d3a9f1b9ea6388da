import { sql } from 'drizzle-orm';
import { createRouter } from '../../lib/create-app';

export const healthRouter = createRouter().get('/health', async (c) => {
  const started = Date.now();
  try {
    await c.var.db.run(sql`select 1`);
    return c.json({ status: 'ok', database: { reachable: true, latency_ms: Date.now() - started } });
  } catch (err) {
    console.error(`[api] ${c.var.requestId} health check: database unreachable`, err);
    return c.json({ status: 'degraded', database: { reachable: false } }, 503);
  }
});
