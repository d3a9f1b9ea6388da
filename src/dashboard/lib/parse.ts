import type { z } from 'zod';

/** Parses list rows at the boundary; malformed rows are dropped (logged) rather than breaking the screen. */
export function parseRows<T>(schema: z.ZodType<T>, body: unknown): T[] {
  const list = Array.isArray(body) ? body : Array.isArray((body as { data?: unknown })?.data) ? (body as { data: unknown[] }).data : [];
  const rows: T[] = [];
  for (const item of list) {
    const parsed = schema.safeParse(item);
    if (parsed.success) rows.push(parsed.data);
    else console.warn('dashboard: skipped a malformed row', parsed.error.issues[0]?.message);
  }
  return rows;
}
