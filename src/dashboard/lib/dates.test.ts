import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, toDateInput } from './dates';

describe('dashboard dates are London days', () => {
  it('puts a gift made at 00:30 on a summer night in its own day, not the UTC day before', () => {
    // 23:30 UTC on 4 June is 00:30 BST on 5 June.
    expect(toDateInput('2026-06-04T23:30:00Z')).toBe('2026-06-05');
    expect(formatDate('2026-06-04T23:30:00Z')).toBe('5\u00a0Jun\u00a02026');
  });

  it('is the same day as UTC in winter, and blank for nothing or nonsense', () => {
    expect(toDateInput(new Date('2026-11-24T23:30:00Z'))).toBe('2026-11-24');
    expect(toDateInput(null)).toBe('');
    expect(toDateInput('not a date')).toBe('');
    expect(formatDate(undefined)).toBe('-');
  });

  it('keeps a date on one line (no-break spaces), letting a time go to the next', () => {
    expect(formatDate('2026-11-24T12:00:00Z')).toBe('24\u00a0Nov\u00a02026');
    expect(formatDateTime('2026-11-24T14:05:00Z')).toBe('24\u00a0Nov\u00a02026, 14:05');
    expect(formatDateTime('nonsense')).toBe('-');
  });
});
