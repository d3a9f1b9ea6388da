import { bodyLimit } from 'hono/body-limit';
import type { Context } from 'hono';
import { createRouter, errorBody } from '../../lib/create-app';
import type { AppEnv } from '../../lib/types';
import { readJson } from '../../lib/validate';
import { requireUser } from '../../middlewares/auth';
import { campaignInput, campaignUpdateInput, createCampaign, updateCampaign } from '../../services/campaigns-write';

/** Nine 5 MB images as base64 JSON come to ~60 MB; one save carries at most this much. */
export const CAMPAIGN_BODY_LIMIT = 50 * 1024 * 1024;

const largeBody = bodyLimit({
  maxSize: CAMPAIGN_BODY_LIMIT,
  onError: (c) =>
    c.json(errorBody(413, 'Request body is too large (limit 50 MB in total); save with fewer or smaller images, then add the rest'), 413),
});

function writeCtx(c: Context<AppEnv>) {
  return { db: c.var.db, user: requireUser(c.var.user), config: c.var.config, bucket: c.env?.IMAGES, now: new Date() };
}

/** Create and update campaigns and appeals (spec section 7); reads live in campaigns.index.ts. */
export const campaignsWriteRouter = createRouter()
  .post('/campaigns', largeBody, async (c) => {
    const ctx = writeCtx(c);
    const input = await readJson(c, campaignInput);
    return c.json(await createCampaign(ctx, input), 201);
  })
  .put('/campaigns/:id', largeBody, async (c) => {
    const ctx = writeCtx(c);
    const input = await readJson(c, campaignUpdateInput);
    return c.json(await updateCampaign(ctx, c.req.param('id'), input));
  });
