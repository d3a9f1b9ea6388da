/**
 * What a visitor types into the lists' search box, as an FTS5 query (docs/decisions/072). Only
 * letters and digits count: each word becomes a quoted prefix ("clea"* finds "Clean"), all of them
 * must match, and nothing the visitor types can be read as FTS5 syntax (quotes, NEAR, OR, columns).
 * Browser-safe, no dependencies.
 */

/** The longest search the API and the pages take. */
export const SEARCH_MAX_CHARS = 100;
/** Words past this many are ignored: a name and a word or two of a title find an appeal. */
export const SEARCH_MAX_WORDS = 6;

/**
 * The FTS5 MATCH expression for `input` over the title and fundraiser columns: every word, each as a
 * prefix, in either column. Null when it has no letter or digit to look for.
 */
export function searchMatch(input: string): string | null {
  const words =
    input
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words
    .slice(0, SEARCH_MAX_WORDS)
    .map((word) => `{title fundraiser} : "${word}"*`)
    .join(' AND ');
}

/**
 * "6 results for “10k”." for the list pages and the office's lists alike; with `more`, the search
 * found past the `count` it pages (the count's cap) and asks for another word.
 */
export function searchResultsLine(count: number, search: string, more = false): string {
  if (more) return `More than ${count} results for “${search}”: add a word to find fewer.`;
  return `${count} ${count === 1 ? 'result' : 'results'} for “${search}”.`;
}
