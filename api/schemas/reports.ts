import { z } from '@hono/zod-openapi';
import { parseId } from '../../domain/ids';

/** The dashboard's reports (/reports/*): one organization or all the caller may read. */

export const ReportQuery = z.object({
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

export const GiftsPerWeekSchema = z
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

export const CampaignProgressSchema = z
  .object({ campaigns: z.array(z.object({ _id: z.string(), title: z.string(), goal: Pence, raised: Pence })) })
  .openapi('CampaignProgressReport');

export const MonthlyRecurringSchema = z
  .object({ months: z.array(z.object({ month: Month, income: Pence, donors: z.number().int() })) })
  .openapi('MonthlyRecurringReport');

export const NewVsReturningSchema = z
  .object({
    months: z.array(z.object({ month: Month, new_donors: z.number().int(), returning_donors: z.number().int() })),
  })
  .openapi('NewVsReturningReport');

export const GiftAidByMonthSchema = z
  .object({ months: z.array(z.object({ month: Month, total_amount: Pence, eligible_amount: Pence, gift_aid: Pence })) })
  .openapi('GiftAidReport');
