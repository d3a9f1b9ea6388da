import { describe, expect, it } from 'vitest';
import {
  defaultCampaignDates,
  endedMessage,
  formatLongUkDay,
  givingEndedOn,
  hasEnded,
  lastGivingDay,
} from '../../domain';

const at = (iso: string) => new Date(iso);

describe('hasEnded: the end date is the last London day that takes gifts', () => {
  it('in summer (BST, UTC+1) it ends at London midnight, 23:00 UTC', () => {
    expect(hasEnded('2026-07-31', at('2026-07-31T09:00:00Z'))).toBe(false);
    expect(hasEnded('2026-07-31', at('2026-07-31T22:59:59Z'))).toBe(false);
    // 00:00 BST on 1 August, still 31 July in UTC.
    expect(hasEnded('2026-07-31', at('2026-07-31T23:00:00Z'))).toBe(true);
  });

  it('in winter (GMT) it ends at midnight UTC', () => {
    expect(hasEnded('2026-11-30', at('2026-11-30T23:59:59Z'))).toBe(false);
    expect(hasEnded('2026-11-30', at('2026-12-01T00:00:00Z'))).toBe(true);
  });

  it('around the clocks going back (25 October 2026) the day still ends at London midnight', () => {
    // 24 October ends at 00:00 BST on the 25th (23:00 UTC on the 24th); the 25th at 00:00 GMT on the 26th.
    expect(hasEnded('2026-10-24', at('2026-10-24T22:59:59Z'))).toBe(false);
    expect(hasEnded('2026-10-24', at('2026-10-24T23:00:00Z'))).toBe(true);
    expect(hasEnded('2026-10-25', at('2026-10-25T23:59:59Z'))).toBe(false);
    expect(hasEnded('2026-10-25', at('2026-10-26T00:00:00Z'))).toBe(true);
  });

  it('a missing, empty or malformed end date never ends', () => {
    const late = at('2099-01-01T00:00:00Z');
    expect(hasEnded(null, late)).toBe(false);
    expect(hasEnded(undefined, late)).toBe(false);
    expect(hasEnded('', late)).toBe(false);
    expect(hasEnded('30/11/2026', late)).toBe(false);
  });
});

describe('lastGivingDay and givingEndedOn: an appeal ends with its campaign', () => {
  it('takes the earlier of the two dates, ignoring missing ones', () => {
    expect(lastGivingDay('2026-12-31', '2026-11-30')).toBe('2026-11-30');
    expect(lastGivingDay('2026-11-30', '2026-12-31')).toBe('2026-11-30');
    expect(lastGivingDay(null, '2026-11-30')).toBe('2026-11-30');
    expect(lastGivingDay('2026-11-30', '')).toBe('2026-11-30');
    expect(lastGivingDay('', null)).toBeNull();
    expect(lastGivingDay(undefined)).toBeNull();
  });

  it('names the day it ended, or null while open', () => {
    const now = at('2026-12-05T10:00:00Z');
    expect(givingEndedOn({ date: { to: '2026-11-30' } }, now)).toBe('2026-11-30');
    expect(givingEndedOn({ date: { to: '2026-12-05' } }, now)).toBeNull();
    // Its own date is ahead, but its campaign ended.
    expect(givingEndedOn({ date: { to: '2027-01-31' }, campaign_date_to: '2026-12-01' }, now)).toBe('2026-12-01');
    expect(givingEndedOn({ date: { to: null }, campaign_date_to: null }, now)).toBeNull();
  });
});

describe('the words', () => {
  it('writes the day in full, the same day whatever the season', () => {
    expect(formatLongUkDay('2026-11-30')).toBe('30 November 2026');
    expect(formatLongUkDay('2026-07-01')).toBe('1 July 2026');
    expect(endedMessage('appeal', '2026-11-30')).toBe('This appeal ended on 30 November 2026 and takes no new gifts.');
    expect(endedMessage('campaign', '2026-11-30')).toBe(
      'This campaign ended on 30 November 2026 and takes no new gifts.',
    );
  });
});

describe('defaultCampaignDates', () => {
  it('runs a new item from today in London for 20 days, on London days, not UTC ones', () => {
    expect(defaultCampaignDates(new Date('2026-03-10T12:00:00Z'))).toEqual({ from: '2026-03-10', to: '2026-03-30' });
    // 23:30 UTC on 30 June is already 1 July in London (BST).
    expect(defaultCampaignDates(new Date('2026-06-30T23:30:00Z'))).toEqual({ from: '2026-07-01', to: '2026-07-21' });
    // Across the clocks going back (25 October 2026) the span is still 20 calendar days.
    expect(defaultCampaignDates(new Date('2026-10-20T09:00:00Z'))).toEqual({ from: '2026-10-20', to: '2026-11-09' });
  });
});
