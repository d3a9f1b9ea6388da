import { describe, expect, it } from 'vitest';
import {
  firstGivingDay,
  formatShortUkDay,
  givingOpensOn,
  londonDayFromToday,
  notOpenYet,
  opensMessage,
} from '../../domain';

const at = (iso: string) => new Date(iso);

describe('notOpenYet: the start date is the first London day that takes gifts', () => {
  it('a start date of today is open, tomorrow is not yet', () => {
    const now = at('2026-11-28T10:00:00Z');
    expect(notOpenYet('2026-11-28', now)).toBe(false);
    expect(notOpenYet('2026-11-29', now)).toBe(true);
    expect(notOpenYet('2026-11-27', now)).toBe(false);
  });

  it('in summer (BST, UTC+1) it opens at London midnight, 23:00 UTC the day before', () => {
    expect(notOpenYet('2026-08-01', at('2026-07-31T22:59:59Z'))).toBe(true);
    // 00:00 BST on 1 August, still 31 July in UTC.
    expect(notOpenYet('2026-08-01', at('2026-07-31T23:00:00Z'))).toBe(false);
  });

  it('in winter (GMT) it opens at midnight UTC', () => {
    expect(notOpenYet('2026-12-01', at('2026-11-30T23:59:59Z'))).toBe(true);
    expect(notOpenYet('2026-12-01', at('2026-12-01T00:00:00Z'))).toBe(false);
  });

  it('around the clocks going back (25 October 2026) the day still opens at London midnight', () => {
    // The 25th opens at 00:00 BST (23:00 UTC on the 24th); the 26th at 00:00 GMT.
    expect(notOpenYet('2026-10-25', at('2026-10-24T22:59:59Z'))).toBe(true);
    expect(notOpenYet('2026-10-25', at('2026-10-24T23:00:00Z'))).toBe(false);
    expect(notOpenYet('2026-10-26', at('2026-10-25T23:59:59Z'))).toBe(true);
    expect(notOpenYet('2026-10-26', at('2026-10-26T00:00:00Z'))).toBe(false);
  });

  it('a missing, empty or malformed start date is open already', () => {
    const early = at('2000-01-01T00:00:00Z');
    expect(notOpenYet(null, early)).toBe(false);
    expect(notOpenYet(undefined, early)).toBe(false);
    expect(notOpenYet('', early)).toBe(false);
    expect(notOpenYet('01/12/2026', early)).toBe(false);
  });
});

describe('firstGivingDay and givingOpensOn: an appeal waits for its campaign', () => {
  it('takes the later of the two dates, ignoring missing ones', () => {
    expect(firstGivingDay('2026-12-01', '2026-11-01')).toBe('2026-12-01');
    expect(firstGivingDay('2026-11-01', '2026-12-01')).toBe('2026-12-01');
    expect(firstGivingDay(null, '2026-12-01')).toBe('2026-12-01');
    expect(firstGivingDay('2026-12-01', '')).toBe('2026-12-01');
    expect(firstGivingDay('', null)).toBeNull();
    expect(firstGivingDay(undefined)).toBeNull();
  });

  it('names the day it opens, or null once open', () => {
    const now = at('2026-11-28T10:00:00Z');
    expect(givingOpensOn({ date: { from: '2026-12-01' } }, now)).toBe('2026-12-01');
    expect(givingOpensOn({ date: { from: '2026-11-28' } }, now)).toBeNull();
    // Its own date has come, but its campaign has not opened.
    expect(givingOpensOn({ date: { from: '2026-11-01' }, campaign_date_from: '2026-12-05' }, now)).toBe('2026-12-05');
    expect(givingOpensOn({ date: { from: null }, campaign_date_from: null }, now)).toBeNull();
  });
});

describe('the words', () => {
  it('says the day in full for the API and the page, short for a card', () => {
    expect(opensMessage('appeal', '2026-12-01')).toBe('This appeal opens for gifts on 1 December 2026.');
    expect(opensMessage('campaign', '2026-12-01')).toBe('This campaign opens for gifts on 1 December 2026.');
    expect(formatShortUkDay('2026-12-01')).toBe('1 Dec 2026');
    expect(formatShortUkDay('2026-07-31')).toBe('31 Jul 2026');
  });
});

describe('londonDayFromToday: the London day n days away, as the date tests write them', () => {
  it('counts from the London day, not the UTC one, across the clock change and months', () => {
    // 23:30 UTC on 31 March 2026 is already 1 April in London (BST).
    const lateMarch = new Date('2026-03-31T23:30:00Z');
    expect(londonDayFromToday(0, lateMarch)).toBe('2026-04-01');
    expect(londonDayFromToday(-1, lateMarch)).toBe('2026-03-31');
    expect(londonDayFromToday(30, lateMarch)).toBe('2026-05-01');
  });
});
