import { describe, expect, it } from 'vitest';
import { formatPence, parsePounds, percentRaised } from './format';

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
});
