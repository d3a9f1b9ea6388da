import { z } from '@hono/zod-openapi';
import { DonationSchema } from './index';
import { AuditEntrySchema } from './audit';
import { DisputeSchema, ReversalSchema } from './refunds';

/** A donation's whole story for its dashboard page: payment, Gift Aid, money back, history and what may be done. */
export const DonationStorySchema = z
  .object({
    donation: DonationSchema,
    payment_method: z.string().nullable(),
    batch_id: z.string().nullable().openapi({ description: 'The offline batch it was banked in' }),
    reference: z.string().nullable().openapi({ description: 'Stripe PaymentIntent (card) or the offline reference' }),
    fee_pence: z.number().int().nullable(),
    net_pence: z.number().int().nullable(),
    remaining_pence: z.number().int().openapi({ description: 'What may still be refunded' }),
    receipt_sent_at: z.string().nullable(),
    gift_aid: z.object({
      requested: z.boolean(),
      declaration: z
        .object({ _id: z.string(), method: z.string(), declared_at: z.string(), cancelled_at: z.string().nullable() })
        .nullable(),
      claim: z
        .object({
          _id: z.string(),
          status: z.string(),
          hmrc_reference: z.string().nullable(),
          amount_pence: z.number().int(),
        })
        .nullable(),
      adjustments_pence: z.number().int(),
    }),
    reversals: z.array(ReversalSchema),
    disputes: z.array(DisputeSchema),
    history: z.array(AuditEntrySchema),
    /** What the viewer may do here: `edit` only for an offline gift not yet claimed nor reversed; `refund` while something remains. */
    actions: z.array(z.enum(['edit', 'refund'])),
  })
  .openapi('DonationStory');

export type DonationStoryDto = z.infer<typeof DonationStorySchema>;
