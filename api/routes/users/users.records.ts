import { createRouter } from '../../lib/create-app';
import { bearerAuth, IdParams, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { pagedBodyResponses } from '../../lib/paging';
import { financeReaders, requireUser, staffOnly } from '../../lib/policy';
import { DonorGivingSchema, GivingQuerySchema, MergeBodySchema, MergeResultSchema } from '../../schemas/users';
import { donorGiving } from '../../services/users/giving';
import { mergeDonors } from '../../services/users/merge';

const donors = routesOf({ tags: ['Donors'], security: bearerAuth });

const givingRoute = donors.get('/users/{id}/giving', {
  summary: 'A donor’s giving history and totals (admins; org admins and finance: gifts to their organizations)',
  middleware: [financeReaders('Only admins, organization admins and finance users can see a donor’s giving')],
  request: { params: IdParams, query: GivingQuerySchema },
  responses: pagedBodyResponses(DonorGivingSchema, 'Totals and gifts, newest first'),
});

const mergeRoute = donors.post('/users/{id}/merge', {
  summary: 'Merge a duplicate donor record into another (admins; org admins within their organizations); audited',
  description:
    'Moves gifts, Gift Aid declarations, monthly gifts, marketing consents and organization links from {id} to `into`, then deletes {id}. ' +
    'Refused: into itself (400), staff accounts (400: only donor records merge), unknown ids (404), records touching another organization (403, org admins), donors and finance users (403).',
  middleware: [staffOnly('Only admins and organization admins can merge donors')],
  request: { params: IdParams, body: jsonBody(MergeBodySchema) },
  responses: okResponses(MergeResultSchema, 'Merged'),
});

/** A donor's record as the back office works with it: their giving, and merging duplicates. */
export const userRecordsRouter = createRouter()
  .openapi(givingRoute, async (c) => {
    const { giving, total } = await donorGiving(
      c.var.db,
      c.req.valid('param').id,
      requireUser(c.var.user),
      c.req.valid('query'),
    );
    c.header('X-Total-Count', String(total));
    return c.json(giving, 200);
  })
  .openapi(mergeRoute, async (c) => {
    const result = await mergeDonors(
      c.var.db,
      c.req.valid('param').id,
      c.req.valid('json').into,
      requireUser(c.var.user),
      c.var.requestId,
    );
    return c.json(result, 200);
  });
