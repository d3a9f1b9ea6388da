import { z } from 'zod';
import { CAMPAIGN_STATUSES } from '../../../db/schema';
import { createRouter } from '../../lib/create-app';
import { notFound } from '../../lib/errors';
import { readQuery } from '../../lib/validate';
import { DEFAULT_PAGE_SIZE, getCampaign, listCampaigns, listCampaignTitles, MAX_PAGE_SIZE } from '../../services/campaigns';

export const listQuery = z.object({
  status: z.enum([...CAMPAIGN_STATUSES, 'all']).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  offset: z.coerce.number().int().min(0).max(100_000).optional(),
  /** 1-based page of `limit` items; an alternative to offset. */
  page: z.coerce.number().int().min(1).max(10_000).optional(),
  tiny: z.enum(['true', 'false']).optional(),
});

/** limit/offset/page from the query as list options. */
function paging(query: z.infer<typeof listQuery>) {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const offset = query.page ? (query.page - 1) * limit : query.offset;
  return { status: query.status, limit, offset };
}

export const campaignsRouter = createRouter()
  .get('/campaigns', async (c) => {
    const query = readQuery(c, listQuery);
    if (query.tiny === 'true') return c.json(await listCampaignTitles(c.var.db));
    return c.json(await listCampaigns(c.var.db, { kind: 'campaign', ...paging(query), viewer: c.var.user }));
  })
  .get('/campaigns/:id', async (c) => {
    const campaign = await getCampaign(c.var.db, c.req.param('id'), c.var.user);
    if (!campaign) throw notFound('Campaign not found');
    return c.json(campaign);
  })
  .get('/campaigns/:id/appeals', async (c) => {
    const query = readQuery(c, listQuery);
    const campaign = await getCampaign(c.var.db, c.req.param('id'), c.var.user);
    // An appeal has no appeals of its own.
    if (!campaign || campaign.kind !== 'campaign') throw notFound('Campaign not found');
    return c.json(
      await listCampaigns(c.var.db, { kind: 'appeal', parentId: campaign._id, ...paging(query), viewer: c.var.user }),
    );
  })
  .get('/appeals', async (c) => {
    const query = readQuery(c, listQuery);
    return c.json(await listCampaigns(c.var.db, { kind: 'appeal', ...paging(query), viewer: c.var.user }));
  })
  .get('/appeals/:id', async (c) => {
    const appeal = await getCampaign(c.var.db, c.req.param('id'), c.var.user);
    if (!appeal || appeal.kind !== 'appeal') throw notFound('Appeal not found');
    return c.json(appeal);
  });
