import { z } from 'zod';
import { createRouter } from '../../lib/create-app';
import { badRequest, notFound } from '../../lib/errors';
import { readQuery } from '../../lib/validate';
import { getCampaign } from '../../services/campaigns';
import { TOP_DONORS_LIMIT, topDonors } from '../../services/top-donors';
import { listDonationsHandler } from './donations.admin';

const DONATION_LIST_TYPES = ['public', 'me'] as const;

const listQuery = z.object({
  type: z.string().optional(),
  campaign_id: z.string().max(64).optional(),
  appeal_id: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(TOP_DONORS_LIMIT).optional(),
});

export const donationsRouter = createRouter().get('/donations', async (c) => {
  // No type (the dashboard's admin list) and type=me have their own paging query: donations.admin.ts.
  const type = c.req.query('type');
  if (type === undefined || type === 'me') return listDonationsHandler(c);
  const query = readQuery(c, listQuery);
  switch (query.type) {
    case 'public': {
      // Top donors of one campaign or appeal; anyone may ask, for items they may see.
      if (!query.campaign_id === !query.appeal_id) {
        throw badRequest('type=public needs exactly one of campaign_id or appeal_id');
      }
      if (query.appeal_id) {
        const appeal = await getCampaign(c.var.db, query.appeal_id, c.var.user);
        if (!appeal || appeal.kind !== 'appeal') throw notFound('Appeal not found');
        return c.json(await topDonors(c.var.db, { appealId: appeal._id }, query.limit));
      }
      const campaign = await getCampaign(c.var.db, query.campaign_id!, c.var.user);
      if (!campaign || campaign.kind !== 'campaign') throw notFound('Campaign not found');
      return c.json(await topDonors(c.var.db, { campaignId: campaign._id }, query.limit));
    }
    default:
      throw badRequest(`type must be one of: ${DONATION_LIST_TYPES.join(', ')}`);
  }
});
