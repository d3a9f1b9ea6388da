import { type ClientRequestOptions, type ClientResponse, hc } from 'hono/client';
import type { AppType } from '../../api';
import { $token } from '../stores/token';
import { readableApiMessage } from './api-message';
import { UNREACHABLE_MESSAGE } from './unreachable';

/**
 * The one API client: Hono's `hc` typed by the app itself, so every island and the
 * dashboard get the request and response types of the route they call from its zod schemas
 * (api/schemas), with nothing copied by hand. `hc` is a small Proxy over fetch; the import of
 * AppType is type-only and adds nothing to the bundles. Every call goes through it: there is no
 * call by path, so a renamed route or a changed shape is a type error where it is used. Files
 * (CSV, ODS) are saved by `download()` from the route's `$path(...)` (not `$url`: it makes a
 * `new URL`, which needs an absolute base, and this client's base is '/').
 *
 * The server checks every answer against its schema in development and tests
 * (api/lib/openapi.ts checkResponse), so a response here is what its type says.
 */
export const client = hc<AppType>('/', {
  // Looked up per call, so tests that replace globalThis.fetch are honoured.
  fetch: ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)) as typeof fetch,
});

/** Every API failure, from the server's `{statusCode, message}` or made here for network errors. */
export type ApiError = { statusCode: number; message: string };

export type ApiResult<T> = { ok: true; data: T; status: number; headers: Headers } | { ok: false; error: ApiError };

type SuccessStatus = 200 | 201 | 202 | 204;
/** The body type of a call's 2xx answers. */
export type Success<R> =
  R extends ClientResponse<infer T, infer S, infer _F> ? (S extends SuccessStatus ? T : never) : never;

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).statusCode === 'number' &&
    'message' in value
  );
}

export type CallOptions = {
  /** Overrides the token from the store (null sends none). */
  token?: string | null;
  signal?: AbortSignal;
  /** Asks for the origin's answer, past the edge cache of public reads (a donor's fresh total). */
  fresh?: boolean;
};

/**
 * Runs one typed call with the bearer token; never throws. `send` receives the request options
 * to pass on: `api((o) => client.api.campaigns[':id'].$get({ param: { id } }, o))`.
 */
export async function api<R extends ClientResponse<unknown, number, string>>(
  send: (options: ClientRequestOptions) => Promise<R>,
  options: CallOptions = {},
): Promise<ApiResult<Success<R>>> {
  const token = options.token === undefined ? $token.get() : options.token;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.fresh) headers['cache-control'] = 'no-cache';
  let response: R;
  try {
    response = await send({
      headers,
      init: { signal: options.signal, ...(options.fresh ? { cache: 'no-store' as const } : {}) },
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') return { ok: false, error: { statusCode: 0, message: 'aborted' } };
    console.warn('[api] request failed:', err);
    return {
      ok: false,
      error: { statusCode: 0, message: UNREACHABLE_MESSAGE },
    };
  }
  const body: unknown = await (response as unknown as Response).json().catch(() => null);
  if (response.ok) return { ok: true, data: body as Success<R>, status: response.status, headers: response.headers };
  if (isApiError(body))
    return {
      ok: false,
      error: {
        statusCode: body.statusCode || response.status,
        message: body.message ? readableApiMessage(String(body.message)) : 'Something went wrong',
      },
    };
  return {
    ok: false,
    error: { statusCode: response.status, message: `The server answered ${response.status}. Please try again.` },
  };
}

/**
 * Saves a file the API makes (a CSV or ODS export) under the name its Content-Disposition gives
 * (else `fallbackName`). The token travels in a header, never in a link someone could share.
 * Never throws: the saved name, or the server's `{statusCode, message}`.
 */
export async function download(
  path: string,
  fallbackName: string,
  options: CallOptions = {},
): Promise<ApiResult<{ name: string }>> {
  const token = options.token === undefined ? $token.get() : options.token;
  let response: Response;
  try {
    response = await fetch(path, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: options.signal,
    });
  } catch {
    return {
      ok: false,
      error: { statusCode: 0, message: UNREACHABLE_MESSAGE },
    };
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    return {
      ok: false,
      error: isApiError(body)
        ? { statusCode: body.statusCode, message: readableApiMessage(String(body.message)) }
        : { statusCode: response.status, message: `The export failed (${response.status}).` },
    };
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { ok: true, data: { name }, status: response.status, headers: response.headers };
}

/**
 * The response body type of a client call, e.g. `Data<typeof client.api.stripe.subscriptions.$get>`.
 * A segment that is not an identifier needs a name first (`typeof` takes no `['gift-aid']`):
 * `const giftAid = client.api['gift-aid']`, then `Data<typeof giftAid.me.$get>`.
 */
export type Data<F extends (...args: never[]) => Promise<ClientResponse<unknown, number, string>>> = Success<
  Awaited<ReturnType<F>>
>;

/** The API's shapes, from the one contract (type-only: nothing of api/ reaches the browser). */
export type { Campaign, Donation, Donor, Organization, TopDonor, User } from '../../api/schemas';
export type { OfficeMonthlyGift } from '../../api/schemas/monthly-gifts';

/** For callers that prefer "the value or the error": the value on success, else `{statusCode, message}`. */
export const valueOrError = <T>(result: ApiResult<T>): T | ApiError => (result.ok ? result.data : result.error);
