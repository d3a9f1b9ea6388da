import { z } from '@hono/zod-openapi';
import {
  MAX_PAUSE_MONTHS,
  MONTHLY_GIFT_CANCELLED_BY,
  MONTHLY_GIFT_STATUSES,
  ONLINE_PAYMENT_METHODS,
} from '../../domain';
import { MAX_SEARCH_TERM_LENGTH } from '../../domain/limits';
import { idParam, paging } from '../services/reports/list-filters';

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
    .openapi({
      description:
        'true: only gifts whose last payment failed (the failed-payments queue), including those whose first Direct Debit failed (status incomplete: never started)',
    }),
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
    first_donation_id: z
      .string()
      .nullable()
      .openapi({ description: 'The gift that started it: its page manages the monthly gift (cancel)' }),
    amount: z.number().int().openapi({ description: 'Pence per month' }),
    campaign: z.object({ _id: z.string(), title: z.string() }),
    appeal: z.object({ _id: z.string(), title: z.string() }).nullable(),
    on_site: z.boolean().openapi({
      description: 'Whether its campaign (and appeal) are on the site; its donor is told when not (decision 070)',
    }),
    organization_id: z.string().nullable(),
    status: z.enum(MONTHLY_GIFT_STATUSES),
    method: z.string().openapi({ description: 'Who holds the payment: card (Stripe) or demo' }),
    payment_method: z.enum(ONLINE_PAYMENT_METHODS).openapi({ description: 'card, or bacs_debit (Direct Debit)' }),
    bank_last4: z
      .string()
      .nullable()
      .openapi({ description: 'Direct Debit: the last four digits of the bank account' }),
    started_at: z.string().nullable(),
    next_payment_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    last_failure: z
      .object({
        failed_at: z.string(),
        invoice_id: z.string().nullable(),
        message: z.string().nullable(),
        retry_at: z.string().nullable().openapi({
          description: 'When Stripe tries the payment again (invoice.next_payment_attempt); null: no retry left',
        }),
        email: z.enum(FAILURE_EMAIL_STATES).openapi({
          description:
            'The "payment did not go through" email: sent, queued in the outbox, or none (a declined first card payment gets none: the donor saw it)',
        }),
      })
      .nullable()
      .openapi({ description: 'Set when the newest payment of this gift failed' }),
  })
  .openapi('OfficeMonthlyGift');
export type OfficeMonthlyGift = z.infer<typeof OfficeMonthlyGiftSchema>;

/** A donor's monthly gift, as the donor and their organization's admins see it. */
export const MonthlyGiftSchema = z
  .object({
    _id: z.string().openapi({ example: 'sub_1QxYz' }),
    amount: z.number().int().openapi({ description: 'Pence per month', example: 1000 }),
    status: z.enum(MONTHLY_GIFT_STATUSES),
    cause: z.object({
      campaign_id: z.string(),
      campaign: z.string(),
      appeal_id: z.string().nullable(),
      appeal: z.string().nullable(),
      on_site: z.boolean().openapi({
        description:
          'Whether its campaign (and appeal) are on the site; when not, the gift still goes to the charity (decision 070)',
      }),
    }),
    started_at: z.string().nullable(),
    next_payment_at: z
      .string()
      .nullable()
      .openapi({ description: 'The next payment taken; while paused, the first one after the pause' }),
    pause_resumes_at: z.string().nullable(),
    skipped_payments: z
      .array(z.string())
      .openapi({ description: 'While paused: the monthly payment dates still ahead that the pause skips' }),
    cancelled_at: z.string().nullable(),
    cancelled_by: z.enum(MONTHLY_GIFT_CANCELLED_BY).nullable(),
    gift_aid: z.boolean(),
    mode: z.enum(['stripe', 'demo']),
    payment_method: z.enum(ONLINE_PAYMENT_METHODS).openapi({ description: 'card, or bacs_debit (Direct Debit)' }),
    bank_last4: z
      .string()
      .nullable()
      .openapi({ description: 'Direct Debit: the last four digits of the bank account' }),
  })
  .openapi('MonthlyGift');

export const MonthlyGiftIdParam = z.object({
  id: z
    .string()
    .max(220)
    .openapi({
      param: { name: 'id', in: 'path' },
      example: 'sub_1QxYz',
      description: 'The monthly gift (Stripe Subscription) id',
    }),
});

export const MonthlyGiftChangeBody = z.object({
  price: z
    .string({ error: 'price: choose one of the monthly amounts offered' })
    .trim()
    .min(1, 'price: choose one of the monthly amounts offered')
    .max(255),
});
export const MonthlyGiftPauseBody = z.object({
  months: z
    .number({ error: `months: pause for 1 to ${MAX_PAUSE_MONTHS} months` })
    .int(`months: pause for 1 to ${MAX_PAUSE_MONTHS} whole months`)
    .min(1, `months: pause for 1 to ${MAX_PAUSE_MONTHS} months`)
    .max(MAX_PAUSE_MONTHS, `months: pause for 1 to ${MAX_PAUSE_MONTHS} months`),
});

export type MonthlyGiftDto = z.infer<typeof MonthlyGiftSchema>;

/** What a signed cancel link points at, and what using it did. */
export const LinkStateSchema = z
  .object({
    state: z.enum(['ready', 'done', 'invalid', 'expired', 'used', 'cancelled', 'failed']),
    message: z.string().optional(),
    gift: MonthlyGiftSchema.optional(),
  })
  .openapi('CancelLinkState');

export const CancelLinkTokenQuery = z.object({
  token: z.string().max(400).optional().openapi({ description: 'The token from the cancel link in a monthly receipt' }),
});
export const CancelLinkTokenBody = z.object({
  token: z.string({ error: 'token: the token from the cancel link is required' }).max(400, 'token: too long'),
});
