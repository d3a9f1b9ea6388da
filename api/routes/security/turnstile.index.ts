import { createRouter } from '../../lib/create-app';

/**
 * GET /api/turnstile: the public site key the islands need to show the security check after an
 * answer asked for it (428). null when Turnstile is not configured.
 */
export const turnstileRouter = createRouter().get('/turnstile', (c) => c.json({ site_key: c.var.config.turnstileSiteKey }));
