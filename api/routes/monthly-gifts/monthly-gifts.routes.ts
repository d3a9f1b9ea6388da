import { createRoute, z } from '@hono/zod-openapi';
import { MAX_PAUSE_MONTHS, MONTHLY_GIFT_CANCELLED_BY, MONTHLY_GIFT_STATUSES, ONLINE_PAYMENT_METHODS } from '../../../domain';
import { bearerAuth, defineRoute, errorResponses, jsonContent, totalCountHeader } from '../../lib/openapi';
import { monthlyGiftFilters, monthlyGiftListQuery, OfficeMonthlyGiftSchema } from '../../schemas/monthly-gifts';
import { financeReaders, signedIn, staffOnly } from '../../lib/policy';

export const MonthlyGiftSchema = z
  .object({
    _id: z.string().openapi({ example: 'sub_1QxYz' }),
    amount: z.number().int().openapi({ description: 'Pence per month', example: 1000 }),
    status: z.enum(MONTHLY_GIFT_STATUSES),
    cause: z.object({ campaign_id: z.string(), campaign: z.string(), appeal_id: z.string().nullable(), appeal: z.string().nullable() }),
    started_at: z.string().nullable(),
    next_payment_at: z.string().nullable(),
    pause_resumes_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    cancelled_by: z.enum(MONTHLY_GIFT_CANCELLED_BY).nullable(),
    gift_aid: z.boolean(),
    mode: z.enum(['stripe', 'demo']),
    payment_method: z.enum(ONLINE_PAYMENT_METHODS).openapi({ description: 'card, or bacs_debit (Direct Debit)' }),
    bank_last4: z.string().nullable().openapi({ description: 'Direct Debit: the last four digits of the bank account' }),
  })
  .openapi('MonthlyGift');

const IdParam = z.object({
  id: z
    .string()
    .max(220)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'sub_1QxYz', description: 'The monthly gift (Stripe Subscription) id' }),
});

const ChangeBody = z.object({
  price: z.string({ error: 'price: choose one of the monthly amounts offered' }).trim().min(1, 'price: choose one of the monthly amounts offered').max(255),
});
const PauseBody = z.object({
  months: z
    .number({ error: `months: pause for 1 to ${MAX_PAUSE_MONTHS} months` })
    .int(`months: pause for 1 to ${MAX_PAUSE_MONTHS} whole months`)
    .min(1, `months: pause for 1 to ${MAX_PAUSE_MONTHS} months`)
    .max(MAX_PAUSE_MONTHS, `months: pause for 1 to ${MAX_PAUSE_MONTHS} months`),
});

const body = <T extends z.ZodType>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

export const listMine = createRoute({
  method: 'get',
  path: '/me/monthly-gifts',
  tags: ['Monthly gifts'],
  summary: 'Your monthly gifts: running ones first, then those cancelled',
  security: bearerAuth,
  middleware: [signedIn()] as const,
  responses: { 200: jsonContent(z.array(MonthlyGiftSchema), 'Your monthly gifts'), ...errorResponses },
});

export const cancelMine = createRoute({
  method: 'post',
  path: '/me/monthly-gifts/{id}/cancel',
  tags: ['Monthly gifts'],
  summary: 'Cancel your monthly gift (on the Stripe Subscription; demo mode alike)',
  security: bearerAuth,
  middleware: [signedIn()] as const,
  request: { params: IdParam },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift, cancelled'), ...errorResponses },
});

export const changeMine = createRoute({
  method: 'post',
  path: '/me/monthly-gifts/{id}/change',
  tags: ['Monthly gifts'],
  summary: 'Change the monthly amount to one of the offered prices, from the next payment (no proration)',
  security: bearerAuth,
  middleware: [signedIn()] as const,
  request: { params: IdParam, ...body(ChangeBody) },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift with its new amount'), ...errorResponses },
});

export const pauseMine = createRoute({
  method: 'post',
  path: '/me/monthly-gifts/{id}/pause',
  tags: ['Monthly gifts'],
  summary: `Pause payments for 1 to ${MAX_PAUSE_MONTHS} months; they restart on their own`,
  security: bearerAuth,
  middleware: [signedIn()] as const,
  request: { params: IdParam, ...body(PauseBody) },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift, paused'), ...errorResponses },
});

export const getManaged = createRoute({
  method: 'get',
  path: '/monthly-gifts/{id}',
  tags: ['Monthly gifts'],
  summary: 'A monthly gift of your organizations (admins: any)',
  security: bearerAuth,
  middleware: [staffOnly('Only administrators of this gift\'s organization can manage it')] as const,
  request: { params: IdParam },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift'), ...errorResponses },
});

export const cancelManaged = createRoute({
  method: 'post',
  path: '/monthly-gifts/{id}/cancel',
  tags: ['Monthly gifts'],
  summary: 'Cancel a monthly gift of your organizations (admins: any)',
  security: bearerAuth,
  middleware: [staffOnly('Only administrators of this gift\'s organization can manage it')] as const,
  request: { params: IdParam },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift, cancelled'), ...errorResponses },
});

export const LinkStateSchema = z
  .object({
    state: z.enum(['ready', 'done', 'invalid', 'expired', 'used', 'cancelled', 'failed']),
    message: z.string().optional(),
    gift: MonthlyGiftSchema.optional(),
  })
  .openapi('CancelLinkState');

const TokenQuery = z.object({ token: z.string().max(400).optional().openapi({ description: 'The token from the cancel link in a monthly receipt' }) });
const TokenBody = z.object({ token: z.string({ error: 'token: the token from the cancel link is required' }).max(400, 'token: too long') });

export const readLink = createRoute({
  method: 'get',
  path: '/monthly-gift-links/cancel',
  tags: ['Monthly gifts'],
  summary: 'What a signed cancel link points at (no sign-in). Never cancels.',
  request: { query: TokenQuery },
  responses: { 200: jsonContent(LinkStateSchema, 'ready, or why the link cannot be used (invalid, expired, used, cancelled)'), ...errorResponses },
});

export const useLink = createRoute({
  method: 'post',
  path: '/monthly-gift-links/cancel',
  tags: ['Monthly gifts'],
  summary: 'Cancel the monthly gift a signed link names, once (no sign-in)',
  request: { body: { content: { 'application/json': { schema: TokenBody } }, required: true } },
  responses: { 200: jsonContent(LinkStateSchema, 'done, or why not (failed: Stripe did not answer; the gift is unchanged)'), ...errorResponses },
});

export const listOffice = defineRoute({
  method: 'get',
  path: '/monthly-gifts',
  tags: ['Monthly gifts'],
  summary: 'Every monthly gift of your organizations (admins: all), with the newest failed payment',
  security: bearerAuth,
  middleware: [financeReaders('Only admins, organization admins and finance users can list monthly gifts')],
  request: { query: monthlyGiftListQuery },
  responses: { 200: { ...jsonContent(z.array(OfficeMonthlyGiftSchema), 'Monthly gifts, newest first'), headers: totalCountHeader }, ...errorResponses },
});

export const exportOffice = defineRoute({
  method: 'get',
  path: '/exports/monthly-gifts.csv',
  tags: ['Exports'],
  summary: 'The filtered monthly gifts list as CSV (same filters and scope as GET /api/monthly-gifts)',
  security: bearerAuth,
  middleware: [financeReaders('Only admins, organization admins and finance users can export lists')],
  request: { query: monthlyGiftFilters },
  responses: { 200: { content: { 'text/csv': { schema: z.string() } }, description: 'Monthly gifts, UK dates, amounts in pounds' }, ...errorResponses },
});
