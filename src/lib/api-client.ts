import { $token } from '../stores/auth';

/** Every API failure, from the server's `{statusCode, message}` or made here for network errors. */
export type ApiError = { statusCode: number; message: string };

export type ApiRequest = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialised as the JSON body. */
  json?: unknown;
  /** Overrides the token from the store (null sends none). */
  token?: string | null;
  signal?: AbortSignal;
};

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && typeof (value as ApiError).statusCode === 'number' && 'message' in value;
}

/**
 * Calls the JSON API with the bearer token from the store. Resolves to the parsed body on 2xx,
 * else to `{statusCode, message}`; it never throws.
 */
export async function api<T>(path: string, request: ApiRequest = {}): Promise<T | ApiError> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = request.token === undefined ? $token.get() : request.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: request.method ?? (request.json === undefined ? 'GET' : 'POST'),
      headers,
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      signal: request.signal,
    });
  } catch (err) {
    console.error(`[api] ${path} failed:`, err);
    return { statusCode: 0, message: 'Could not reach the server. Check your connection and try again.' };
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.ok) return body as T;
  if (isApiError(body)) return body;
  return { statusCode: response.status, message: `The server answered ${response.status}. Please try again.` };
}
