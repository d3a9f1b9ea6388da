import { z } from '@hono/zod-openapi';

/** The security check's public settings (/turnstile). */

export const TurnstileSchema = z
  .object({ site_key: z.string().nullable().openapi({ description: 'Null when Turnstile is not configured' }) })
  .openapi('TurnstileSiteKey');
