import { describe, expect, it } from 'vitest';
import { fromShortId, parseId, toShortId } from '../../domain/ids';

describe('short ids', () => {
  it('round-trips UUIDs through the 22-character form', () => {
    for (let i = 0; i < 200; i++) {
      const uuid = crypto.randomUUID();
      const short = toShortId(uuid);
      expect(short).toMatch(/^[0-9A-Za-z]{22}$/);
      expect(fromShortId(short)).toBe(uuid);
    }
    expect(toShortId('00000000-0000-0000-0000-000000000000')).toBe('0'.repeat(22));
    expect(fromShortId(toShortId('ffffffff-ffff-ffff-ffff-ffffffffffff'))).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
  });

  it('rejects what is neither form', () => {
    expect(parseId('hello')).toBeNull();
    expect(parseId('z'.repeat(22))).toBeNull(); // beyond 128 bits
    expect(parseId('../../etc/passwd')).toBeNull();
    expect(parseId('A1B2C3D4-0000-4000-8000-000000000000')).toBe('a1b2c3d4-0000-4000-8000-000000000000');
  });
});
