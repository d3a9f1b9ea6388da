import type { Context } from 'hono';
import { z } from 'zod';
import { createRouter } from '../../lib/create-app';
import { forbidden } from '../../lib/errors';
import type { AppEnv } from '../../lib/types';
import { readJson, readQuery } from '../../lib/validate';
import { requireUser } from '../../middlewares/auth';
import {
  createManualDonation,
  getDonation,
  listDonations,
  listMyDonations,
  myGivingSummary,
  updateDonation,
} from '../../services/donations-admin';
import { pagingQuery, reference } from '../organizations/fields';

const listQuery = pagingQuery().extend({ type: z.enum(['me']).optional() });

const amount = z.number({ error: 'amount: Enter the amount in pence as a whole number' }).int('Enter the amount in pence as a whole number');
const date = z.string({ error: 'Enter a date like 2025-03-31' }).trim().min(1, 'Enter a date like 2025-03-31').max(40);

const createBody = z.object({
  donor: reference('a donor'),
  amount,
  date,
  campaign: reference('a campaign'),
  appeal: reference('an appeal'),
});

const updateBody = z.object({
  donor: reference('a donor').optional(),
  amount: amount.optional(),
  date: date.optional(),
  campaign: reference('a campaign').optional(),
  appeal: reference('an appeal').nullable().optional(),
});

/**
 * GET /api/donations without a type (the dashboard's admin list) and with type=me (the signed-in
 * user's own gifts). Called from the switch in donations.index.ts; both send X-Total-Count.
 */
export async function listDonationsHandler(c: Context<AppEnv>) {
  const viewer = requireUser(c.var.user);
  const query = readQuery(c, listQuery);
  let result;
  if (query.type === 'me') {
    result = await listMyDonations(c.var.db, viewer, query);
  } else {
    if (viewer.type === 'donor') throw forbidden('Only admins and organization admins can list all donations; use type=me for yours');
    result = await listDonations(c.var.db, viewer, query);
  }
  c.header('X-Total-Count', String(result.total));
  return c.json(result.items);
}

export const donationsAdminRouter = createRouter()
  // Registered before /donations/:id so "summary" is never read as an id.
  .get('/donations/summary', async (c) => c.json(await myGivingSummary(c.var.db, requireUser(c.var.user))))
  .post('/donations', async (c) => {
    const viewer = requireUser(c.var.user);
    if (viewer.type === 'donor') throw forbidden('Only admins and organization admins can record donations');
    const input = await readJson(c, createBody);
    return c.json(await createManualDonation(c.var.db, input, viewer), 201);
  })
  .get('/donations/:id', async (c) => {
    const viewer = requireUser(c.var.user);
    return c.json(await getDonation(c.var.db, c.req.param('id'), viewer));
  })
  .put('/donations/:id', async (c) => {
    const viewer = requireUser(c.var.user);
    // Visibility and role before the body, so out-of-scope callers learn nothing from validation.
    await getDonation(c.var.db, c.req.param('id'), viewer);
    if (viewer.type === 'donor') throw forbidden('Only admins and organization admins can edit donations');
    const input = await readJson(c, updateBody);
    return c.json(await updateDonation(c.var.db, c.req.param('id'), input, viewer));
  });
