import { describe, expect, it } from 'vitest';
import { formatPhone, phoneDigits } from './phone';

describe('formatPhone', () => {
  it('formats as the user types', () => {
    expect(formatPhone('')).toBe('');
    expect(formatPhone('0')).toBe('(0');
    expect(formatPhone('020')).toBe('(020');
    expect(formatPhone('0201')).toBe('(020) 1');
    expect(formatPhone('020123')).toBe('(020) 123');
    expect(formatPhone('0201234')).toBe('(020) 123-4');
    expect(formatPhone('0201234567')).toBe('(020) 123-4567');
  });

  it('keeps at most 10 digits and drops everything that is not a digit', () => {
    expect(formatPhone('0201234567899')).toBe('(020) 123-4567');
    expect(formatPhone('+44 (20) 7946-0000')).toBe('(442) 079-4600');
    expect(phoneDigits('(020) 123-4567 ext 9')).toBe('0201234567');
    expect(formatPhone(null)).toBe('');
  });

  it('is stable when applied to its own output', () => {
    const once = formatPhone('5551234567');
    expect(formatPhone(once)).toBe(once);
  });
});
