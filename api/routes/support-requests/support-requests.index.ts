import { createRouter } from '../../lib/create-app';
import { bearerAuth, createdResponses, IdParams, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { pageItems, pageResponses } from '../../lib/paging';
import { adminOnly, signedIn } from '../../lib/policy';
import {
  SentSupportRequestSchema,
  SupportRequestBody,
  SupportRequestListQuery,
  SupportRequestSchema,
  SupportRequestUpdate,
} from '../../schemas/support-requests';
import { listSupportRequests, sendSupportRequest, setSupportRequestHandled } from '../../services/support-requests';
import { signedInContext } from '../../lib/service-context';

const support = routesOf({ tags: ['Support'], security: bearerAuth });

const sendRoute = support.post('/support-requests', {
  summary: 'Contact Support: store a message, email it to the charity and a copy to the sender',
  middleware: [signedIn()],
  request: { body: jsonBody(SupportRequestBody) },
  responses: createdResponses(SentSupportRequestSchema, 'Stored (and emailed unless email_sent is false)'),
});

const listRoute = support.get('/support-requests', {
  summary: 'The Support inbox for admins (open first); anyone else sees only the messages they sent',
  middleware: [signedIn()],
  request: { query: SupportRequestListQuery },
  responses: pageResponses(SupportRequestSchema, 'Newest first'),
});

const handleRoute = support.put('/support-requests/{id}', {
  summary: 'Mark a message handled, or open again (admins)',
  middleware: [adminOnly()],
  request: { params: IdParams, body: jsonBody(SupportRequestUpdate) },
  responses: okResponses(SupportRequestSchema, 'The message after the change'),
});

export const supportRequestsRouter = createRouter()
  .openapi(sendRoute, async (c) => {
    return c.json(await sendSupportRequest(signedInContext(c), c.req.valid('json')), 201);
  })
  .openapi(listRoute, async (c) =>
    c.json(pageItems(c, await listSupportRequests(signedInContext(c), c.req.valid('query'))), 200),
  )
  .openapi(handleRoute, async (c) =>
    c.json(
      await setSupportRequestHandled(signedInContext(c), c.req.valid('param').id, c.req.valid('json').handled),
      200,
    ),
  );
