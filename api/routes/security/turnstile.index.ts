import { createRouter } from '../../lib/create-app';
import { okResponses, routesOf } from '../../lib/openapi';
import { TurnstileSchema } from '../../schemas/security';

const operations = routesOf({ tags: ['Operations'] });

const turnstileRoute = operations.get('/turnstile', {
  summary: 'The public Turnstile site key (the islands show the security check after a 428)',
  responses: okResponses(TurnstileSchema, 'The site key, or null'),
});

/**
 * GET /api/turnstile: the public site key the islands need to show the security check after an
 * answer asked for it (428). null when Turnstile is not configured.
 */
export const turnstileRouter = createRouter().openapi(turnstileRoute, (c) =>
  c.json({ site_key: c.var.config.turnstileSiteKey }, 200),
);
