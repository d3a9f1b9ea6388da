import { createRouter } from '../../lib/create-app';
import { bearerAuth, defineRoute, errorResponses, IdParams, jsonBody, jsonContent } from '../../lib/openapi';
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

const sendRoute = defineRoute({
  method: 'post',
  path: '/support-requests',
  tags: ['Support'],
  summary: 'Contact Support: store a message, email it to the charity and a copy to the sender',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { body: jsonBody(SupportRequestBody) },
  responses: {
    201: jsonContent(SentSupportRequestSchema, 'Stored (and emailed unless email_sent is false)'),
    ...errorResponses,
  },
});

const listRoute = defineRoute({
  method: 'get',
  path: '/support-requests',
  tags: ['Support'],
  summary: 'The Support inbox for admins (open first); anyone else sees only the messages they sent',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { query: SupportRequestListQuery },
  responses: pageResponses(SupportRequestSchema, 'Newest first'),
});

const handleRoute = defineRoute({
  method: 'put',
  path: '/support-requests/{id}',
  tags: ['Support'],
  summary: 'Mark a message handled, or open again (admins)',
  security: bearerAuth,
  middleware: [adminOnly()],
  request: { params: IdParams, body: jsonBody(SupportRequestUpdate) },
  responses: { 200: jsonContent(SupportRequestSchema, 'The message after the change'), ...errorResponses },
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
