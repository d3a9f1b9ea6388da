import { z } from '@hono/zod-openapi';
import { REVERSAL_KINDS, REVERSAL_REASONS, REVERSAL_STATUSES } from '../../domain/finance';

/** Reasons staff may give; `dispute_lost` is written by the dispute webhook only. */
export const STAFF_REVERSAL_REASONS = REVERSAL_REASONS.filter((r) => r !== 'dispute_lost') as Exclude<
  (typeof REVERSAL_REASONS)[number],
  'dispute_lost'
>[];

export const RefundBodySchema = z
  .object({
    amount: z
      .number({ error: 'amount: enter the amount in pence as a whole number' })
      .int('amount: enter the amount in pence as a whole number')
      .positive('amount: must be more than 0 pence')
      .max(100_000_000, 'amount: too large')
      .optional()
      .openapi({ description: 'Pence; omitted: everything that remains' }),
    reason: z.enum(STAFF_REVERSAL_REASONS as [string, ...string[]], {
      error: `reason: must be one of ${STAFF_REVERSAL_REASONS.join(', ')}`,
    }),
    note: z.string({ error: 'note: must be text' }).trim().max(500, 'note: use at most 500 characters').optional(),
  })
  .openapi('RefundRequest');

export const ReversalSchema = z
  .object({
    _id: z.string(),
    donation_id: z.string(),
    kind: z.enum(REVERSAL_KINDS),
    amount: z.number().int().openapi({ description: 'Pence' }),
    reason: z.enum(REVERSAL_REASONS),
    note: z.string().nullable(),
    status: z.enum(REVERSAL_STATUSES),
    provider_id: z.string().nullable(),
    created_by: z.string().nullable(),
    created_at: z.string(),
    succeeded_at: z.string().nullable(),
  })
  .openapi('Reversal');

export const RefundResultSchema = z
  .object({
    reversal: ReversalSchema,
    donation: z.object({
      _id: z.string(),
      status: z.string(),
      amount: z.number().int(),
      refunded_amount: z.number().int(),
      remaining: z.number().int(),
    }),
  })
  .openapi('RefundResult');

export type RefundBody = z.infer<typeof RefundBodySchema>;
export type ReversalDto = z.infer<typeof ReversalSchema>;
export type RefundResultDto = z.infer<typeof RefundResultSchema>;

export const DisputeSchema = z
  .object({
    _id: z.string(),
    provider_id: z.string(),
    amount: z.number().int(),
    reason: z.string(),
    status: z.string(),
    fee_pence: z.number().int(),
    evidence_due_by: z.string().nullable(),
    outcome: z.enum(['won', 'lost']).nullable(),
    created_at: z.string(),
    closed_at: z.string().nullable(),
  })
  .openapi('Dispute');

/** A retried refund request carries the same key and gets the first answer. */
export const RefundHeaders = z.object({
  'idempotency-key': z
    .string()
    .trim()
    .min(8, 'Idempotency-Key: use at least 8 characters')
    .max(200, 'Idempotency-Key: use at most 200 characters')
    .optional(),
});
