import { env } from 'cloudflare:workers';
import { astro } from 'astro/hono';
import { Hono } from 'hono';
import { createApp } from '../api';

/**
 * The worker's request pipeline (Astro advanced routing): the Hono API owns /api, Astro renders
 * everything else. The API gets the bindings explicitly, so it stays a plain Hono Worker app.
 */
const api = createApp();
const app = new Hono();

app.all('/api/*', (c) => api.fetch(c.req.raw, env));
app.use(astro());

export default app;
