import { describe, expect, it } from 'vitest';
import { nextCycleDate } from './demo-events';

describe("a demo monthly gift's next payment after a pause ends", () => {
  it('is the next monthly date on the gift’s own cycle after now', () => {
    const started = new Date('2026-11-25T10:00:00Z');
    expect(nextCycleDate(started, new Date('2026-11-25T12:00:00Z')).toISOString()).toBe('2026-12-25T10:00:00.000Z');
    expect(nextCycleDate(started, new Date('2027-01-30T00:00:00Z')).toISOString()).toBe('2027-02-25T10:00:00.000Z');
    // On the day itself, once the time has passed, the next one is a month on.
    expect(nextCycleDate(started, new Date('2027-02-25T10:00:00Z')).toISOString()).toBe('2027-03-25T10:00:00.000Z');
  });

  it('keeps a start on the 31st to the end of shorter months', () => {
    const started = new Date('2027-01-31T09:00:00Z');
    expect(nextCycleDate(started, new Date('2027-02-10T00:00:00Z')).toISOString()).toBe('2027-02-28T09:00:00.000Z');
    expect(nextCycleDate(started, new Date('2027-03-01T00:00:00Z')).toISOString()).toBe('2027-03-31T09:00:00.000Z');
  });
});
