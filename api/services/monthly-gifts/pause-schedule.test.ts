import { describe, expect, it } from 'vitest';
import { addMonths } from '../../../domain/dates';
import { pauseSchedule } from '../../../domain/monthly-gifts';

const iso = (d: Date) => d.toISOString();

describe('what a pause skips and when the next payment is taken', () => {
  it('first paid today: a 1-month pause ends after the next payment time, so that payment is skipped', () => {
    const started = new Date('2026-11-25T10:00:00Z');
    const now = new Date('2026-11-25T10:05:00Z');
    const s = pauseSchedule(started, addMonths(now, 1), now);
    expect(s.skipped.map(iso)).toEqual(['2026-12-25T10:00:00.000Z']);
    expect(iso(s.next)).toBe('2027-01-25T10:00:00.000Z');
  });

  it('next payment due later today: today’s payment is skipped and the one a month on is taken', () => {
    const started = new Date('2026-10-25T15:00:00Z');
    const now = new Date('2026-11-25T09:00:00Z');
    const s = pauseSchedule(started, addMonths(now, 1), now);
    expect(s.skipped.map(iso)).toEqual(['2026-11-25T15:00:00.000Z']);
    expect(iso(s.next)).toBe('2026-12-25T15:00:00.000Z');
  });

  it('a 3-month pause skips three payments; past payments are never listed', () => {
    const started = new Date('2026-01-31T09:00:00Z');
    const now = new Date('2026-06-10T12:00:00Z');
    const s = pauseSchedule(started, addMonths(now, 3), now);
    expect(s.skipped.map(iso)).toEqual([
      '2026-06-30T09:00:00.000Z',
      '2026-07-31T09:00:00.000Z',
      '2026-08-31T09:00:00.000Z',
    ]);
    expect(iso(s.next)).toBe('2026-09-30T09:00:00.000Z');
  });
  it('an unreadable date answers the pause end instead of looping for ever', () => {
    const end = new Date('2026-12-25T00:00:00Z');
    const s = pauseSchedule(new Date(Number.NaN), end, new Date('2026-11-25T00:00:00Z'));
    expect(s).toEqual({ skipped: [], next: end });
  });
});
