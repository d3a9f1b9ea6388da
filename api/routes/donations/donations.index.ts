import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createRouter } from '../../lib/create-app';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import {
  checkResponse,
  donationSumsHeaders,
  errorResponses,
  jsonContent,
  okResponses,
  routesOf,
  totalCountHeader,
} from '../../lib/openapi';
import type { AppEnv } from '../../lib/types';
import { readsFinance, requireUser } from '../../lib/policy';
import { readQuery } from '../../lib/validate';
import { DonationSchema, TopDonorSchema } from '../../schemas';
import {
  DONATION_LIST_TYPES,
  DonationListQuery,
  MyDonationsQuery,
  StaffDonationsQuery,
  TopDonorsQuery,
} from '../../schemas/donations';
import { parseId } from '../../../domain/ids';
import { preparedCampaignById, visibleCampaignDto } from '../../services/campaigns/read';
import { listDonations, listMyDonations } from '../../services/donations/list';
import { preparedTopDonors, toTopDonors } from '../../services/campaigns/top-donors';

const donations = routesOf({ tags: ['Donations'] });

const listRoute = donations.get('/donations', {
  summary: 'Donations (staff), the caller’s own gifts (type=me), or top donors (type=public)',
  request: { query: DonationListQuery },
  responses: {
    200: {
      ...jsonContent(z.array(DonationSchema), 'Donations newest first (staff: with the filtered list’s sums)'),
      headers: { ...totalCountHeader, ...donationSumsHeaders },
    },
    ...errorResponses,
  },
});

const topDonorsRoute = donations.get('/donations/top', {
  summary: 'Top donors of one campaign or appeal (also answered as GET /donations?type=public)',
  request: { query: TopDonorsQuery },
  responses: okResponses(z.array(TopDonorSchema), 'Top donors, largest total first'),
});

/** Top donors of one campaign or appeal; anyone may ask, for items they may see. */
async function topDonors(c: Context<AppEnv>) {
  const query = readQuery(c, TopDonorsQuery);
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
    if (visibleCampaignDto(row, c.var.user)?.kind === kind) return c.json(toTopDonors(donors, query.limit), 200);
  }
  throw notFound(kind === 'appeal' ? 'Appeal not found' : 'Campaign not found');
}

const checkTopDonors = checkResponse(topDonorsRoute.responses);

const router = createRouter();

// The spec's GET /donations?type=public is GET /donations/top by another name, answered (and
// checked against the top donors' schema) before the list route, whose answer is one shape.
router.use('/donations', async (c, next) => {
  if (c.req.method !== 'GET' || c.req.query('type') !== 'public') return next();
  await checkTopDonors(c, async () => {
    c.res = await topDonors(c);
  });
  return c.res;
});

export const donationsRouter = router
  .openapi(topDonorsRoute, async (c) => topDonors(c))
  .openapi(listRoute, async (c) => {
    const type = c.req.query('type');
    if (type !== undefined && type !== 'me' && type !== 'once' && type !== 'monthly') {
      throw badRequest(`type must be one of: ${DONATION_LIST_TYPES.join(', ')}`);
    }
    const viewer = requireUser(c.var.user);
    let result;
    if (type === 'me') {
      result = await listMyDonations({ db: c.var.db, viewer }, readQuery(c, MyDonationsQuery));
    } else {
      if (!readsFinance(viewer))
        throw forbidden(
          'Only admins, organization admins and finance users can list all donations; use type=me for yours',
        );
      const { limit, offset, ...filters } = readQuery(c, StaffDonationsQuery);
      const staffList = await listDonations({ db: c.var.db, viewer }, { limit, offset }, filters);
      c.header('X-Paid-Count', String(staffList.sums.paid));
      c.header('X-Received-Pence', String(staffList.sums.received));
      c.header('X-Refunded-Pence', String(staffList.sums.refunded));
      result = staffList;
    }
    c.header('X-Total-Count', String(result.total));
    return c.json(result.items, 200);
  });
