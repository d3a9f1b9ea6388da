/**
 * The auth store's calls to the API (src/stores/auth.ts), in a chunk of their own. The header's
 * sign-in island runs on every public page and, with no stored session, calls nothing: the typed
 * API client then arrives only with a session, the sign-in dialog, or an island that needs it anyway
 * (the home page's JavaScript budget, docs/decisions/015). The store keeps what the answers mean.
 */
import { api, client } from '../lib/api';

/** The code a visitor typed, with their names when the address is new. */
export type CodeCheck = {
  email: string;
  code: string;
  first_name?: string;
  last_name?: string;
  turnstile_token?: string;
};

/** GET /api/auth: who the stored token belongs to. */
export const whoAmI = () => api((o) => client.api.auth.$get(undefined, o));

/** POST /api/auth/login with an address: emails a code (`turnstile_token` answers a 428's security check). */
export const askForCode = (email: string, turnstileToken?: string) =>
  api((o) =>
    client.api.auth.login.$post({ json: { email, ...(turnstileToken ? { turnstile_token: turnstileToken } : {}) } }, o),
  );

/** POST /api/auth/login with the code: a session, or a request for names. */
export const checkCode = (input: CodeCheck) =>
  api((o) => client.api.auth.login.$post({ json: input }, o), { token: null });

/** POST /api/auth/logout: revokes the session on the server. */
export const revokeSession = () => api((o) => client.api.auth.logout.$post(undefined, o));
