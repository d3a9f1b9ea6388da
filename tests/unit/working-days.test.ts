import { describe, expect, it } from 'vitest';
import { firstCollectionDate, formatLongUkDate } from '../../domain';
import {
  addBacsWorkingDays,
  BANK_HOLIDAYS_KNOWN_UNTIL,
  ENGLAND_AND_WALES_BANK_HOLIDAYS,
  isBacsWorkingDay,
} from '../../domain/working-days';

/** The London calendar day of a result, as people read it. */
const day = (d: Date) => formatLongUkDate(d);
/** An instant at 10:00 London time on a calendar day (GMT in winter, BST in summer). */
const at = (iso: string, hourUtc = 10) => new Date(`${iso}T${String(hourUtc).padStart(2, '0')}:00:00Z`);

/** Easter Sunday by the anonymous Gregorian algorithm: an independent check of the static list. */
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const date = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
}
const shift = (iso: string, days: number) => {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};

describe('the Bacs working-day rule (domain/working-days.ts)', () => {
  it('skips a weekend', () => {
    // Thursday 19 November 2026 + 3 working days: Friday, (weekend), Monday, Tuesday.
    expect(day(addBacsWorkingDays(at('2026-11-19'), 3))).toBe('24 November 2026');
    // Set up on a Saturday: Monday, Tuesday, Wednesday.
    expect(day(addBacsWorkingDays(at('2026-11-21'), 3))).toBe('25 November 2026');
    // An ordinary week.
    expect(day(addBacsWorkingDays(at('2026-11-23'), 3))).toBe('26 November 2026');
  });

  it('skips Christmas Day and the Boxing Day substitute (2026: Boxing Day is a Saturday)', () => {
    // Wednesday 23 December 2026: Thursday 24, (Fri 25 Christmas, weekend, Mon 28 substitute), Tue 29, Wed 30.
    expect(day(addBacsWorkingDays(at('2026-12-23'), 3))).toBe('30 December 2026');
    expect(isBacsWorkingDay('2026-12-28')).toBe(false);
    // 2027: both fall on the weekend, so Monday 27 and Tuesday 28 are the holidays; then New Year's Day 2028
    // is a Saturday and Monday 3 January is its substitute.
    expect(day(addBacsWorkingDays(at('2027-12-24'), 3))).toBe('31 December 2027');
    // Thursday 30 December 2027: Fri 31, (weekend, Mon 3 January), Tue 4, Wed 5.
    expect(day(addBacsWorkingDays(at('2027-12-30'), 3))).toBe('5 January 2028');
    // 2025: Christmas Thursday, Boxing Day Friday, New Year's Day Thursday.
    expect(day(addBacsWorkingDays(at('2025-12-23'), 3))).toBe('30 December 2025');
  });

  it('skips Good Friday and Easter Monday', () => {
    // Thursday 2 April 2026: (Good Friday 3, weekend, Easter Monday 6), Tue 7, Wed 8, Thu 9.
    expect(day(addBacsWorkingDays(at('2026-04-02'), 3))).toBe('9 April 2026');
    // 2027: Easter Sunday is 28 March; Wednesday 24 March → Thu 25, (Fri 26, weekend, Mon 29), Tue 30, Wed 31.
    expect(day(addBacsWorkingDays(at('2027-03-24'), 3))).toBe('31 March 2027');
    // The May Mondays too: Friday 22 May 2026 → (weekend, spring bank holiday Monday 25), Tue 26, Wed 27, Thu 28.
    expect(day(addBacsWorkingDays(at('2026-05-22'), 3))).toBe('28 May 2026');
  });

  it('counts the London calendar day: 00:30 BST is already the next day', () => {
    // 23:30 UTC on Thursday 2 April 2026 is 00:30 on Good Friday in London.
    expect(day(addBacsWorkingDays(new Date('2026-04-02T23:30:00Z'), 1))).toBe('7 April 2026');
    expect(day(addBacsWorkingDays(new Date('2026-04-02T22:30:00Z'), 1))).toBe('7 April 2026');
    expect(day(addBacsWorkingDays(new Date('2026-04-01T22:30:00Z'), 1))).toBe('2 April 2026');
  });

  it('is what the Direct Debit first collection date uses', () => {
    expect(day(firstCollectionDate(at('2026-12-23')))).toBe('30 December 2026');
    expect(day(firstCollectionDate(at('2026-04-02')))).toBe('9 April 2026');
  });

  it('lists eight holidays a year for 2025 to 2028, Easter where the calendar puts it, none on a weekend', () => {
    for (let year = 2025; year <= BANK_HOLIDAYS_KNOWN_UNTIL; year++) {
      const list = ENGLAND_AND_WALES_BANK_HOLIDAYS.filter((d) => d.startsWith(`${year}-`));
      expect(list, String(year)).toHaveLength(8);
      const easter = easterSunday(year);
      expect(list, `Good Friday ${year}`).toContain(shift(easter, -2));
      expect(list, `Easter Monday ${year}`).toContain(shift(easter, 1));
      for (const holiday of list) {
        const weekday = new Date(`${holiday}T12:00:00Z`).getUTCDay();
        expect([0, 6], holiday).not.toContain(weekday);
      }
    }
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
    expect(easterSunday(2028)).toBe('2028-04-16');
  });

  it('beyond the list only weekends are skipped', () => {
    // Christmas Day 2029 is a Tuesday: not known, so counted as a working day.
    expect(isBacsWorkingDay('2029-12-25')).toBe(true);
    expect(day(addBacsWorkingDays(at('2029-12-24'), 3))).toBe('27 December 2029');
    expect(isBacsWorkingDay('2029-12-29')).toBe(false);
  });
});
