import { describe, expect, it } from 'vitest';
import { discoverTitle } from './discover';

describe('discoverTitle', () => {
  it('is the list’s own title on its first page', () => {
    expect(discoverTitle('Discover Appeals', { page: 1 })).toBe('Discover Appeals');
  });

  it('says what was searched for, and which page', () => {
    expect(discoverTitle('Discover Appeals', { page: 1, search: '10k' })).toBe('Results for “10k”: Discover Appeals');
    expect(discoverTitle('Discover Campaigns', { page: 3 })).toBe('Discover Campaigns, page 3');
    expect(discoverTitle('Appeals for Clean Water', { page: 2, search: 'niamh' })).toBe(
      'Results for “niamh”: Appeals for Clean Water, page 2',
    );
  });
});
