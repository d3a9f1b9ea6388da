import { z } from '@hono/zod-openapi';
import { MAX_PAUSE_MONTHS } from '../../../domain';
import {
  bearerAuth,
  csvContent,
  defineRoute,
  errorResponses,
  jsonBody,
  jsonContent,
  totalCountHeader,
} from '../../lib/openapi';
import {
  LinkStateSchema,
  MonthlyGiftChangeBody,
  MonthlyGiftIdParam,
  MonthlyGiftPauseBody,
  MonthlyGiftSchema,
  monthlyGiftFilters,
  monthlyGiftListQuery,
  OfficeMonthlyGiftSchema,
  CancelLinkTokenBody,
  CancelLinkTokenQuery,
} from '../../schemas/monthly-gifts';
import { financeReaders, signedIn, staffOnly } from '../../lib/policy';

export const listMine = defineRoute({
  method: 'get',
  path: '/me/monthly-gifts',
  tags: ['Monthly gifts'],
  summary: 'Your monthly gifts: running ones first, then those cancelled',
  security: bearerAuth,
  middleware: [signedIn()],
  responses: { 200: jsonContent(z.array(MonthlyGiftSchema), 'Your monthly gifts'), ...errorResponses },
});

export const cancelMine = defineRoute({
  method: 'post',
  path: '/me/monthly-gifts/{id}/cancel',
  tags: ['Monthly gifts'],
  summary: 'Cancel your monthly gift (on the Stripe Subscription; demo mode alike)',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { params: MonthlyGiftIdParam },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift, cancelled'), ...errorResponses },
});

export const changeMine = defineRoute({
  method: 'post',
  path: '/me/monthly-gifts/{id}/change',
  tags: ['Monthly gifts'],
  summary: 'Change the monthly amount to one of the offered prices, from the next payment (no proration)',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { params: MonthlyGiftIdParam, body: jsonBody(MonthlyGiftChangeBody) },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift with its new amount'), ...errorResponses },
});

export const pauseMine = defineRoute({
  method: 'post',
  path: '/me/monthly-gifts/{id}/pause',
  tags: ['Monthly gifts'],
  summary: `Pause payments for 1 to ${MAX_PAUSE_MONTHS} months; they restart on their own`,
  security: bearerAuth,
  middleware: [signedIn()],
  request: { params: MonthlyGiftIdParam, body: jsonBody(MonthlyGiftPauseBody) },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift, paused'), ...errorResponses },
});

export const getManaged = defineRoute({
  method: 'get',
  path: '/monthly-gifts/{id}',
  tags: ['Monthly gifts'],
  summary: 'A monthly gift of your organizations (admins: any)',
  security: bearerAuth,
  middleware: [staffOnly("Only administrators of this gift's organization can manage it")],
  request: { params: MonthlyGiftIdParam },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift'), ...errorResponses },
});

export const cancelManaged = defineRoute({
  method: 'post',
  path: '/monthly-gifts/{id}/cancel',
  tags: ['Monthly gifts'],
  summary: 'Cancel a monthly gift of your organizations (admins: any)',
  security: bearerAuth,
  middleware: [staffOnly("Only administrators of this gift's organization can manage it")],
  request: { params: MonthlyGiftIdParam },
  responses: { 200: jsonContent(MonthlyGiftSchema, 'The gift, cancelled'), ...errorResponses },
});

export const readLink = defineRoute({
  method: 'get',
  path: '/monthly-gift-links/cancel',
  tags: ['Monthly gifts'],
  summary: 'What a signed cancel link points at (no sign-in). Never cancels.',
  request: { query: CancelLinkTokenQuery },
  responses: {
    200: jsonContent(LinkStateSchema, 'ready, or why the link cannot be used (invalid, expired, used, cancelled)'),
    ...errorResponses,
  },
});

export const useLink = defineRoute({
  method: 'post',
  path: '/monthly-gift-links/cancel',
  tags: ['Monthly gifts'],
  summary: 'Cancel the monthly gift a signed link names, once (no sign-in)',
  request: { body: jsonBody(CancelLinkTokenBody) },
  responses: {
    200: jsonContent(LinkStateSchema, 'done, or why not (failed: Stripe did not answer; the gift is unchanged)'),
    ...errorResponses,
  },
});

export const listOffice = defineRoute({
  method: 'get',
  path: '/monthly-gifts',
  tags: ['Monthly gifts'],
  summary: 'Every monthly gift of your organizations (admins: all), with the newest failed payment',
  security: bearerAuth,
  middleware: [financeReaders('Only admins, organization admins and finance users can list monthly gifts')],
  request: { query: monthlyGiftListQuery },
  responses: {
    200: { ...jsonContent(z.array(OfficeMonthlyGiftSchema), 'Monthly gifts, newest first'), headers: totalCountHeader },
    ...errorResponses,
  },
});

export const exportOffice = defineRoute({
  method: 'get',
  path: '/exports/monthly-gifts.csv',
  tags: ['Exports'],
  summary: 'The filtered monthly gifts list as CSV (same filters and scope as GET /api/monthly-gifts)',
  security: bearerAuth,
  middleware: [financeReaders('Only admins, organization admins and finance users can export lists')],
  request: { query: monthlyGiftFilters },
  responses: { 200: csvContent('Monthly gifts, UK dates, amounts in pounds'), ...errorResponses },
});
