import type { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { bearerAuth, defineRoute, errorResponses, jsonContent } from '../../lib/openapi';
import { financeReaders, requireUser } from '../../lib/policy';
import {
  campaignProgress,
  giftAidByMonth,
  giftsPerWeek,
  monthlyRecurring,
  newVsReturning,
} from '../../services/reports/reports';
import { staffScope } from '../../services/reports/scope';
import {
  CampaignProgressSchema,
  GiftAidByMonthSchema,
  GiftsPerWeekSchema,
  MonthlyRecurringSchema,
  NewVsReturningSchema,
  ReportQuery,
} from '../../schemas/reports';

// Generic in the path, so the typed client (src/lib/api.ts) sees each report as its own route.
const report = <P extends string, S extends z.ZodType>(path: P, summary: string, schema: S) =>
  defineRoute({
    method: 'get',
    path: `/reports/${path}` as const,
    tags: ['Reports'],
    summary,
    security: bearerAuth,
    middleware: [financeReaders('Only admins, organization admins and finance users can see reports')],
    request: { query: ReportQuery },
    responses: { 200: jsonContent(schema, summary), ...errorResponses },
  });

const weeksRoute = report(
  'gifts-per-week',
  'Gifts per week over the last 52 weeks, one-off and monthly',
  GiftsPerWeekSchema,
);
const campaignsRoute = report(
  'campaigns',
  'Raised per live campaign against its goal (top 10)',
  CampaignProgressSchema,
);
const recurringRoute = report(
  'monthly-recurring',
  'Monthly recurring income and active monthly donors, last 12 months',
  MonthlyRecurringSchema,
);
const donorsRoute = report('donors', 'New and returning donors per month, last 12 months', NewVsReturningSchema);
const giftAidRoute = report(
  'gift-aid',
  'Gifts, Gift Aid eligible gifts and the Gift Aid they bring, per month',
  GiftAidByMonthSchema,
);

/** Aggregates for the dashboard overview: admins and org admins, scoped exactly like the lists. */
export const reportsRouter = createRouter()
  .openapi(weeksRoute, async (c) => {
    const scope = staffScope(requireUser(c.var.user), c.req.valid('query').organization_id);
    return c.json({ weeks: await giftsPerWeek(c.var.db, scope) }, 200);
  })
  .openapi(campaignsRoute, async (c) => {
    const scope = staffScope(requireUser(c.var.user), c.req.valid('query').organization_id);
    return c.json({ campaigns: await campaignProgress(c.var.db, scope) }, 200);
  })
  .openapi(recurringRoute, async (c) => {
    const scope = staffScope(requireUser(c.var.user), c.req.valid('query').organization_id);
    return c.json({ months: await monthlyRecurring(c.var.db, scope) }, 200);
  })
  .openapi(donorsRoute, async (c) => {
    const scope = staffScope(requireUser(c.var.user), c.req.valid('query').organization_id);
    return c.json({ months: await newVsReturning(c.var.db, scope) }, 200);
  })
  .openapi(giftAidRoute, async (c) => {
    const scope = staffScope(requireUser(c.var.user), c.req.valid('query').organization_id);
    return c.json({ months: await giftAidByMonth(c.var.db, scope) }, 200);
  });
