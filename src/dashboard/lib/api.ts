import { $token } from '../../stores/auth';

export type ApiError = { statusCode: number; message: string };
export type ApiResult<T> = { ok: true; data: T; headers: Headers } | { ok: false; error: ApiError };

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && typeof (value as ApiError).statusCode === 'number';
}

/**
 * Like src/lib/api-client.ts but keeps the response headers (X-Total-Count for server paging).
 * JSON call with the bearer token; never throws: network/parse failures become statusCode 0. */
export async function api<T>(
  path: string,
  options: { method?: string; json?: unknown; token?: string | null; signal?: AbortSignal } = {},
): Promise<ApiResult<T>> {
  const token = options.token === undefined ? $token.get() : options.token;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: options.signal,
    });
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok || isApiError(body)) {
      const err = isApiError(body) ? body : { statusCode: res.status, message: `The server answered ${res.status}` };
      return { ok: false, error: { statusCode: err.statusCode || res.status, message: err.message || 'Something went wrong' } };
    }
    return { ok: true, data: body as T, headers: res.headers };
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') return { ok: false, error: { statusCode: 0, message: 'aborted' } };
    console.warn('dashboard api call failed', path, err);
    return { ok: false, error: { statusCode: 0, message: 'Could not reach the server. Check your connection and try again.' } };
  }
}
