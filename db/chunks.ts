/**
 * D1 refuses a statement with more than 100 bound parameters. Long IN lists and multi-row inserts
 * are split into pieces of at most this many parameters (room left for the query's other values).
 */
export const MAX_BOUND_PARAMS = 90;

/** `items` in consecutive pieces of at most `size`. */
export function chunks<T>(items: readonly T[], size = MAX_BOUND_PARAMS): T[][] {
  if (size < 1) throw new RangeError('chunk size must be at least 1');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** How many rows of `paramsPerRow` values fit in one statement. */
export const rowsPerStatement = (paramsPerRow: number) => Math.max(1, Math.floor(MAX_BOUND_PARAMS / paramsPerRow));
