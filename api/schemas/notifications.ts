import { z } from '@hono/zod-openapi';

/** A fundraiser's email preferences (/me/notifications). */

export const NotificationPrefsSchema = z
  .object({
    appeal_gifts: z.boolean().openapi({ description: 'Email me when my appeal receives gifts (at most one an hour)' }),
    appeal_milestones: z.boolean().openapi({ description: 'Email me when my appeal reaches 50% and 100% of its goal' }),
  })
  .openapi('NotificationPreferences');

export const NotificationPrefsBody = z
  .object({
    appeal_gifts: z.boolean({ error: 'Must be true or false' }).optional(),
    appeal_milestones: z.boolean({ error: 'Must be true or false' }).optional(),
  })
  .strict();
