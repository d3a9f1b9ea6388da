import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { notFound } from '../../lib/errors';
import { bearerAuth, defineRoute, errorResponses, IdParams, jsonBody, jsonContent } from '../../lib/openapi';
import { requireUser, staffOnly } from '../../lib/policy';
import { getCampaign } from '../../services/campaigns';
import { idParam } from '../../services/insight/list-filters';
import { latestMessages, setMessageHidden, staffMessages } from '../../services/support-messages';

const PublicMessageSchema = z
  .object({
    _id: z.string(),
    name: z.string().openapi({ description: '"First L." or "Anonymous"' }),
    message: z.string(),
    amount: z.number().int().nullable().openapi({ description: 'Pence, or null when the donor hid it' }),
    date: z.string(),
  })
  .openapi('SupportMessage');

const StaffMessageSchema = PublicMessageSchema.extend({
  amount: z.number().int(),
  donor: z.string(),
  anonymous: z.boolean(),
  hide_amount: z.boolean(),
  hidden: z.boolean(),
  status: z.string(),
  campaign: z.string(),
  appeal: z.string().nullable(),
}).openapi('SupportMessageForStaff');

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
    query: z.object({
      donation_id: idParam('a donation'),
      appeal_id: idParam('an appeal'),
      campaign_id: idParam('a campaign'),
      limit: z.coerce.number().int().min(1).max(100, 'Must be at most 100').optional(),
    }),
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
  request: { params: IdParams, body: jsonBody(z.object({ hidden: z.boolean({ error: 'Must be true or false' }) })) },
  responses: { 200: jsonContent(StaffMessageSchema, 'The message after the change'), ...errorResponses },
});

export const messagesRouter = createRouter()
  .openapi(appealMessagesRoute, async (c) => {
    const appeal = await getCampaign(c.var.db, c.req.valid('param').id, c.var.user);
    if (appeal?.kind !== 'appeal') throw notFound('Appeal not found');
    return c.json(await latestMessages(c.var.db, { appealId: appeal._id }), 200);
  })
  .openapi(staffListRoute, async (c) => c.json(await staffMessages(c.var.db, requireUser(c.var.user), c.req.valid('query')), 200))
  .openapi(hideRoute, async (c) =>
    c.json(await setMessageHidden(c.var.db, requireUser(c.var.user), c.req.valid('param').id, c.req.valid('json').hidden), 200),
  );
