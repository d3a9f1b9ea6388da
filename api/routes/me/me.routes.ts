import { createRoute, z } from '@hono/zod-openapi';
import { CONSENT_SOURCES, ERASURE_OUTCOMES } from '../../../domain';
import { bearerAuth, errorResponses, jsonContent } from '../../lib/openapi';
import { adminOnly, signedIn } from '../../lib/policy';

const ConsentSchema = z
  .object({
    consented: z.boolean(),
    wording: z.string().openapi({ description: 'Today\'s wording, shown next to the unticked box' }),
    given: z.object({ wording: z.string(), source: z.enum(CONSENT_SOURCES), given_at: z.string() }).nullable(),
    withdrawn_at: z.string().nullable(),
  })
  .openapi('MarketingConsent');

const ConsentBody = z.object({
  consent: z.boolean({ error: 'consent: must be true (keep me updated) or false (withdraw)' }),
  source: z.enum(['sign_up', 'my_info'], { error: 'source: sign_up or my_info' }).optional(),
  consent_wording: z.string().max(2000).optional(),
});

export const getConsent = createRoute({
  method: 'get',
  path: '/me/consent',
  tags: ['Consent and privacy'],
  summary: 'Your "Keep me updated by email" consent',
  security: bearerAuth,
  middleware: [signedIn()] as const,
  responses: { 200: jsonContent(ConsentSchema, 'Your consent and today\'s wording'), ...errorResponses },
});

export const putConsent = createRoute({
  method: 'put',
  path: '/me/consent',
  tags: ['Consent and privacy'],
  summary: 'Give (with the wording you were shown) or withdraw your consent',
  security: bearerAuth,
  middleware: [signedIn()] as const,
  request: { body: { content: { 'application/json': { schema: ConsentBody } }, required: true } },
  responses: { 200: jsonContent(ConsentSchema, 'Your consent now'), ...errorResponses },
});

export const exportConsents = createRoute({
  method: 'get',
  path: '/consents/export',
  tags: ['Consent and privacy'],
  summary: 'CSV of everyone whose consent stands today (admins only)',
  security: bearerAuth,
  middleware: [adminOnly()] as const,
  responses: { 200: { content: { 'text/csv': { schema: z.string() } }, description: 'email, name, date, source and wording' }, ...errorResponses },
});

export const requestErasureRoute = createRoute({
  method: 'post',
  path: '/me/erasure',
  tags: ['Consent and privacy'],
  summary: 'Ask to delete your account: a code is emailed to confirm',
  security: bearerAuth,
  middleware: [signedIn()] as const,
  responses: { 200: jsonContent(z.object({ sent: z.literal(true), expires_at: z.string() }), 'Code sent'), ...errorResponses },
});

export const confirmErasureRoute = createRoute({
  method: 'post',
  path: '/me/erasure/confirm',
  tags: ['Consent and privacy'],
  summary: 'Confirm with the emailed code: your personal data is removed and you are signed out',
  security: bearerAuth,
  middleware: [signedIn()] as const,
  request: {
    body: {
      content: { 'application/json': { schema: z.object({ code: z.string({ error: 'code: enter the 6-digit code from the email' }).trim().regex(/^\d{6}$/, 'code: enter the 6-digit code from the email') }) } },
      required: true,
    },
  },
  responses: { 200: jsonContent(z.object({ erased: z.literal(true) }), 'Erased'), ...errorResponses },
});

export const ErasureSchema = z.object({ outcome: z.enum(ERASURE_OUTCOMES), requested_at: z.string(), completed_at: z.string().nullable(), detail: z.string().nullable() }).openapi('ErasureRequest');

const StatementSchema = z
  .object({
    tax_year: z.object({ start_year: z.number(), label: z.string(), from: z.string(), to: z.string() }),
    donor: z.object({ name: z.string(), email: z.string() }),
    gifts: z.array(
      z.object({
        _id: z.string(),
        date: z.string(),
        amount: z.number(),
        refunded: z.number(),
        net: z.number(),
        type: z.enum(['once', 'monthly']),
        cause: z.string(),
        charity: z.string(),
        gift_aid: z.boolean(),
        reference: z.string(),
      }),
    ),
    totals: z.object({ count: z.number(), net: z.number(), gift_aid_net: z.number(), gift_aid_value: z.number() }),
    charities: z.array(z.object({ name: z.string(), registration: z.string().nullable(), address: z.string().nullable() })),
    generated_at: z.string(),
  })
  .openapi('AnnualStatement');

export const getStatement = createRoute({
  method: 'get',
  path: '/me/statement',
  tags: ['Donations'],
  summary: 'Your gifts in one UK tax year (6 April to 5 April), Gift Aid marked',
  security: bearerAuth,
  middleware: [signedIn()] as const,
  request: { query: z.object({ tax_year: z.string().max(8).optional().openapi({ example: '2025', description: 'The year the tax year starts in; default the current one' }) }) },
  responses: { 200: jsonContent(StatementSchema, 'The statement'), ...errorResponses },
});
