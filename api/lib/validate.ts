import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest, describeZodError } from './errors';

/** Parse and validate a query that a route reads itself (modes its declared query cannot express); failures are 400s with a reason. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw badRequest(describeZodError(parsed.error));
  return parsed.data;
}
