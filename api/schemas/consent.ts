import { z } from '@hono/zod-openapi';
import { CONSENT_SOURCES, ERASURE_OUTCOMES } from '../../domain';

/** The donor's marketing consent and account erasure (/me/consent, /me/erasure). */

export const ConsentSchema = z
  .object({
    consented: z.boolean(),
    wording: z.string().openapi({ description: "Today's wording, shown next to the unticked box" }),
    given: z.object({ wording: z.string(), source: z.enum(CONSENT_SOURCES), given_at: z.string() }).nullable(),
    withdrawn_at: z.string().nullable(),
  })
  .openapi('MarketingConsent');
export type ConsentDto = z.infer<typeof ConsentSchema>;

export const ConsentBody = z.object({
  consent: z.boolean({ error: 'consent: must be true (keep me updated) or false (withdraw)' }),
  source: z.enum(['sign_up', 'my_info'], { error: 'source: sign_up or my_info' }).optional(),
  consent_wording: z.string().max(2000).optional(),
});

export const ErasureRequestedSchema = z.object({ sent: z.literal(true), expires_at: z.string() });

export const ErasureConfirmBody = z.object({
  code: z
    .string({ error: 'code: enter the 6-digit code from the email' })
    .trim()
    .regex(/^\d{6}$/, 'code: enter the 6-digit code from the email'),
});

export const ErasedSchema = z.object({ erased: z.literal(true) });

export const ErasureSchema = z
  .object({
    outcome: z.enum(ERASURE_OUTCOMES),
    requested_at: z.string(),
    completed_at: z.string().nullable(),
    detail: z.string().nullable(),
  })
  .openapi('ErasureRequest');
export type ErasureDto = z.infer<typeof ErasureSchema>;
