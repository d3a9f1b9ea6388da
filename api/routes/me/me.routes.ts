import { bearerAuth, csvContent, defineRoute, errorResponses, jsonBody, jsonContent } from '../../lib/openapi';
import { adminOnly, signedIn } from '../../lib/policy';
import {
  ConsentBody,
  ConsentSchema,
  ErasedSchema,
  ErasureConfirmBody,
  ErasureRequestedSchema,
} from '../../schemas/consent';
import { StatementQuery, StatementSchema } from '../../schemas/statement';

export const getConsent = defineRoute({
  method: 'get',
  path: '/me/consent',
  tags: ['Consent and privacy'],
  summary: 'Your "Keep me updated by email" consent',
  security: bearerAuth,
  middleware: [signedIn()],
  responses: { 200: jsonContent(ConsentSchema, "Your consent and today's wording"), ...errorResponses },
});

export const putConsent = defineRoute({
  method: 'put',
  path: '/me/consent',
  tags: ['Consent and privacy'],
  summary: 'Give (with the wording you were shown) or withdraw your consent',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { body: jsonBody(ConsentBody) },
  responses: { 200: jsonContent(ConsentSchema, 'Your consent now'), ...errorResponses },
});

export const exportConsents = defineRoute({
  method: 'get',
  path: '/consents/export',
  tags: ['Consent and privacy'],
  summary: 'CSV of everyone whose consent stands today (admins only)',
  security: bearerAuth,
  middleware: [adminOnly()],
  responses: { 200: csvContent('email, name, date, source and wording'), ...errorResponses },
});

export const requestErasureRoute = defineRoute({
  method: 'post',
  path: '/me/erasure',
  tags: ['Consent and privacy'],
  summary: 'Ask to delete your account: a code is emailed to confirm',
  security: bearerAuth,
  middleware: [signedIn()],
  responses: { 200: jsonContent(ErasureRequestedSchema, 'Code sent'), ...errorResponses },
});

export const confirmErasureRoute = defineRoute({
  method: 'post',
  path: '/me/erasure/confirm',
  tags: ['Consent and privacy'],
  summary: 'Confirm with the emailed code: your personal data is removed and you are signed out',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { body: jsonBody(ErasureConfirmBody) },
  responses: { 200: jsonContent(ErasedSchema, 'Erased'), ...errorResponses },
});

export const getStatement = defineRoute({
  method: 'get',
  path: '/me/statement',
  tags: ['Donations'],
  summary: 'Your gifts in one UK tax year (6 April to 5 April), Gift Aid marked',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { query: StatementQuery },
  responses: { 200: jsonContent(StatementSchema, 'The statement'), ...errorResponses },
});
