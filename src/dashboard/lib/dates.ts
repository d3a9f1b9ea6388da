import { londonIsoDate, UK_TIME_ZONE } from '../../../domain/dates';

/** Dates are London days wherever the browser is (an office laptop abroad shows the charity's day). */
const dateFmt = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: UK_TIME_ZONE,
});

type Instant = string | number | Date | null | undefined;

/** An instant through `format`; '-' when it is missing or unparseable. */
function formatted(format: Intl.DateTimeFormat, value: Instant): string {
  if (value === null || value === undefined || value === '') return '-';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? '-' : format.format(d);
}

/** "5 Mar 2026"; '-' for missing or unparseable dates. */
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
