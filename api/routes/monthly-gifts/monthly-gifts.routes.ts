import { z } from '@hono/zod-openapi';
import { MAX_PAUSE_MONTHS } from '../../../domain';
import { bearerAuth, csvContent, errorResponses, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { pageResponses } from '../../lib/paging';
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

/** The signed-in donor's own monthly gifts. */
const mine = routesOf({ tags: ['Monthly gifts'], security: bearerAuth, middleware: [signedIn()] });

/** One monthly gift of a staff member's organizations (admins: any). */
const managed = routesOf({
  tags: ['Monthly gifts'],
  security: bearerAuth,
  middleware: [staffOnly("Only administrators of this gift's organization can manage it")],
});

/** The back office's list of every monthly gift in the viewer's organizations. */
const office = routesOf({
  tags: ['Monthly gifts'],
  security: bearerAuth,
  middleware: [financeReaders('Only admins, organization admins and finance users can list monthly gifts')],
});

const cancelLinks = routesOf({ tags: ['Monthly gifts'] });

const exports = routesOf({ tags: ['Exports'], security: bearerAuth });

export const listMine = mine.get('/me/monthly-gifts', {
  summary: 'Your monthly gifts: running ones first, then those cancelled',
  responses: okResponses(z.array(MonthlyGiftSchema), 'Your monthly gifts'),
});

export const cancelMine = mine.post('/me/monthly-gifts/{id}/cancel', {
  summary: 'Cancel your monthly gift (on the Stripe Subscription; demo mode alike)',
  request: { params: MonthlyGiftIdParam },
  responses: okResponses(MonthlyGiftSchema, 'The gift, cancelled'),
});

export const changeMine = mine.post('/me/monthly-gifts/{id}/change', {
  summary: 'Change the monthly amount to one of the offered prices, from the next payment (no proration)',
  request: { params: MonthlyGiftIdParam, body: jsonBody(MonthlyGiftChangeBody) },
  responses: okResponses(MonthlyGiftSchema, 'The gift with its new amount'),
});

export const pauseMine = mine.post('/me/monthly-gifts/{id}/pause', {
  summary: `Pause payments for 1 to ${MAX_PAUSE_MONTHS} months; they restart on their own`,
  request: { params: MonthlyGiftIdParam, body: jsonBody(MonthlyGiftPauseBody) },
  responses: okResponses(MonthlyGiftSchema, 'The gift, paused'),
});

export const resumeMine = mine.post('/me/monthly-gifts/{id}/resume', {
  summary: 'End a pause now: payments go on from the next scheduled date',
  request: { params: MonthlyGiftIdParam },
  responses: okResponses(MonthlyGiftSchema, 'The gift, running again'),
});

// Read by the money readers of its organization (a finance officer opens a monthly payment's page too);
// cancelled only by its administrators (cancelManaged).
export const getManaged = office.get('/monthly-gifts/{id}', {
  summary: 'A monthly gift of your organizations (admins: any; finance users read it)',
  request: { params: MonthlyGiftIdParam },
  responses: okResponses(MonthlyGiftSchema, 'The gift'),
});

export const cancelManaged = managed.post('/monthly-gifts/{id}/cancel', {
  summary: 'Cancel a monthly gift of your organizations (admins: any)',
  request: { params: MonthlyGiftIdParam },
  responses: okResponses(MonthlyGiftSchema, 'The gift, cancelled'),
});

export const readLink = cancelLinks.get('/monthly-gift-links/cancel', {
  summary: 'What a signed cancel link points at (no sign-in). Never cancels.',
  request: { query: CancelLinkTokenQuery },
  responses: okResponses(LinkStateSchema, 'ready, or why the link cannot be used (invalid, expired, used, cancelled)'),
});

export const useLink = cancelLinks.post('/monthly-gift-links/cancel', {
  summary: 'Cancel the monthly gift a signed link names, once (no sign-in)',
  request: { body: jsonBody(CancelLinkTokenBody) },
  responses: okResponses(LinkStateSchema, 'done, or why not (failed: Stripe did not answer; the gift is unchanged)'),
});

export const listOffice = office.get('/monthly-gifts', {
  summary: 'Every monthly gift of your organizations (admins: all), with the newest failed payment',
  request: { query: monthlyGiftListQuery },
  responses: pageResponses(OfficeMonthlyGiftSchema, 'Monthly gifts, newest first'),
});

export const exportOffice = exports.get('/exports/monthly-gifts.csv', {
  summary: 'The filtered monthly gifts list as CSV (same filters and scope as GET /api/monthly-gifts)',
  middleware: [financeReaders('Only admins, organization admins and finance users can export lists')],
  request: { query: monthlyGiftFilters },
  responses: { 200: csvContent('Monthly gifts, UK dates, amounts in pounds'), ...errorResponses },
});
