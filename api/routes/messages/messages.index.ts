import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { notFound } from '../../lib/errors';
import { bearerAuth, IdParams, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { pageItems, pageResponses } from '../../lib/paging';
import { loadThenAuthorize, staffOnly } from '../../lib/policy';
import { serviceContext, signedInContext } from '../../lib/service-context';
import { getCampaign } from '../../services/campaigns/read';
import {
  MessageHiddenBody,
  PublicMessageSchema,
  StaffMessageQuery,
  StaffMessageSchema,
  SupporterSchema,
  SupportersQuery,
} from '../../schemas/messages';
import { appealSupporters, loadSupportedAppeal } from '../../services/messages/supporters';
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

/** The appeal's fundraiser, or staff who may edit it; anyone else a 404 (decision 075). */
const supportedAppeal = loadThenAuthorize(loadSupportedAppeal);

const supportersRoute = routesOf({ tags: ['Campaigns'], security: bearerAuth }).get('/appeals/{id}/supporters', {
  summary:
    'Every paid gift to an appeal, newest first, as its page shows the donor (its fundraiser, and staff who may edit it)',
  middleware: [supportedAppeal.middleware],
  request: { params: IdParams, query: SupportersQuery },
  responses: pageResponses(SupporterSchema, 'Newest first'),
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
  .openapi(supportersRoute, async (c) =>
    c.json(pageItems(c, await appealSupporters(c.var.db, supportedAppeal.item(c).id, c.req.valid('query'))), 200),
  )
  .openapi(staffListRoute, async (c) => c.json(await staffMessages(signedInContext(c), c.req.valid('query')), 200))
  .openapi(hideRoute, async (c) =>
    c.json(await setMessageHidden(signedInContext(c), c.req.valid('param').id, c.req.valid('json').hidden), 200),
  );
