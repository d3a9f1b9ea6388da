import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { ZodError } from 'zod';
import { authMiddleware } from '../middlewares/auth';
import { RateLimitError } from '../services/abuse/rate-limit';
import { dbMiddleware } from '../middlewares/db';
import { errorSummary, logLine, requestLogger, safeStack } from '../middlewares/logger';
import { ConfigError } from './config';
import { HttpError, describeZodError } from './errors';
import type { AppDeps, AppEnv } from './types';
import { isTemporarilyUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from './unavailable';

/** Largest JSON body accepted by default; image uploads raise it per route. */
export const DEFAULT_BODY_LIMIT = 100 * 1024;

/** Routes that apply their own, larger bodyLimit (campaign images arrive as base64 JSON). */
const OWN_BODY_LIMIT_ROUTES: [string, RegExp][] = [
  ['POST', /^\/api\/campaigns\/?$/],
  ['PUT', /^\/api\/campaigns\/[^/]+\/?$/],
  // Organization logo / donor photo as a data URL (api/lib/image-upload.ts).
  ['POST', /^\/api\/(organizations|users)\/?$/],
  ['PUT', /^\/api\/(organizations|users)\/[^/]+\/?$/],
  ['POST', /^\/api\/stripe\/webhook\/?$/],
];

export type { AppDeps } from './types';

/**
 * Every router is an OpenAPIHono: routes declared with defineRoute (api/lib/openapi.ts) land in /api/openapi.json, and
 * a request that fails its zod schema answers our error contract instead of zod's own shape.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    strict: false,
    defaultHook: (result, c) => {
      if (!result.success) return c.json(errorBody(400, describeZodError(result.error)), 400);
    },
  });
}

export function errorBody(status: number, message: string) {
  return { statusCode: status, message };
}

/** The API app at its /api base path, with middleware and the error contract (OpenAPIHono's basePath drops notFound, so the base comes first). */
export function createBaseApp(deps: AppDeps = {}) {
  const app = createRouter().basePath('/api');

  app.use(requestLogger());
  const defaultBodyLimit = bodyLimit({
    maxSize: DEFAULT_BODY_LIMIT,
    onError: (c) => c.json(errorBody(413, `Request body is too large (limit ${DEFAULT_BODY_LIMIT / 1024} KB)`), 413),
  });
  app.use((c, next) =>
    OWN_BODY_LIMIT_ROUTES.some(([method, path]) => c.req.method === method && path.test(c.req.path))
      ? next()
      : defaultBodyLimit(c, next),
  );
  app.use(dbMiddleware(deps));
  app.use(authMiddleware());

  app.notFound((c) => c.json(errorBody(404, `No route for ${c.req.method} ${new URL(c.req.url).pathname}`), 404));

  app.onError((err, c) => {
    if (err instanceof RateLimitError) c.header('Retry-After', String(err.retryAfterSeconds));
    if (err instanceof HttpError) return c.json(errorBody(err.status, err.message), err.status);
    // Logged once with every problem when first found (api/lib/config.ts).
    if (err instanceof ConfigError)
      return c.json(errorBody(503, 'This service is not configured correctly yet. Please try again later.'), 503);
    if (err instanceof ZodError) return c.json(errorBody(400, describeZodError(err)), 400);
    // Hono's JSON validator and the media-type gate of createRoute bodies, in our words.
    if (err instanceof HTTPException && err.status === 400 && /malformed json/i.test(err.message)) {
      return c.json(errorBody(400, 'Request body must be valid JSON'), 400);
    }
    if (err instanceof HTTPException && err.status === 415) {
      return c.json(errorBody(415, 'Send the body as JSON with Content-Type: application/json'), 415);
    }
    if (err instanceof HTTPException && err.status < 500) {
      return c.json(errorBody(err.status, err.message || 'Bad request'), err.status);
    }
    const requestId = c.get('requestId') ?? 'unknown';
    const error = errorSummary(err);
    if (isTemporarilyUnavailable(err)) {
      // The database did not answer (or production lacks a setting): nothing was written; retry later.
      logLine('error', 'service unavailable', { request_id: requestId, method: c.req.method, error });
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json(errorBody(503, `${UNAVAILABLE_MESSAGE} Reference: ${requestId}`), 503);
    }
    logLine('error', 'unhandled error', { request_id: requestId, method: c.req.method, error, stack: safeStack(err) });
    return c.json(errorBody(500, `Something went wrong on our side. Reference: ${requestId}`), 500);
  });

  return app;
}
