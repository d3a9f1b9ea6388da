import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { notFound } from '../../lib/errors';
import { bearerAuth, IdParams, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { staffOnly } from '../../lib/policy';
import { serviceContext, signedInContext } from '../../lib/service-context';
import { getCampaign } from '../../services/campaigns/read';
import { MessageHiddenBody, PublicMessageSchema, StaffMessageQuery, StaffMessageSchema } from '../../schemas/messages';
import { latestMessages, setMessageHidden, staffMessages } from '../../services/messages/support-messages';

const appealMessages = routesOf({ tags: ['Campaigns'] });

const moderation = routesOf({
  tags: ['Donations'],
  security: bearerAuth,
  middleware: [staffOnly('Only admins and organization admins can moderate messages')],
});

const appealMessagesRoute = appealMessages.get('/appeals/{id}/messages', {
  summary: 'Latest messages of support on an appeal (hidden ones left out)',
  request: { params: IdParams },
  responses: okResponses(z.array(PublicMessageSchema), 'Newest first, at most 10'),
});

const staffListRoute = moderation.get('/messages', {
  summary: 'Messages of support for moderation (staff, their organizations), hidden ones included',
  request: {
    query: StaffMessageQuery,
  },
  responses: okResponses(z.array(StaffMessageSchema), 'Newest first'),
});

const hideRoute = moderation.put('/messages/{id}', {
  summary: 'Hide or show a message of support (id = the donation id)',
  request: { params: IdParams, body: jsonBody(MessageHiddenBody) },
  responses: okResponses(StaffMessageSchema, 'The message after the change'),
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
