/**
 * The auth store's calls to the API (src/stores/auth.ts), in a chunk of their own. The header's
 * sign-in island runs on every public page and, with no stored session, calls nothing: the typed
 * API client then arrives only with a session, the sign-in dialog, or an island that needs it anyway
 * (the home page's JavaScript budget, docs/decisions/015).
 */
import { type ApiError, api, client, valueOrError } from '../lib/api';
import { $user, type CodeCheck, type CodeRequest, type LoginAnswer, type LoginResult } from './auth';
import { saveToken } from './token';

/** GET /api/auth: who the stored token belongs to. */
export const whoAmI = () => api((o) => client.api.auth.$get(undefined, o));

/** `turnstile_token` answers a 428 that asked for the security check. */
export async function requestCode(email: string, turnstileToken?: string): Promise<CodeRequest | ApiError> {
  const result = await api((o) =>
    client.api.auth.login.$post({ json: { email, ...(turnstileToken ? { turnstile_token: turnstileToken } : {}) } }, o),
  );
  return valueOrError(result) as CodeRequest | ApiError;
}

export async function verifyCode(input: CodeCheck): Promise<LoginResult | ApiError> {
  const result = await api((o) => client.api.auth.login.$post({ json: input }, o), { token: null });
  if (!result.ok) return result.error;
  const data: LoginAnswer = result.data;
  if ('names_required' in data) return data;
  if (!('token' in data)) return { statusCode: 500, message: 'The server did not start a session; please try again.' };
  saveToken(data.token);
  $user.set(data.user);
  return data;
}

/** POST /api/auth/logout: revokes the session on the server. */
export const revokeSession = () => api((o) => client.api.auth.logout.$post(undefined, o));
