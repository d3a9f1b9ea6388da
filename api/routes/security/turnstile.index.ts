import { createRouter } from '../../lib/create-app';
import { defineRoute, errorResponses, jsonContent } from '../../lib/openapi';
import { TurnstileSchema } from '../../schemas/security';

const turnstileRoute = defineRoute({
  method: 'get',
  path: '/turnstile',
  tags: ['Operations'],
  summary: 'The public Turnstile site key (the islands show the security check after a 428)',
  responses: { 200: jsonContent(TurnstileSchema, 'The site key, or null'), ...errorResponses },
});

/**
 * GET /api/turnstile: the public site key the islands need to show the security check after an
 * answer asked for it (428). null when Turnstile is not configured.
 */
export const turnstileRouter = createRouter().openapi(turnstileRoute, (c) =>
  c.json({ site_key: c.var.config.turnstileSiteKey }, 200),
);
