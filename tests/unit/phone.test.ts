import { describe, expect, it } from 'vitest';
import { formatPhone, formatPhoneAsTyped, normalizePhone, phoneAfterInput, phoneKeystrokes } from '../../domain/phone';

describe('the phone rule (domain/phone.ts)', () => {
  it('accepts UK numbers in every way people write them and stores E.164', () => {
    for (const written of [
      '07911 123456',
      '07911123456',
      '+44 7911 123456',
      '+447911123456',
      '0044 7911 123456',
      '(07911) 123-456',
    ]) {
      expect(normalizePhone(written), written).toBe('+447911123456');
    }
    expect(normalizePhone('020 7946 0958')).toBe('+442079460958');
    expect(normalizePhone('0113 496 0123')).toBe('+441134960123');
    // Jersey, Guernsey and the Isle of Man share +44.
    expect(normalizePhone('01534 123456')).toBe('+441534123456');
  });

  it('accepts a number abroad written with its country code', () => {
    expect(normalizePhone('+33 6 12 34 56 78')).toBe('+33612345678');
    expect(normalizePhone('+1 415 555 2671')).toBe('+14155552671');
  });

  it("refuses a digit too many or too few, and the seed's old ten-digit form", () => {
    for (const bad of ['0791112345', '079111234567', '0770090100', '12345', '', '+', '+44', 'abc']) {
      expect(normalizePhone(bad), bad).toBeNull();
    }
  });

  it('shows UK numbers nationally, others internationally, and old rows as stored', () => {
    expect(formatPhone('+447911123456')).toBe('07911 123456');
    expect(formatPhone('+442079460958')).toBe('020 7946 0958');
    expect(formatPhone('+33612345678')).toBe('+33 6 12 34 56 78');
    expect(formatPhone('0770090100')).toBe('0770090100');
    expect(formatPhone(null)).toBe('');
  });

  it('groups digits as they are typed and is stable on its own output', () => {
    expect(formatPhoneAsTyped('0')).toBe('0');
    expect(formatPhoneAsTyped('07911123456')).toBe('07911 123456');
    expect(formatPhoneAsTyped('02079460958')).toBe('020 7946 0958');
    expect(formatPhoneAsTyped('+447911123456')).toBe('+44 7911 123456');
    expect(formatPhoneAsTyped('+')).toBe('+');
    expect(formatPhoneAsTyped('')).toBe('');
    const once = formatPhoneAsTyped('07911123456');
    expect(formatPhoneAsTyped(once)).toBe(once);
    // Letters and punctuation are dropped; at most 15 digits are kept (E.164).
    expect(phoneKeystrokes(formatPhoneAsTyped('0791a1-12.3456 ext'))).toBe('07911123456');
    expect(phoneKeystrokes(formatPhoneAsTyped('1'.repeat(20)))).toBe('1'.repeat(15));
  });

  it('drops a digit for a backspace over a space, but keeps every digit pasted over the number', () => {
    // Backspace just after the space: the digit before it goes.
    expect(phoneAfterInput('07911 123456', '07911123456', true)).toBe('07911 12345');
    // The same number pasted without its spaces over the whole field stays whole.
    expect(phoneAfterInput('07911 123456', '07911123456', false)).toBe('07911 123456');
    expect(phoneAfterInput('', '07911123456', false)).toBe('07911 123456');
    // Deleting a digit removes that digit.
    expect(phoneAfterInput('07911 123456', '07911 12345', true)).toBe('07911 12345');
  });
});
