/** Labels and units for the /api/reports/* charts (their shapes come from the typed client). Money is pence. */

const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const longDayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "2026-11" → "Nov 2026". */
export const monthLabel = (month: string) => monthFormat.format(new Date(`${month}-01T00:00:00Z`));
/** "2026-11-16" → "16 Nov". */
export const weekLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
export const weekLongLabel = (day: string) => longDayFormat.format(new Date(`${day}T00:00:00Z`));

/** Pence → pounds for chart axes (figures in tables stay formatted from pence). */
export const pounds = (pence: number) => pence / 100;

const compact = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  notation: 'compact',
  maximumFractionDigits: 1,
});
export const axisPounds = (value: number) => compact.format(value);
