import { describe, expect, it } from 'vitest';
import { isoOrNull } from '../../domain/dates';
import { formatPence, parsePounds, penceToPoundsField, percentRaised } from './format';

describe('money formatting', () => {
  it('parses typed pounds into integer pence without floating point', () => {
    expect(parsePounds('25')).toBe(2500);
    expect(parsePounds('£1,234.56')).toBe(123456);
    expect(parsePounds(' 0.1 ')).toBe(10);
    expect(parsePounds('19.99')).toBe(1999);
    expect(parsePounds('1.005')).toBeNull();
    expect(parsePounds('0.29')).toBe(29); // 0.29 * 100 is 28.999… in floating point
    for (const bad of ['', 'abc', '-5', '1e3', '.5', '1.']) expect(parsePounds(bad), bad).toBeNull();
    expect(parsePounds('9'.repeat(20))).toBeNull();
  });

  it('formats pence as GBP and percent raised with two decimals', () => {
    expect(formatPence(123456)).toBe('£1,234.56');
    expect(percentRaised(3_500, 200_000)).toBe('1.75');
    expect(percentRaised(100, 0)).toBe('0.00');
  });

  it('shows pence in a pounds field without .00 on whole pounds, and parsePounds reads it back', () => {
    for (const [pence, text] of [
      [500_000, '5000'],
      [1_250, '12.50'],
      [1_205, '12.05'],
      [7, '0.07'],
      [0, '0'],
    ] as const) {
      expect(penceToPoundsField(pence)).toBe(text);
      expect(parsePounds(text)).toBe(pence);
    }
  });
});

describe('isoOrNull', () => {
  it('writes an instant (a Date or epoch milliseconds) as ISO 8601 in UTC, and nothing as null', () => {
    expect(isoOrNull(new Date(Date.UTC(2026, 10, 25, 9, 30)))).toBe('2026-11-25T09:30:00.000Z');
    expect(isoOrNull(Date.UTC(2026, 2, 29, 1))).toBe('2026-03-29T01:00:00.000Z');
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull(undefined)).toBeNull();
  });
});
