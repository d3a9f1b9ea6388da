import { env } from 'cloudflare:workers';
import { astro, getFetchState } from 'astro/hono';
import { Hono } from 'hono';
import { createApp } from '../api';
import { requestIdFrom } from '../api/middlewares/logger';

/**
 * The worker's request pipeline (Astro advanced routing): the Hono API owns /api, Astro renders
 * everything else. The API gets the bindings explicitly, so it stays a plain Hono Worker app.
 * Security headers, the request id and page request logs are added around this by src/worker.ts.
 */
const api = createApp();
const app = new Hono();

app.all('/api/*', (c) => api.fetch(c.req.raw, env));
app.use(async (c, next) => {
  // Error pages quote the same reference the worker logged (src/worker.ts sets x-request-id).
  getFetchState(c).locals.requestId = requestIdFrom(c.req.raw.headers);
  await next();
});
app.use(astro());

export default app;
