import { z } from '@hono/zod-openapi';
import type { Db } from '../../../db/client';
import { createRouter } from '../../lib/create-app';
import { badRequest, notFound } from '../../lib/errors';
import { requireUser } from '../../lib/policy';
import { serviceContext } from '../../lib/service-context';
import type { AuthUser } from '../../lib/types';
import { errorResponses, IdParams, jsonContent, okResponses, routesOf } from '../../lib/openapi';
import { CampaignSchema, CampaignTitleSchema } from '../../schemas';
import { CampaignListQuery } from '../../schemas/campaigns';
import {
  DEFAULT_PAGE_SIZE,
  getCampaign,
  listCampaigns,
  listCampaignTitles,
  searchCampaigns,
} from '../../services/campaigns/read';
import { searchMatch } from '../../../domain/search';

/** limit/offset/page (and `mine`, which needs a signed-in caller) from the query as list options. */
function paging(query: z.infer<typeof CampaignListQuery>, viewer: AuthUser | null) {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const offset = query.page ? (query.page - 1) * limit : query.offset;
  const mine = query.mine === 'true';
  if (mine) requireUser(viewer);
  return { status: query.status, limit, offset, mine };
}

/**
 * A list, or with `q` a search of the public list (decision 072: the index holds what the public
 * lists show, so `q` takes no `mine` and no status but approved). A `q` with no word lists as without.
 */
function listOrSearch(
  db: Db,
  query: z.infer<typeof CampaignListQuery>,
  viewer: AuthUser | null,
  list: { kind: 'campaign' | 'appeal'; parentId?: string },
) {
  const options = paging(query, viewer);
  if (query.q === undefined || searchMatch(query.q) === null) return listCampaigns(db, { ...list, ...options, viewer });
  if ((query.status !== undefined && query.status !== 'approved') || options.mine)
    throw badRequest('q: a search finds what the public lists show; leave out mine, and any status but approved');
  return searchCampaigns(db, { ...list, search: query.q, limit: options.limit, offset: options.offset, viewer });
}

const campaignList = jsonContent(z.array(CampaignSchema), 'Campaigns or appeals, newest first');

const campaigns = routesOf({ tags: ['Campaigns'] });

const listCampaignsRoute = campaigns.get('/campaigns', {
  summary: 'Campaigns the caller may see (approved ones for the public)',
  request: { query: CampaignListQuery },
  responses: okResponses(
    z.union([z.array(CampaignSchema), z.array(CampaignTitleSchema)]),
    'Campaigns, or with tiny=true their ids and titles',
  ),
});

const getCampaignRoute = campaigns.get('/campaigns/{id}', {
  summary: 'One campaign or appeal by UUID or short id',
  request: { params: IdParams },
  responses: okResponses(CampaignSchema, 'The campaign or appeal'),
});

const campaignAppealsRoute = campaigns.get('/campaigns/{id}/appeals', {
  summary: 'The appeals of one campaign',
  request: { params: IdParams, query: CampaignListQuery },
  responses: { 200: campaignList, ...errorResponses },
});

const listAppealsRoute = campaigns.get('/appeals', {
  summary: 'Appeals the caller may see',
  request: { query: CampaignListQuery },
  responses: { 200: campaignList, ...errorResponses },
});

const getAppealRoute = campaigns.get('/appeals/{id}', {
  summary: 'One appeal by UUID or short id',
  request: { params: IdParams },
  responses: okResponses(CampaignSchema, 'The appeal'),
});

export const campaignsRouter = createRouter()
  .openapi(listCampaignsRoute, async (c) => {
    const query = c.req.valid('query');
    if (query.tiny === 'true') return c.json(await listCampaignTitles(c.var.db), 200);
    return c.json(await listOrSearch(c.var.db, query, c.var.user, { kind: 'campaign' }), 200);
  })
  .openapi(getCampaignRoute, async (c) => {
    const campaign = await getCampaign(serviceContext(c), c.req.valid('param').id);
    if (!campaign) throw notFound('Campaign not found');
    return c.json(campaign, 200);
  })
  .openapi(campaignAppealsRoute, async (c) => {
    const query = c.req.valid('query');
    const campaign = await getCampaign(serviceContext(c), c.req.valid('param').id);
    // An appeal has no appeals of its own.
    if (campaign?.kind !== 'campaign') throw notFound('Campaign not found');
    return c.json(await listOrSearch(c.var.db, query, c.var.user, { kind: 'appeal', parentId: campaign._id }), 200);
  })
  .openapi(listAppealsRoute, async (c) => {
    const query = c.req.valid('query');
    return c.json(await listOrSearch(c.var.db, query, c.var.user, { kind: 'appeal' }), 200);
  })
  .openapi(getAppealRoute, async (c) => {
    const appeal = await getCampaign(serviceContext(c), c.req.valid('param').id);
    if (appeal?.kind !== 'appeal') throw notFound('Appeal not found');
    return c.json(appeal, 200);
  });
