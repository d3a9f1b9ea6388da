import { z } from '@hono/zod-openapi';

/** The error contract of every route (DESIGN.md): `{statusCode, message}` with the HTTP status. */
export const ErrorSchema = z
  .object({
    statusCode: z.number().int().openapi({ example: 400 }),
    message: z.string().openapi({ example: 'email: Enter a valid email address' }),
  })
  .openapi('Error');

const errorResponse = (description: string) => ({
  content: { 'application/json': { schema: ErrorSchema } },
  description,
});

/** Spread into every createRoute's responses: the statuses any route may answer. */
export const errorResponses = {
  400: errorResponse('Bad input: the message names the field to fix'),
  401: errorResponse('Sign in to continue'),
  403: errorResponse('Signed in, but not allowed'),
  404: errorResponse('No such item, or not visible to this caller'),
  413: errorResponse('Request body too large'),
  429: errorResponse('Too many requests; see Retry-After'),
  500: errorResponse('Something went wrong on our side (with a request id)'),
  503: errorResponse('A dependency (database, payments, sign-in) is unavailable'),
} as const;

/** A JSON response entry for createRoute. */
export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

/** `Authorization: Bearer <token>` (README: The API). */
export const bearerAuth = [{ bearerAuth: [] as string[] }];
