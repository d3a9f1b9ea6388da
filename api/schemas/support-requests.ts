import { z } from '@hono/zod-openapi';
import { SUPPORT_REQUEST_LIMITS } from '../../domain/support';
import { HTML_TAG, tidyText } from './plain-text';

const plainText = (what: string, max: number, options: { multiline?: boolean } = {}) =>
  z
    .string({ error: `${what} is required` })
    .transform((v) => tidyText(v, options.multiline))
    .refine((v) => v.length > 0, `${what} is required`)
    .refine((v) => [...v].length <= max, `Use at most ${max} characters`)
    .refine((v) => !HTML_TAG.test(v), 'Write plain text: HTML tags like <b> are not accepted');

export const SupportRequestBody = z
  .object({
    name: plainText('Your name', SUPPORT_REQUEST_LIMITS.name),
    subject: plainText('A subject', SUPPORT_REQUEST_LIMITS.subject),
    message: plainText('A message', SUPPORT_REQUEST_LIMITS.message, { multiline: true }),
  })
  .openapi('SupportRequestInput', { description: 'The reply goes to the signed-in account’s email address' });

export const SupportRequestSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
    created_at: z.string(),
    handled_at: z.string().nullable(),
    handled_by: z
      .string()
      .nullable()
      .openapi({ description: 'The admin who marked it handled (name), null while open' }),
  })
  .openapi('SupportRequest');

export const SentSupportRequestSchema = SupportRequestSchema.extend({
  email_sent: z.boolean().openapi({ description: 'False when it is stored but the emails could not be sent just now' }),
}).openapi('SentSupportRequest');

export const SupportRequestListQuery = z.object({
  status: z
    .enum(['open', 'handled', 'all'], { error: 'Must be one of: open, handled, all' })
    .optional()
    .openapi({ description: 'Admins: open (default), handled or all' }),
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ type: 'integer', example: 50 }),
  offset: z.coerce.number().int().min(0).max(100_000).optional().openapi({ type: 'integer' }),
});

export const SupportRequestUpdate = z.object({ handled: z.boolean({ error: 'handled must be true or false' }) });
