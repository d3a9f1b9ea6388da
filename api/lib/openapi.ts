import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './types';

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
  409: errorResponse('Conflicts with stored data (e.g. an email already in use)'),
  413: errorResponse('Request body too large'),
  415: errorResponse('The body is not of a type this route accepts (send JSON; images must be PNG or JPEG)'),
  422: errorResponse('Well-formed, but not allowed in this state'),
  428: errorResponse('Complete the security check (Turnstile) and send its token again'),
  429: errorResponse('Too many requests; see Retry-After'),
  500: errorResponse('Something went wrong on our side (with a request id)'),
  502: errorResponse('A provider (payments, email) failed; nothing was charged or sent'),
  503: errorResponse('A dependency (database, payments, sign-in) is unavailable'),
  504: errorResponse(
    'A provider did not answer, so it may have acted: send the same request again (same Idempotency-Key)',
  ),
} as const;

/** The demo card's decline. */
export const paymentErrorResponses = {
  402: errorResponse('The card was declined'),
} as const;

/** A JSON response entry for createRoute. */
export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

/** A route's one JSON answer (200) with the statuses any route may answer. */
export function okResponses<T extends z.ZodType>(schema: T, description: string) {
  return { 200: jsonContent(schema, description), ...errorResponses };
}

/** A creating route's one JSON answer (201) with the statuses any route may answer. */
export function createdResponses<T extends z.ZodType>(schema: T, description: string) {
  return { 201: jsonContent(schema, description), ...errorResponses };
}

/** A CSV download's response entry (api/lib/csv-file.ts writes the body). */
export function csvContent(description: string) {
  return { content: { 'text/csv': { schema: z.string() } }, description };
}

/** A required JSON request body for createRoute. */
export function jsonBody<T extends z.ZodType>(schema: T, description = 'JSON body') {
  return { content: { 'application/json': { schema } }, description, required: true };
}

/** `Authorization: Bearer <token>` (README: The API). */
export const bearerAuth = [{ bearerAuth: [] as string[] }];

/** A route path parameter: the UUID or short id of an item. */
export const IdParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'b7f3c1e2-…' }),
});

/** `X-Total-Count` on paged lists. */
export const totalCountHeader = {
  'X-Total-Count': { schema: { type: 'integer' as const }, description: 'Items in the whole list, across pages' },
};

/** The staff donations list's sums over every page of the filtered list; paid gifts only (succeeded or refunded). */
export const donationSumsHeaders = {
  'X-Paid-Count': { schema: { type: 'integer' as const }, description: 'Paid gifts in the whole filtered list' },
  'X-Received-Pence': {
    schema: { type: 'integer' as const },
    description: 'What those gifts brought in, before refunds',
  },
  'X-Refunded-Pence': { schema: { type: 'integer' as const }, description: 'What was refunded of them' },
};

/** Thrown when a handler answers something its route does not declare: a contract bug, never bad input. */
export class ResponseContractError extends Error {}

type Responses = RouteConfig['responses'];

/**
 * Checks, outside production, that what the handler answered matches the schema declared for
 * that status. A mismatch is a bug on our side: it throws (a 500 with the reason logged) so it
 * fails loudly in development and in tests instead of a screen quietly losing a field.
 */
export function checkResponse(responses: Responses): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.var.config?.production !== false) return;
    const res = c.res;
    const declared = responses[String(res.status)] ?? responses[res.status as unknown as keyof Responses];
    const where = `${c.req.method} ${c.req.routePath || c.req.path} answered ${res.status}`;
    if (!declared) throw new ResponseContractError(`${where}, a status its route does not declare`);
    const content = (declared as { content?: Record<string, { schema?: unknown }> }).content;
    const schema = content?.['application/json']?.schema;
    if (!schema || !(res.headers.get('content-type') ?? '').includes('application/json')) return;
    const body = await res.clone().json();
    const parsed = (schema as z.ZodType).safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      throw new ResponseContractError(`${where} with a body that does not match its schema: ${issues}`);
    }
  };
}

/**
 * createRoute plus the response check above as the route's first middleware (before its own
 * middleware and the request validators), so every declared route is held to its declared answers.
 */
export function defineRoute<P extends string, R extends Omit<RouteConfig, 'path'> & { path: P }>(config: R) {
  const own = config.middleware ? (Array.isArray(config.middleware) ? config.middleware : [config.middleware]) : [];
  return createRoute({ ...config, middleware: [checkResponse(config.responses), ...own] as R['middleware'] } as R);
}

/** What a resource's routes share: the document's tag, the security scheme, and access middleware. */
type SharedRouteConfig = {
  tags: string[];
  security?: RouteConfig['security'];
  middleware?: MiddlewareHandler<AppEnv>[];
};

/** What each route of a resource still says for itself. */
type OwnRouteConfig = Omit<RouteConfig, 'method' | 'path' | 'tags' | 'security'>;

const asList = (middleware: RouteConfig['middleware']) =>
  middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];

/**
 * defineRoute for the routes of one resource: what they share is written once, so each declaration
 * says only its path, summary, request and answers. Shared middleware runs before a route's own.
 */
export function routesOf(shared: SharedRouteConfig) {
  const declare =
    <M extends RouteConfig['method']>(method: M) =>
    <P extends string, C extends OwnRouteConfig>(path: P, own: C) => {
      const { summary, description, middleware, request, responses, ...rest } = own;
      // Keys in the order the OpenAPI document has always listed them.
      const config = {
        method,
        path,
        tags: shared.tags,
        summary,
        description,
        ...rest,
        security: shared.security,
        middleware: [...asList(shared.middleware), ...asList(middleware)],
        ...(request ? { request } : {}),
        responses,
      };
      return defineRoute(config as unknown as C & { method: M; path: P; tags: string[] });
    };
  return {
    get: declare('get'),
    post: declare('post'),
    put: declare('put'),
    patch: declare('patch'),
    delete: declare('delete'),
  };
}
