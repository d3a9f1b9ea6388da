import { z } from 'zod';

/** Shapes of /api/reports/* (api/routes/reports), parsed at the boundary. Money is pence. */

export const weeksSchema = z.object({
  weeks: z.array(z.object({ week_start: z.string(), once_count: z.number(), once_amount: z.number(), monthly_count: z.number(), monthly_amount: z.number() })),
});
export const campaignsSchema = z.object({ campaigns: z.array(z.object({ _id: z.string(), title: z.string(), goal: z.number(), raised: z.number() })) });
export const recurringSchema = z.object({ months: z.array(z.object({ month: z.string(), income: z.number(), donors: z.number() })) });
export const donorsSchema = z.object({ months: z.array(z.object({ month: z.string(), new_donors: z.number(), returning_donors: z.number() })) });
export const giftAidSchema = z.object({
  months: z.array(z.object({ month: z.string(), total_amount: z.number(), eligible_amount: z.number(), gift_aid: z.number() })),
});

const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const longDayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "2026-11" → "Nov 2026". */
export const monthLabel = (month: string) => monthFormat.format(new Date(`${month}-01T00:00:00Z`));
/** "2026-11-16" → "16 Nov". */
export const weekLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
export const weekLongLabel = (day: string) => longDayFormat.format(new Date(`${day}T00:00:00Z`));

/** Pence → pounds for chart axes (figures in tables stay formatted from pence). */
export const pounds = (pence: number) => pence / 100;

const compact = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', notation: 'compact', maximumFractionDigits: 1 });
export const axisPounds = (value: number) => compact.format(value);
