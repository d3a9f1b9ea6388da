import { describe, expect, it } from 'vitest';
import { noEmailAddress, shownEmail } from '../../domain/email';

describe('a donor entered from paper with no email', () => {
  it('is stored under an address that never delivers, and staff read "no email" for it', () => {
    const stored = noEmailAddress('e88eabc0-92b9-4aa6-80f5-dd5fb4520699');
    expect(stored).toBe('offline-e88eabc0-92b9-4aa6-80f5-dd5fb4520699@donors.invalid');
    expect(shownEmail(stored)).toBe('no email');
  });

  it('leaves a real address as it is', () => {
    expect(shownEmail('ada@example.org')).toBe('ada@example.org');
    expect(shownEmail(null)).toBe('no email');
  });
});
