import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import { newRequestContext, type RequestContext, requestContext } from '../../db/usage';
import type { AppEnv } from '../lib/types';

/**
 * Structured logs: one JSON object per line, so `wrangler tail --format json` and Workers Logs can
 * filter on fields. Only what is named here is written: never bodies, query strings or headers
 * (they carry sign-in codes, bearer tokens and Stripe client secrets).
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export function logLine(level: 'info' | 'warn' | 'error', msg: string, fields: LogFields = {}): void {
  const line = JSON.stringify({ level, msg, ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

/**
 * The per-request line: 4xx answers are the caller's business, not an operator's, so only 5xx go to
 * the error stream; the `level` field still says warn for 4xx. It carries the rows the request
 * read and wrote (the request context's, unless given): what Turso and D1 bill by.
 */
export function requestLine(
  fields: LogFields & { status: number },
  context: RequestContext | undefined = requestContext.getStore(),
): void {
  const rows = context ? { rows_read: context.rowsRead, rows_written: context.rowsWritten } : {};
  const line = JSON.stringify({ level: levelForStatus(fields.status), msg: 'request', ...rows, ...fields });
  if (fields.status >= 500) console.error(line);
  else console.log(line);
}

/**
 * An error for the log without the values it may carry: the innermost cause's name and message,
 * with a failed query's bound parameters (emails, hashes) cut off.
 */
export function errorSummary(error: unknown): string {
  let inner: unknown = error;
  for (let depth = 0; depth < 6 && (inner as { cause?: unknown })?.cause; depth++)
    inner = (inner as { cause: unknown }).cause;
  const name = inner instanceof Error ? inner.name : 'Error';
  const message = inner instanceof Error ? inner.message : String(inner);
  return `${name}: ${message.replace(/\bparams:[\s\S]*$/, 'params: [redacted]')}`.slice(0, 500);
}

/** The stack of an error for the log, its first line (the message) replaced by errorSummary. */
export function safeStack(error: unknown): string | undefined {
  if (!(error instanceof Error) || !error.stack) return undefined;
  const frames = error.stack.split('\n').filter((line) => /^\s+at /.test(line));
  return [errorSummary(error), ...frames.slice(0, 15)].join('\n');
}

/** A request id we may echo: Cloudflare's ray id or our own UUID, never arbitrary caller text. */
const SAFE_ID = /^[A-Za-z0-9-]{8,64}$/;

/**
 * The id src/worker.ts gave the request being handled, carried in async context (db/usage.ts, with
 * the rows the request reads and writes): no copy of every request (headers and all) just to carry
 * an id, and nothing a caller could set.
 */
export const withRequestId = <T>(requestId: string, handle: () => T, context = newRequestContext(requestId)): T =>
  requestContext.run(context, handle);

/**
 * The id the worker entry assigned, else (the API or pages run without it: tests, `astro dev`)
 * a safe x-request-id or Cloudflare's ray id, else a new UUID.
 */
export function requestIdFrom(headers: { get(name: string): string | null | undefined }): string {
  const assigned = requestContext.getStore()?.id;
  if (assigned) return assigned;
  for (const name of ['x-request-id', 'cf-ray']) {
    const value = headers.get(name)?.trim();
    if (value && SAFE_ID.test(value)) return value;
  }
  return crypto.randomUUID();
}

export const levelForStatus = (status: number) => (status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info');

/** The route pattern that answered (`/api/users/:id`), so ids and query strings stay out of logs. */
function matchedRoute(c: Context<AppEnv>): string {
  let path = '';
  try {
    path = routePath(c, -1);
  } catch {
    path = '';
  }
  // Only the catch-all middleware matched: no route answered this path.
  return !path || path.endsWith('*') ? 'unmatched' : path;
}

/**
 * Sets c.var.requestId (echoed as X-Request-Id and in every 5xx message) and writes one line per
 * request: request id, method, route, status, ms, and the user id when signed in.
 */
export function requestLogger() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = Date.now();
    c.set('requestId', requestIdFrom({ get: (name) => c.req.header(name) }));
    // Without the worker entry (tests, the API alone) the request gets its context here.
    const context = requestContext.getStore() ?? newRequestContext(c.var.requestId);
    if (requestContext.getStore()) await next();
    else await requestContext.run(context, () => next());
    c.header('X-Request-Id', c.var.requestId);
    requestLine(
      {
        request_id: c.var.requestId,
        method: c.req.method,
        route: matchedRoute(c),
        status: c.res.status,
        ms: Date.now() - started,
        user_id: c.var.user?.id ?? null,
      },
      context,
    );
  });
}
