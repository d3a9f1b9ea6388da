import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createRouter, errorBody } from '../../lib/create-app';
import { bearerAuth, defineRoute, errorResponses, IdParams, jsonBody, jsonContent } from '../../lib/openapi';
import { requireUser, signedIn } from '../../lib/policy';
import type { AppEnv } from '../../lib/types';
import { CampaignSchema } from '../../schemas';
import { campaignInput, campaignUpdateInput, createCampaign, updateCampaign } from '../../services/campaigns-write';

/** Nine 5 MB images as base64 JSON come to ~60 MB; one save carries at most this much. */
export const CAMPAIGN_BODY_LIMIT = 50 * 1024 * 1024;

const largeBody = bodyLimit({
  maxSize: CAMPAIGN_BODY_LIMIT,
  onError: (c) =>
    c.json(errorBody(413, 'Request body is too large (limit 50 MB in total); save with fewer or smaller images, then add the rest'), 413),
});

function writeCtx(c: Context<AppEnv>) {
  return { db: c.var.db, user: requireUser(c.var.user), config: c.var.config, bucket: c.env?.IMAGES, now: new Date(), requestId: c.var.requestId };
}

const createRoute = defineRoute({
  method: 'post',
  path: '/campaigns',
  tags: ['Campaigns'],
  summary: 'Create a campaign (admins, org_admins) or an appeal (anyone signed in)',
  description: 'Images arrive as data URLs (PNG or JPEG, at most 5 MB each, at most 9); the body may be up to 50 MB.',
  security: bearerAuth,
  middleware: [largeBody, signedIn()],
  request: { body: jsonBody(campaignInput) },
  responses: { 201: jsonContent(CampaignSchema, 'Created'), ...errorResponses },
});

const updateRoute = defineRoute({
  method: 'put',
  path: '/campaigns/{id}',
  tags: ['Campaigns'],
  summary: 'Update a campaign or appeal (its author, its organization’s admins, or an admin)',
  security: bearerAuth,
  middleware: [largeBody, signedIn()],
  request: { params: IdParams, body: jsonBody(campaignUpdateInput) },
  responses: { 200: jsonContent(CampaignSchema, 'Updated'), ...errorResponses },
});

/** Create and update campaigns and appeals (spec section 7); reads live in campaigns.index.ts. */
export const campaignsWriteRouter = createRouter()
  .openapi(createRoute, async (c) => c.json(await createCampaign(writeCtx(c), c.req.valid('json')), 201))
  .openapi(updateRoute, async (c) => c.json(await updateCampaign(writeCtx(c), c.req.valid('param').id, c.req.valid('json')), 200));
