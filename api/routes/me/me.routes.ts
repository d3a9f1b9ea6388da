import { bearerAuth, csvContent, errorResponses, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { adminOnly, signedIn } from '../../lib/policy';
import {
  ConsentBody,
  ConsentSchema,
  ErasedSchema,
  ErasureConfirmBody,
  ErasureRequestedSchema,
} from '../../schemas/consent';
import { StatementQuery, StatementSchema } from '../../schemas/statement';

const privacy = routesOf({ tags: ['Consent and privacy'], security: bearerAuth });

const statements = routesOf({ tags: ['Donations'], security: bearerAuth });

export const getConsent = privacy.get('/me/consent', {
  summary: 'Your "Keep me updated by email" consent',
  middleware: [signedIn()],
  responses: okResponses(ConsentSchema, "Your consent and today's wording"),
});

export const putConsent = privacy.put('/me/consent', {
  summary: 'Give (with the wording you were shown) or withdraw your consent',
  middleware: [signedIn()],
  request: { body: jsonBody(ConsentBody) },
  responses: okResponses(ConsentSchema, 'Your consent now'),
});

export const exportConsents = privacy.get('/consents/export', {
  summary: 'CSV of everyone whose consent stands today (admins only)',
  middleware: [adminOnly()],
  responses: { 200: csvContent('email, name, date, source and wording'), ...errorResponses },
});

export const requestErasureRoute = privacy.post('/me/erasure', {
  summary: 'Ask to delete your account: a code is emailed to confirm',
  middleware: [signedIn()],
  responses: okResponses(ErasureRequestedSchema, 'Code sent'),
});

export const confirmErasureRoute = privacy.post('/me/erasure/confirm', {
  summary: 'Confirm with the emailed code: your personal data is removed and you are signed out',
  middleware: [signedIn()],
  request: { body: jsonBody(ErasureConfirmBody) },
  responses: okResponses(ErasedSchema, 'Erased'),
});

export const getStatement = statements.get('/me/statement', {
  summary: 'Your gifts in one UK tax year (6 April to 5 April), Gift Aid marked',
  middleware: [signedIn()],
  request: { query: StatementQuery },
  responses: okResponses(StatementSchema, 'The statement'),
});
