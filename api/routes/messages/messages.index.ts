import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { notFound } from '../../lib/errors';
import { bearerAuth, defineRoute, errorResponses, IdParams, jsonBody, jsonContent } from '../../lib/openapi';
import { staffOnly } from '../../lib/policy';
import { serviceContext, signedInContext } from '../../lib/service-context';
import { getCampaign } from '../../services/campaigns/read';
import { MessageHiddenBody, PublicMessageSchema, StaffMessageQuery, StaffMessageSchema } from '../../schemas/messages';
import { latestMessages, setMessageHidden, staffMessages } from '../../services/messages/support-messages';

const appealMessagesRoute = defineRoute({
  method: 'get',
  path: '/appeals/{id}/messages',
  tags: ['Campaigns'],
  summary: 'Latest messages of support on an appeal (hidden ones left out)',
  request: { params: IdParams },
  responses: { 200: jsonContent(z.array(PublicMessageSchema), 'Newest first, at most 10'), ...errorResponses },
});

const staffListRoute = defineRoute({
  method: 'get',
  path: '/messages',
  tags: ['Donations'],
  summary: 'Messages of support for moderation (staff, their organizations), hidden ones included',
  security: bearerAuth,
  middleware: [staffOnly('Only admins and organization admins can moderate messages')],
  request: {
    query: StaffMessageQuery,
  },
  responses: { 200: jsonContent(z.array(StaffMessageSchema), 'Newest first'), ...errorResponses },
});

const hideRoute = defineRoute({
  method: 'put',
  path: '/messages/{id}',
  tags: ['Donations'],
  summary: 'Hide or show a message of support (id = the donation id)',
  security: bearerAuth,
  middleware: [staffOnly('Only admins and organization admins can moderate messages')],
  request: { params: IdParams, body: jsonBody(MessageHiddenBody) },
  responses: { 200: jsonContent(StaffMessageSchema, 'The message after the change'), ...errorResponses },
});

export const messagesRouter = createRouter()
  .openapi(appealMessagesRoute, async (c) => {
    const appeal = await getCampaign(serviceContext(c), c.req.valid('param').id);
    if (appeal?.kind !== 'appeal') throw notFound('Appeal not found');
    return c.json(await latestMessages(c.var.db, { appealId: appeal._id }), 200);
  })
  .openapi(staffListRoute, async (c) => c.json(await staffMessages(signedInContext(c), c.req.valid('query')), 200))
  .openapi(hideRoute, async (c) =>
    c.json(await setMessageHidden(signedInContext(c), c.req.valid('param').id, c.req.valid('json').hidden), 200),
  );
