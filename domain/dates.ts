/**
 * Dates as a UK charity means them: every calendar day is a day in Europe/London, whatever the
 * server's or the browser's zone (Workers run in UTC; a gift at 00:30 BST belongs to that day).
 */
export const UK_TIME_ZONE = 'Europe/London';

/** Lengths of time in milliseconds (a UTC day: London's days are 23 or 25 hours twice a year, see addDays). */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: UK_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export type LondonParts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The wall-clock fields of an instant in London. */
export function londonParts(date: Date): LondonParts {
  const parts = partsFormat.formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "2026-11-22": the London calendar day of an instant (ISO order, for inputs and sorting). */
export function londonIsoDate(date: Date): string {
  const p = londonParts(date);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** The calendar day `days` after `isoDay` (YYYY-MM-DD); a negative `days` goes back. */
export function addDays(isoDay: string, days: number): string {
  const [y, m, d] = isoDay.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The London calendar day `days` from today (negative: in the past), as tests and forms date things. */
export const londonDayFromToday = (days: number, now = new Date()): string => addDays(londonIsoDate(now), days);

/** The calendar day after `isoDay` (YYYY-MM-DD): an inclusive "to" day becomes an exclusive end. */
export const nextDay = (isoDay: string): string => addDays(isoDay, 1);

/** An optional instant as the API writes it: ISO 8601 in UTC, or null when there is none. */
export const isoOrNull = (instant: Date | number | null | undefined): string | null =>
  instant === null || instant === undefined ? null : new Date(instant).toISOString();

/** "22/11/2026": UK order, for people and finance exports. */
export function formatUkDate(date: Date): string {
  const p = londonParts(date);
  return `${pad(p.day)}/${pad(p.month)}/${p.year}`;
}

/** "22/11/26": HMRC's Gift Aid schedule date format (DD/MM/YY). */
export function formatHmrcDate(date: Date): string {
  const p = londonParts(date);
  return `${pad(p.day)}/${pad(p.month)}/${pad(p.year % 100)}`;
}

/** "22 November 2026", for receipts and statements. */
// Built once: constructing an Intl formatter costs far more than formatting with it (every receipt uses this).
const longUkDate = new Intl.DateTimeFormat('en-GB', {
  timeZone: UK_TIME_ZONE,
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

export function formatLongUkDate(date: Date): string {
  return longUkDate.format(date);
}

/** The instant London's clock reads midnight at the start of a calendar day ("2026-04-06"). */
export function londonMidnight(isoDay: string): Date {
  const [y, m, d] = isoDay.split('-').map(Number);
  // Start from UTC midnight and correct by London's offset at that moment (0 or +1 hour).
  const guess = new Date(Date.UTC(y, m - 1, d));
  const p = londonParts(guess);
  const offsetMs = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - guess.getTime();
  return new Date(guess.getTime() - offsetMs);
}

/** A valid "YYYY-MM-DD" that names a real day (2025-02-31 is not one). */
export function isIsoDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * The UK tax year an instant falls in: 6 April to 5 April, London time. `startYear` 2026 is the
 * year 2026-27; `end` is exclusive (midnight starting 6 April of the next year).
 */
export function ukTaxYear(startYear: number): { startYear: number; label: string; start: Date; end: Date } {
  return {
    startYear,
    label: `${startYear}-${pad((startYear + 1) % 100)}`,
    start: londonMidnight(`${startYear}-04-06`),
    end: londonMidnight(`${startYear + 1}-04-06`),
  };
}

export function ukTaxYearOf(date: Date): ReturnType<typeof ukTaxYear> {
  const p = londonParts(date);
  const startYear = p.month > 4 || (p.month === 4 && p.day >= 6) ? p.year : p.year - 1;
  return ukTaxYear(startYear);
}

/** The same date one calendar month later, clamped to the month's last day (31 Jan → 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}
