import { describe, expect, it } from 'vitest';
import { supportersCount, supportersPath } from './AppealSupporters';

describe('the supporters screen (decision 075)', () => {
  it('counts supporters in words', () => {
    expect(supportersCount(0)).toBe('0 supporters');
    expect(supportersCount(1)).toBe('1 supporter');
    expect(supportersCount(1200)).toBe('1,200 supporters');
  });

  it('links to an appeal’s supporters by its id', () => {
    expect(supportersPath('3f2a')).toBe('/dashboard/supporters/3f2a');
    expect(supportersPath('a/b')).toBe('/dashboard/supporters/a%2Fb');
  });
});
