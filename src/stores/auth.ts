import { atom } from 'nanostores';
import { api, isApiError, type ApiError } from '../lib/api-client';

/** The signed-in user as GET /api/auth and the login call answer it. */
export type User = {
  _id: string;
  email: string;
  name: { first_name: string; last_name: string };
  type: 'donor' | 'org_admin' | 'admin' | string;
  avatar: string | null;
  org_ids: string[];
};

export const TOKEN_KEY = 'uk_nfp_token';

export const $token = atom<string | null>(null);
export const $user = atom<User | null>(null);
/** True while the stored token is being checked on load. */
export const $authRestoring = atom(false);
/** Opens the login dialog from any island (e.g. 'Login & Continue'). */
export const $loginOpen = atom(false);

const storage = () => (typeof localStorage === 'undefined' ? null : localStorage);

function saveToken(token: string | null) {
  $token.set(token);
  try {
    if (token) storage()?.setItem(TOKEN_KEY, token);
    else storage()?.removeItem(TOKEN_KEY);
  } catch {
    // Private mode can refuse storage; the session then lasts for this page only.
  }
}

let restoring: Promise<void> | null = null;

/** On load: take the stored token and, if no user is loaded yet, ask the API who it belongs to. */
export function initAuth(): Promise<void> {
  if (restoring) return restoring;
  let stored: string | null = null;
  try {
    stored = storage()?.getItem(TOKEN_KEY) ?? null;
  } catch {
    stored = null;
  }
  if (stored && !$token.get()) $token.set(stored);
  if (!$token.get() || $user.get()) return Promise.resolve();
  $authRestoring.set(true);
  restoring = api<User>('/api/auth').then((result) => {
    // Spec: an answer with a statusCode clears the token; a network failure keeps it for next time.
    if (isApiError(result)) {
      if (result.statusCode > 0) saveToken(null);
    } else {
      $user.set(result);
    }
    $authRestoring.set(false);
    restoring = null;
  });
  return restoring;
}

/** Step one answers the same for every address: whether it has an account is told after the code. */
export type CodeRequest = { message: string };
export type SignedIn = { user: User; token: string; new_user: boolean };
/** The code was right but the address is new: the dialog asks for names and sends the code again. */
export type NamesRequired = { new_user: true; names_required: true; message: string };
export type LoginResult = SignedIn | NamesRequired;

export const isSignedIn = (result: LoginResult): result is SignedIn => 'token' in result;

/** `turnstile_token` answers a 428 that asked for the security check. */
export function requestCode(email: string, turnstileToken?: string): Promise<CodeRequest | ApiError> {
  return api<CodeRequest>('/api/auth/login', { json: { email, ...(turnstileToken ? { turnstile_token: turnstileToken } : {}) } });
}

export async function verifyCode(input: {
  email: string;
  code: string;
  first_name?: string;
  last_name?: string;
  turnstile_token?: string;
}): Promise<LoginResult | ApiError> {
  const result = await api<LoginResult>('/api/auth/login', { json: input, token: null });
  if (!isApiError(result) && isSignedIn(result)) {
    saveToken(result.token);
    $user.set(result.user);
  }
  return result;
}

/** Revokes the session on the server (best effort), forgets it here and goes home. */
export async function logout(navigate: (path: string) => void = (path) => window.location.assign(path)) {
  if ($token.get()) await api('/api/auth/logout', { method: 'POST' });
  saveToken(null);
  $user.set(null);
  navigate('/');
}

export const openLogin = () => $loginOpen.set(true);
export const closeLogin = () => $loginOpen.set(false);

export function initials(user: Pick<User, 'name' | 'email'>): string {
  const letters = `${user.name.first_name.trim().charAt(0)}${user.name.last_name.trim().charAt(0)}`;
  return (letters || user.email.charAt(0)).toUpperCase();
}
