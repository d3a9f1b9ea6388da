import { sql, type SQL } from 'drizzle-orm';
import { HOUR_MS, londonMidnight, londonParts } from '../../../domain/dates';

/**
 * SQLite has no time zones, so charts bucket gifts by London wall-clock time with a shift the
 * server computes: +1 hour inside each British Summer Time window that meets the range. The
 * windows are inlined as integer literals (computed here, never from input) so SELECT and
 * GROUP BY see one identical expression and no bound parameters are spent.
 */

export const WEEK_MS = 7 * 24 * HOUR_MS;
/** 1970-01-05, the first Monday after the epoch: weeks start on Monday. */
export const MONDAY_EPOCH_MS = 4 * 24 * HOUR_MS;

/** 01:00 UTC on the last Sunday of a month (BST starts in March and ends in October then). */
function lastSundayAt1Utc(year: number, month0: number): number {
  const last = new Date(Date.UTC(year, month0 + 1, 0, 1));
  return last.getTime() - last.getUTCDay() * 24 * HOUR_MS;
}

export function bstWindows(fromYear: number, toYear: number): [number, number][] {
  const out: [number, number][] = [];
  for (let y = fromYear; y <= toYear; y++) out.push([lastSundayAt1Utc(y, 2), lastSundayAt1Utc(y, 9)]);
  return out;
}

/** `column` (ms since epoch, UTC) as London wall-clock ms, for dates between fromYear and toYear. */
export function londonLocalMs(column: SQL, fromYear: number, toYear: number): SQL {
  const whens = bstWindows(fromYear, toYear).map(
    ([start, end]) =>
      sql`when ${column} >= ${sql.raw(String(start))} and ${column} < ${sql.raw(String(end))} then ${sql.raw(String(HOUR_MS))}`,
  );
  return sql`(${column} + case ${sql.join(whens, sql` `)} else 0 end)`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Wall-clock London ms to "YYYY-MM-DD". */
export const localDay = (localMs: number) => new Date(localMs).toISOString().slice(0, 10);

/** The wall-clock London ms of an instant. */
export function toLocalMs(instant: Date): number {
  const p = londonParts(instant);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) + (instant.getTime() % 1000);
}

/** The last `count` London weeks (Monday starts, oldest first) ending with the one containing `now`. */
export function lastWeeks(now: Date, count: number): { index: number; start: string }[] {
  const current = Math.floor((toLocalMs(now) - MONDAY_EPOCH_MS) / WEEK_MS);
  return Array.from({ length: count }, (_, i) => {
    const index = current - count + 1 + i;
    return { index, start: localDay(index * WEEK_MS + MONDAY_EPOCH_MS) };
  });
}

/** The last `count` London months ("YYYY-MM", oldest first) ending with the one containing `now`. */
export function lastMonths(now: Date, count: number): string[] {
  const local = new Date(toLocalMs(now));
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth();
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(year, month - count + 1 + i, 1));
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
  });
}

/** The instant a London day or month label starts ("2026-03-30" or "2026-03"). */
export function londonStart(label: string): Date {
  return londonMidnight(label.length === 7 ? `${label}-01` : label);
}
