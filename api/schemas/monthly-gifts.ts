import { z } from '@hono/zod-openapi';
import { MONTHLY_GIFT_STATUSES, ONLINE_PAYMENT_METHODS } from '../../domain';
import { MAX_SEARCH_TERM_LENGTH } from '../../domain/limits';
import { idParam, paging } from '../services/insight/list-filters';

/** The office's list of monthly gifts and its CSV export: one filter schema for both. */

export const MONTHLY_GIFT_SORTS = ['started', 'amount', 'donor', 'next_payment', 'status'] as const;
export const FAILURE_EMAIL_STATES = ['sent', 'queued', 'none'] as const;

export const monthlyGiftFilterShape = {
  status: z
    .enum(MONTHLY_GIFT_STATUSES, { error: `Must be one of: ${MONTHLY_GIFT_STATUSES.join(', ')}` })
    .optional()
    .openapi({ description: 'past_due is "failing": Stripe is retrying a payment' }),
  organization_id: idParam('an organization'),
  search: z
    .string()
    .trim()
    .max(MAX_SEARCH_TERM_LENGTH, `Use at most ${MAX_SEARCH_TERM_LENGTH} characters`)
    .optional()
    .transform((v) => (v ? v : undefined))
    .openapi({ description: 'Donor name or email contains' }),
  failing: z
    .enum(['true', 'false'], { error: 'Must be true or false' })
    .optional()
    .transform((v) => v === 'true')
    .openapi({ description: 'true: only gifts whose last payment failed (the failed-payments queue)' }),
  sort: z
    .enum(MONTHLY_GIFT_SORTS, { error: `Must be one of: ${MONTHLY_GIFT_SORTS.join(', ')}` })
    .optional()
    .openapi({ description: `Sort field: ${MONTHLY_GIFT_SORTS.join(', ')}` }),
  order: z.enum(['asc', 'desc'], { error: 'Must be asc or desc' }).optional(),
};

export const monthlyGiftFilters = z.object(monthlyGiftFilterShape);
export type MonthlyGiftFilters = z.infer<typeof monthlyGiftFilters>;
export const monthlyGiftListQuery = z.object({ ...monthlyGiftFilterShape, ...paging() });

export const OfficeMonthlyGiftSchema = z
  .object({
    _id: z.string().openapi({ example: 'sub_1QxYz' }),
    donor: z.object({ _id: z.string(), name: z.string(), email: z.string() }),
    amount: z.number().int().openapi({ description: 'Pence per month' }),
    campaign: z.object({ _id: z.string(), title: z.string() }),
    appeal: z.object({ _id: z.string(), title: z.string() }).nullable(),
    organization_id: z.string().nullable(),
    status: z.enum(MONTHLY_GIFT_STATUSES),
    method: z.string().openapi({ description: 'Who holds the payment: card (Stripe) or demo' }),
    payment_method: z.enum(ONLINE_PAYMENT_METHODS).openapi({ description: 'card, or bacs_debit (Direct Debit)' }),
    bank_last4: z.string().nullable().openapi({ description: 'Direct Debit: the last four digits of the bank account' }),
    started_at: z.string().nullable(),
    next_payment_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    last_failure: z
      .object({
        failed_at: z.string(),
        invoice_id: z.string().nullable(),
        message: z.string().nullable(),
        retry_at: z.string().nullable().openapi({ description: 'When Stripe tries the payment again (invoice.next_payment_attempt); null: no retry left' }),
        email: z.enum(FAILURE_EMAIL_STATES).openapi({ description: 'The "payment did not go through" email: sent, queued in the outbox, or none (first payments get none)' }),
      })
      .nullable()
      .openapi({ description: 'Set when the newest payment of this gift failed' }),
  })
  .openapi('OfficeMonthlyGift');
export type OfficeMonthlyGift = z.infer<typeof OfficeMonthlyGiftSchema>;
