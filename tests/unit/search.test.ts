import { describe, expect, it } from 'vitest';
import { SEARCH_MAX_WORDS, searchMatch, searchResultsLine } from '../../domain/search';

describe('a visitor’s search as an FTS5 query (decision 072)', () => {
  it('makes each word a quoted prefix in the title or fundraiser, all of them required', () => {
    expect(searchMatch('  Clean  WATER ')).toBe('{title fundraiser} : "clean"* AND {title fundraiser} : "water"*');
  });

  it('keeps only letters and digits, so no FTS5 syntax gets through', () => {
    expect(searchMatch('"zephyr" OR title:NEAR(x*) ^y -z')).toBe(
      ['zephyr', 'or', 'title', 'near', 'x', 'y'].map((w) => `{title fundraiser} : "${w}"*`).join(' AND '),
    );
    expect(searchMatch("O'Neill Siobhán")).toBe(
      '{title fundraiser} : "o"* AND {title fundraiser} : "neill"* AND {title fundraiser} : "siobhán"*',
    );
  });

  it(`uses at most ${SEARCH_MAX_WORDS} words, and nothing to look for is null`, () => {
    expect(searchMatch('a b c d e f g h')?.split(' AND ')).toHaveLength(SEARCH_MAX_WORDS);
    expect(searchMatch('!!! “” 🙂')).toBeNull();
    expect(searchMatch('')).toBeNull();
  });

  it('says how many it found, or that there were more than it pages', () => {
    expect(searchResultsLine(1, '10k')).toBe('1 result for “10k”.');
    expect(searchResultsLine(6, '10k')).toBe('6 results for “10k”.');
    expect(searchResultsLine(36, '10k', true)).toBe('More than 36 results for “10k”: add a word to find fewer.');
  });
});
