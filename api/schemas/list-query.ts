import { z } from '@hono/zod-openapi';
import { isIsoDay } from '../../domain/dates';

/**
 * Query fields the staff lists share: `limit`/`offset` paging and London day filters. One copy, so
 * every list answers a bad value with the same message.
 */

/** `limit` (1 to `max`, `fallback` when absent) and `offset` (0 to a million) as whole numbers. */
export function pageQueryShape({ max = 200, fallback = 50 }: { max?: number; fallback?: number } = {}) {
  return {
    limit: z.coerce
      .number({ error: 'limit: a whole number' })
      .int('limit: a whole number')
      .min(1, 'limit: at least 1')
      .max(max, `limit: at most ${max}`)
      .default(fallback),
    offset: z.coerce
      .number({ error: 'offset: a whole number' })
      .int('offset: a whole number')
      .min(0, 'offset: 0 or more')
      .max(1_000_000, 'offset: at most 1000000')
      .default(0),
  };
}

/** An optional London day, YYYY-MM-DD, inclusive; an empty value means no filter. */
export const dayFilter = (what: 'from' | 'to', subject = '') =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || isIsoDay(v), `${what}: enter a date like 2026-03-31`)
    .transform((v) => (v ? v : undefined))
    .openapi({
      description: `${what === 'from' ? 'First' : 'Last'} London day${subject}, YYYY-MM-DD (inclusive)`,
    });

/** For `.refine(...fromNotAfterTo)`: a range whose end comes before its start is refused on `to`. */
export const fromNotAfterTo: [(v: { from?: string; to?: string }) => boolean, { path: string[]; message: string }] = [
  (v) => !v.from || !v.to || v.from <= v.to,
  { path: ['to'], message: 'to: must be on or after from' },
];
