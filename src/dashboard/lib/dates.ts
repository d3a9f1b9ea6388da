import { londonIsoDate, UK_TIME_ZONE } from '../../../domain/dates';

/** Dates are London days wherever the browser is (an office laptop abroad shows the charity's day). */
const dateFmt = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: UK_TIME_ZONE,
});

type Instant = string | number | Date | null | undefined;

const NO_BREAK_SPACE = '\u00a0';

/**
 * An instant through `format`; '-' when it is missing or unparseable. The day, month and year are
 * joined by no-break spaces, so a narrow table column (a phone) never breaks a date over three lines.
 */
function formatted(format: Intl.DateTimeFormat, value: Instant): string {
  if (value === null || value === undefined || value === '') return '-';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '-';
  const [day, ...time] = format.format(d).split(', ');
  return [day.replaceAll(' ', NO_BREAK_SPACE), ...time].join(', ');
}

/** "5 Mar 2026" (no-break spaces); '-' for missing or unparseable dates. */
export const formatDate = (value: Instant) => formatted(dateFmt, value);

const dateTimeFmt = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: UK_TIME_ZONE,
});

/** "5 Mar 2026, 14:05" in London; '-' for missing or unparseable instants. */
export const formatDateTime = (value: Instant) => formatted(dateTimeFmt, value);

/**
 * yyyy-mm-dd for <input type="date">: the London day, as the API reads a date back (a gift at 00:30
 * on a summer night belongs to that day, not to the UTC day before).
 */
export function toDateInput(value: string | number | Date | null | undefined): string {
  if (!value) return '';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? '' : londonIsoDate(d);
}
