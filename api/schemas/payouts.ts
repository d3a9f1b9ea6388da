import { z } from '@hono/zod-openapi';
import { PAYOUT_STATUSES } from '../../domain/finance';
import { dayFilter, fromNotAfterTo, pageQueryShape } from './list-query';

/** GET /api/finance/payouts: filters by organization, status and arrival day (London), paged. */
const day = (what: 'from' | 'to') => dayFilter(what, ' the payout arrives');

export const PayoutQuerySchema = z
  .object({
    organization_id: z.string().trim().min(1).max(64, 'organization_id: use at most 64 characters').optional(),
    status: z.enum(PAYOUT_STATUSES, { error: `status: must be one of ${PAYOUT_STATUSES.join(', ')}` }).optional(),
    from: day('from'),
    to: day('to'),
    ...pageQueryShape(),
  })
  .refine(...fromNotAfterTo);

export const PayoutSchema = z
  .object({
    _id: z.string().openapi({ example: 'po_1Q…' }),
    amount: z.number().int().openapi({ description: 'Pence paid to the bank: the sum of the lines’ net' }),
    currency: z.string(),
    status: z.enum(PAYOUT_STATUSES),
    arrival_date: z.string().openapi({ description: 'ISO timestamp the bank receives it' }),
    failure_code: z.string().nullable(),
    failure_message: z.string().nullable(),
    gross_pence: z.number().int().openapi({ description: 'Gifts paid in (charges), before fees' }),
    fee_pence: z.number().int(),
    refund_pence: z.number().int().openapi({ description: 'Refunds taken out, positive' }),
    line_count: z.number().int(),
    organization_id: z
      .string()
      .nullable()
      .openapi({ description: 'When every gift in it belongs to one organization' }),
    organization_name: z.string().nullable(),
    demo: z.boolean().openapi({ description: 'Made by demo mode’s daily run, not by Stripe' }),
    partial: z.boolean().openapi({
      description:
        'The payout also holds other organizations’ gifts: only your organizations’ lines are shown, and the figures (amount, gross, fees, refunds, lines) are theirs',
    }),
  })
  .openapi('Payout');

export const PayoutLineSchema = z
  .object({
    balance_transaction_id: z.string(),
    type: z.string().openapi({ example: 'charge' }),
    source_id: z.string().nullable(),
    donation_id: z.string().nullable().openapi({
      description: 'The gift it belongs to; null: unmatched (an adjustment, a Stripe fee, a payment made elsewhere)',
    }),
    donor_name: z.string().nullable(),
    campaign_title: z.string().nullable(),
    amount: z.number().int().openapi({ description: 'Pence, negative for money out' }),
    fee: z.number().int(),
    net: z.number().int(),
    available_on: z.string().nullable(),
  })
  .openapi('PayoutLine');

export const PayoutDetailSchema = PayoutSchema.extend({
  lines: z.array(PayoutLineSchema),
  lines_net: z.number().int().openapi({ description: 'Sum of the lines shown' }),
}).openapi('PayoutDetail');

export type PayoutFilters = z.infer<typeof PayoutQuerySchema>;
export type PayoutDto = z.infer<typeof PayoutSchema>;
export type PayoutLineDto = z.infer<typeof PayoutLineSchema>;
export type PayoutDetailDto = z.infer<typeof PayoutDetailSchema>;
