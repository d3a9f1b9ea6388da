import { describe, expect, it } from 'vitest';
import { penceToPounds, poundsToPence } from './money';

describe('poundsToPence', () => {
  it('turns typed pounds into integer pence', () => {
    expect(poundsToPence('25')).toBe(2500);
    expect(poundsToPence('12.5')).toBe(1250);
    expect(poundsToPence('£1,234.56')).toBe(123456);
    expect(poundsToPence('0.1')).toBe(10);
    expect(poundsToPence('19.99')).toBe(1999);
  });

  it('rejects what is not a positive amount with at most two decimals', () => {
    for (const bad of ['', '0', '0.00', '-5', '1.234', 'abc', '1e3', '.5']) expect(poundsToPence(bad), bad).toBeNull();
  });

  it('penceToPounds is its inverse for display', () => {
    expect(penceToPounds(1999)).toBe('19.99');
    expect(penceToPounds(null)).toBe('');
  });
});
