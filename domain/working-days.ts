import { londonIsoDate } from './dates';

/**
 * England and Wales bank holidays (gov.uk/bank-holidays), with the substitute weekday when one falls
 * on a weekend. Bacs does not process on these days, so a collection "3 working days" after Christmas
 * Eve is not taken until after Boxing Day. A static list: Parliament can move or add one (2020's VE
 * Day, 2022's Jubilee), and gov.uk publishes them about two years ahead, so extend it each year.
 */
export const ENGLAND_AND_WALES_BANK_HOLIDAYS: readonly string[] = [
  // 2025 (Easter Sunday 20 April)
  '2025-01-01',
  '2025-04-18',
  '2025-04-21',
  '2025-05-05',
  '2025-05-26',
  '2025-08-25',
  '2025-12-25',
  '2025-12-26',
  // 2026 (Easter Sunday 5 April; Boxing Day is a Saturday, so Monday 28 December)
  '2026-01-01',
  '2026-04-03',
  '2026-04-06',
  '2026-05-04',
  '2026-05-25',
  '2026-08-31',
  '2026-12-25',
  '2026-12-28',
  // 2027 (Easter Sunday 28 March; Christmas and Boxing Day fall on the weekend: 27 and 28 December)
  '2027-01-01',
  '2027-03-26',
  '2027-03-29',
  '2027-05-03',
  '2027-05-31',
  '2027-08-30',
  '2027-12-27',
  '2027-12-28',
  // 2028 (Easter Sunday 16 April; New Year's Day is a Saturday, so Monday 3 January)
  '2028-01-03',
  '2028-04-14',
  '2028-04-17',
  '2028-05-01',
  '2028-05-29',
  '2028-08-28',
  '2028-12-25',
  '2028-12-26',
];

/** The last year the list covers: after it only weekends are skipped (see `isBacsWorkingDay`). */
export const BANK_HOLIDAYS_KNOWN_UNTIL = 2028;

const holidays = new Set(ENGLAND_AND_WALES_BANK_HOLIDAYS);

/**
 * Whether Bacs processes on a calendar day ("2026-12-28"): Monday to Friday and not an England and
 * Wales bank holiday. Beyond `BANK_HOLIDAYS_KNOWN_UNTIL` bank holidays are not known, so only weekends
 * are skipped: guessing them (Easter, or a one-off added by proclamation) could be wrong in either
 * direction, and every date shown from this rule is "on or about".
 */
export function isBacsWorkingDay(isoDay: string): boolean {
  const [y, m, d] = isoDay.split('-').map(Number);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.has(isoDay);
}

/**
 * The one working-day rule: the instant at noon UTC of the London calendar day `n` Bacs working days
 * after the London day of `date` (weekends and England and Wales bank holidays skipped). Noon UTC is
 * the same calendar day in London whether it is GMT or BST, so any UK date formatter prints that day.
 */
export function addBacsWorkingDays(date: Date, n: number): Date {
  const [y, m, d] = londonIsoDate(date).split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d, 12));
  for (let left = n; left > 0; ) {
    day.setUTCDate(day.getUTCDate() + 1);
    if (isBacsWorkingDay(day.toISOString().slice(0, 10))) left--;
  }
  return day;
}
