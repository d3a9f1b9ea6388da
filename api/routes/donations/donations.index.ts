import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { pagingQuery } from '../../lib/fields';
import { defineRoute, errorResponses, jsonContent, totalCountHeader } from '../../lib/openapi';
import { readsFinance, requireUser } from '../../lib/policy';
import { readQuery } from '../../lib/validate';
import { DONATION_SORTS, donationListQuery } from '../../services/insight/list-filters';
import { DonationSchema, TopDonorSchema } from '../../schemas';
import { parseId } from '../../../db/ids';
import { preparedCampaignById, visibleCampaignDto } from '../../services/campaigns';
import { listDonations, listMyDonations } from '../../services/donations-admin';
import { preparedTopDonors, TOP_DONORS_LIMIT, toTopDonor } from '../../services/top-donors';

const DONATION_LIST_TYPES = ['public', 'me'] as const;

/** type=public: top donors of one campaign or appeal. */
const publicQuery = z.object({
  type: z.string().optional(),
  campaign_id: z.string().max(64).optional(),
  appeal_id: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(TOP_DONORS_LIMIT).optional(),
});

/** No type (the dashboard's list) and type=me: pages with X-Total-Count. */
const pagedQuery = pagingQuery().extend({ type: z.enum(['me']).optional() });
/** The staff list: paging plus search, filters and sort (api/services/insight/list-filters.ts). */
const staffQuery = donationListQuery;

/**
 * The documented query. Which fields apply, and their bounds, depend on `type`, so each branch
 * validates with its own schema after the caller's role is known (no type and type=me need a
 * session; a 401 comes before any 400).
 */
const documentedQuery = z.object({
  type: z.string().optional().openapi({
    description:
      'Absent, `once` or `monthly`: the dashboard list (staff), optionally only one-off or monthly gifts. `me`: the caller’s own gifts. `public`: top donors of one campaign or appeal',
    enum: [...DONATION_LIST_TYPES, 'once', 'monthly'],
  }),
  search: z.string().optional().openapi({ description: 'Staff list: donor name or email contains (at most 40 characters)' }),
  donor_id: z.string().optional().openapi({ description: 'Staff list: one donor' }),
  status: z.string().optional().openapi({ description: 'Staff list: pending, succeeded, failed, refunded or abandoned' }),
  date_from: z.string().optional().openapi({ description: 'Staff list: first London day, YYYY-MM-DD' }),
  date_to: z.string().optional().openapi({ description: 'Staff list: last London day, YYYY-MM-DD (not before date_from)' }),
  amount_min: z.string().optional().openapi({ type: 'integer', description: 'Staff list: smallest amount in pence' }),
  amount_max: z.string().optional().openapi({ type: 'integer', description: 'Staff list: largest amount in pence' }),
  sort: z.string().optional().openapi({ description: `Staff list: ${DONATION_SORTS.join(', ')} (default date)` }),
  order: z.string().optional().openapi({ description: 'Staff list: asc or desc' }),
  campaign_id: z.string().optional().openapi({ description: 'type=public: the campaign; staff list: only this campaign' }),
  appeal_id: z.string().optional().openapi({ description: 'type=public: the appeal; staff list: only this appeal' }),
  limit: z.string().optional().openapi({ type: 'integer', description: `At most 100, or ${TOP_DONORS_LIMIT} for type=public` }),
  offset: z.string().optional().openapi({ type: 'integer' }),
});

const listRoute = defineRoute({
  method: 'get',
  path: '/donations',
  tags: ['Donations'],
  summary: 'Donations (staff), the caller’s own gifts (type=me), or top donors (type=public)',
  request: { query: documentedQuery },
  responses: {
    200: {
      ...jsonContent(z.union([z.array(DonationSchema), z.array(TopDonorSchema)]), 'Donations newest first, or top donors'),
      headers: totalCountHeader,
    },
    ...errorResponses,
  },
});

export const donationsRouter = createRouter().openapi(listRoute, async (c) => {
  const type = c.req.query('type');
  if (type === undefined || type === 'me' || type === 'once' || type === 'monthly') {
    const viewer = requireUser(c.var.user);
    let result;
    if (type === 'me') {
      result = await listMyDonations(c.var.db, viewer, readQuery(c, pagedQuery));
    } else {
      if (!readsFinance(viewer)) throw forbidden('Only admins, organization admins and finance users can list all donations; use type=me for yours');
      const { limit, offset, ...filters } = readQuery(c, staffQuery);
      result = await listDonations(c.var.db, viewer, { limit, offset }, filters);
    }
    c.header('X-Total-Count', String(result.total));
    return c.json(result.items, 200);
  }
  const query = readQuery(c, publicQuery);
  if (query.type !== 'public') throw badRequest(`type must be one of: ${DONATION_LIST_TYPES.join(', ')}`);
  // Top donors of one campaign or appeal; anyone may ask, for items they may see.
  if (!query.campaign_id === !query.appeal_id) {
    throw badRequest('type=public needs exactly one of campaign_id or appeal_id');
  }
  // The item's visibility and its leaderboard in one round trip; the leaderboard is dropped if it is hidden.
  const kind = query.appeal_id ? 'appeal' : 'campaign';
  const id = parseId((query.appeal_id ?? query.campaign_id)!);
  if (id) {
    const [[row], donors] = await c.var.db.batch([
      preparedCampaignById(c.var.db, id),
      preparedTopDonors(c.var.db, kind === 'appeal' ? { appealId: id } : { campaignId: id }, query.limit),
    ]);
    if (visibleCampaignDto(row, c.var.user)?.kind === kind) return c.json(donors.map(toTopDonor), 200);
  }
  throw notFound(kind === 'appeal' ? 'Appeal not found' : 'Campaign not found');
});
