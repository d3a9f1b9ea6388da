import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest, describeZodError } from './errors';

/** Parse and validate a JSON body; malformed JSON and schema failures are 400s with a reason. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badRequest('Request body must be valid JSON');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw badRequest(describeZodError(parsed.error));
  return parsed.data;
}

export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw badRequest(describeZodError(parsed.error));
  return parsed.data;
}
