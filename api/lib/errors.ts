import type { z } from 'zod';

/** Thrown anywhere in request code; app.onError turns it into `{statusCode, message}`. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 428 | 429 | 500 | 502 | 503 | 504,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Sign in to continue') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do that') => new HttpError(403, message);
export const notFound = (message = 'Not Found') => new HttpError(404, message);

/**
 * One readable sentence from a zod error: "email: Enter a valid email address; amount: …". A
 * message that already names its field ("amount: the minimum…", "code must be…") is kept as it is.
 */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const field = issue.path.join('.');
      if (!field || issue.message.startsWith(`${field}:`) || issue.message.startsWith(`${field} `))
        return issue.message;
      // A nested field's message names only its own key ("amount: too large" at gifts.0.amount): say it once.
      const key = String(issue.path.at(-1));
      if (issue.path.length > 1 && issue.message.startsWith(`${key}:`))
        return `${field}:${issue.message.slice(key.length + 1)}`;
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}
