import type { Context } from 'hono';
import { londonIsoDate } from '../../domain/dates';
import type { AppEnv } from './types';

/** A CSV download named after the list and today's London date; never cached (it holds personal data). */
export function csvFile(c: Context<AppEnv>, name: string, body: string | ReadableStream<Uint8Array>) {
  return c.body(body, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${name}-${londonIsoDate(new Date())}.csv"`,
    'cache-control': 'no-store',
  });
}
