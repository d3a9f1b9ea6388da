import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { createRouter, errorBody } from '../../lib/create-app';
import { bearerAuth, createdResponses, IdParams, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { requireUser, signedIn } from '../../lib/policy';
import type { AppEnv } from '../../lib/types';
import { CampaignSchema } from '../../schemas';
import { campaignInput, campaignUpdateInput, createCampaign, updateCampaign } from '../../services/campaigns/write';
import { base64Length, CAMPAIGN_TEXT_ALLOWANCE, MAX_CAMPAIGN_BODY_BYTES } from '../../services/campaigns/images';
import { remainingUploadBytes, uploadQuotaOf } from '../../services/abuse/quotas';
import { RateLimitError } from '../../services/abuse/rate-limit';
import { signedInContext } from '../../lib/service-context';

const MB = 1024 * 1024;
const inMb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/**
 * Refuses an oversized save before reading it: by Content-Length when declared, else while it
 * streams in. The limit is the largest legal body (MAX_CAMPAIGN_BODY_BYTES), or for a caller
 * with a daily upload quota what that quota still allows as base64 plus the text fields. Runs
 * after the sign-in check, so an anonymous caller is refused without sending anything.
 */
const campaignBodyLimit = createMiddleware<AppEnv>(async (c, next) => {
  const user = requireUser(c.var.user);
  const quota = uploadQuotaOf(user);
  const remaining = await remainingUploadBytes(c.var.db, user, new Date());
  const bodyFor = (bytes: number | null) =>
    bytes === null
      ? MAX_CAMPAIGN_BODY_BYTES
      : Math.min(MAX_CAMPAIGN_BODY_BYTES, base64Length(bytes) + CAMPAIGN_TEXT_ALLOWANCE);
  const never = bodyFor(quota?.limit ?? null);
  const today = bodyFor(remaining);
  const tooLarge = () =>
    c.json(
      errorBody(
        413,
        quota === null || never === MAX_CAMPAIGN_BODY_BYTES
          ? `Request body is too large (limit ${inMb(never)}: nine images at their size limits); save with fewer or smaller images`
          : `Request body is too large (limit ${inMb(never)}: ${inMb(quota.limit)} of image uploads a day, as sent); save with fewer or smaller images, then add the rest`,
      ),
      413,
    );
  // Within what a whole day allows but over what is left of today's: the quota's own 429.
  const overToday = () => {
    throw new RateLimitError(
      `You can upload up to ${inMb(quota?.limit ?? 0)} of images a day and have ${inMb(remaining ?? 0)} left. Use fewer or smaller images, or try again tomorrow.`,
      24 * 60 * 60,
    );
  };
  const declared = c.req.header('content-length');
  if (declared !== undefined && !c.req.header('transfer-encoding')) {
    const size = Number(declared);
    if (size > never) return tooLarge();
    if (size > today) return overToday();
  }
  return bodyLimit({ maxSize: today, onError: () => (today === never ? tooLarge() : overToday()) })(c, next);
});

const campaignWrites = routesOf({
  tags: ['Campaigns'],
  security: bearerAuth,
  middleware: [signedIn(), campaignBodyLimit],
});

const createRoute = campaignWrites.post('/campaigns', {
  summary: 'Create a campaign (admins, org_admins) or an appeal (anyone signed in)',
  description:
    "Images arrive as data URLs (PNG or JPEG, at most 5 MB each, at most 9, each with up to three 1 MB WebP copies); the body may be up to about 96 MB, or what the caller's daily upload quota still allows, and is refused with 413 before it is read.",
  request: { body: jsonBody(campaignInput) },
  responses: createdResponses(CampaignSchema, 'Created'),
});

const updateRoute = campaignWrites.put('/campaigns/{id}', {
  summary: 'Update a campaign or appeal (its author, its organization’s admins, or an admin)',
  request: { params: IdParams, body: jsonBody(campaignUpdateInput) },
  responses: okResponses(CampaignSchema, 'Updated'),
});

/** Create and update campaigns and appeals (spec section 7); reads live in campaigns.index.ts. */
export const campaignsWriteRouter = createRouter()
  .openapi(createRoute, async (c) => c.json(await createCampaign(signedInContext(c), c.req.valid('json')), 201))
  .openapi(updateRoute, async (c) =>
    c.json(await updateCampaign(signedInContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
