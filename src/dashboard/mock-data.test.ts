import { describe, expect, it } from 'vitest';
import { attendedEvents, daysFrom, nextEvents } from './mock-data';

describe('sample events', () => {
  it('are dated from today: next ones ahead, attended ones behind', () => {
    const today = new Date('2031-02-27T23:30:00Z');
    expect(daysFrom(today, 2)).toBe('2031-03-01');
    const day = daysFrom(today, 0);
    expect(nextEvents(today).every((e) => e.date > day)).toBe(true);
    expect(attendedEvents(today).every((e) => e.date < day)).toBe(true);
    const now = daysFrom(new Date(), 0);
    expect(nextEvents().every((e) => e.date > now)).toBe(true);
  });
});
