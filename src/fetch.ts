import { env } from 'cloudflare:workers';
import { astro } from 'astro/hono';
import { Hono } from 'hono';
import { createApp } from '../api';
import { withSecurityHeaders } from './lib/server/security-headers';

/**
 * The worker's request pipeline (Astro advanced routing): the Hono API owns /api, Astro renders
 * everything else. The API gets the bindings explicitly, so it stays a plain Hono Worker app.
 */
const api = createApp();
const app = new Hono();

app.use(async (c, next) => {
  await next();
  c.res = withSecurityHeaders(c.res);
});
app.all('/api/*', (c) => api.fetch(c.req.raw, env));
app.use(astro());

export default app;
