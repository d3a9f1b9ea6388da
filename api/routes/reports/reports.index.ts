import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { bearerAuth, defineRoute, errorResponses, jsonContent } from '../../lib/openapi';
import { financeReaders, requireUser } from '../../lib/policy';
import { campaignProgress, giftAidByMonth, giftsPerWeek, monthlyRecurring, newVsReturning } from '../../services/insight/reports';
import { staffScope } from '../../services/insight/scope';
import { parseId } from '../../../db/ids';

const ReportQuery = z.object({
  organization_id: z
    .string()
    .max(64)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const id = parseId(v);
      if (!id) {
        ctx.addIssue({ code: 'custom', message: 'Must be an organization id' });
        return z.NEVER;
      }
      return id;
    })
    .openapi({ description: 'Only this organization (admins: any; org admins: one of theirs)' }),
});

const Pence = z.number().int();
const Month = z.string().openapi({ example: '2026-11' });

const WeeksSchema = z
  .object({
    weeks: z.array(
      z.object({
        week_start: z.string().openapi({ example: '2026-11-16', description: 'Monday, London time' }),
        once_count: z.number().int(),
        once_amount: Pence,
        monthly_count: z.number().int(),
        monthly_amount: Pence,
      }),
    ),
  })
  .openapi('GiftsPerWeekReport');

const CampaignsSchema = z
  .object({ campaigns: z.array(z.object({ _id: z.string(), title: z.string(), goal: Pence, raised: Pence })) })
  .openapi('CampaignProgressReport');

const RecurringSchema = z
  .object({ months: z.array(z.object({ month: Month, income: Pence, donors: z.number().int() })) })
  .openapi('MonthlyRecurringReport');

const DonorsSchema = z
  .object({ months: z.array(z.object({ month: Month, new_donors: z.number().int(), returning_donors: z.number().int() })) })
  .openapi('NewVsReturningReport');

const GiftAidSchema = z
  .object({ months: z.array(z.object({ month: Month, total_amount: Pence, eligible_amount: Pence, gift_aid: Pence })) })
  .openapi('GiftAidReport');

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

const weeksRoute = report('gifts-per-week', 'Gifts per week over the last 52 weeks, one-off and monthly', WeeksSchema);
const campaignsRoute = report('campaigns', 'Raised per live campaign against its goal (top 10)', CampaignsSchema);
const recurringRoute = report('monthly-recurring', 'Monthly recurring income and active monthly donors, last 12 months', RecurringSchema);
const donorsRoute = report('donors', 'New and returning donors per month, last 12 months', DonorsSchema);
const giftAidRoute = report('gift-aid', 'Gifts, Gift Aid eligible gifts and the Gift Aid they bring, per month', GiftAidSchema);

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
