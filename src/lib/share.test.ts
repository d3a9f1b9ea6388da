import { describe, expect, it } from 'vitest';
import { shareText } from './share';

describe('the line a share sheet sends with the link', () => {
  it('names the goal in pounds', () => {
    expect(shareText({ title: 'Clean water for Kibera', goal: 500_000 })).toBe(
      'Help Clean water for Kibera reach £5,000',
    );
    expect(shareText({ title: 'Books', goal: 12_345 })).toBe('Help Books reach £123.45');
  });
  it('is the title alone when no goal is set', () => {
    expect(shareText({ title: 'Books', goal: 0 })).toBe('Books');
    expect(shareText({ title: 'Books', goal: null })).toBe('Books');
  });
});
