import { atom } from 'nanostores';
import type { ApiError, client, Data, User as ApiUser } from '../lib/api';
import { UNREACHABLE_MESSAGE } from '../lib/unreachable';
import type { CodeCheck } from './auth-calls';
import { $token, saveToken, storedToken } from './token';

export { $token, TOKEN_KEY } from './token';

/** The signed-in user as GET /api/auth and the login call answer it (the API contract's User). */
export type User = ApiUser;

export const $user = atom<User | null>(null);
/** True while the stored token is being checked on load. */
export const $authRestoring = atom(false);
/** Opens the login dialog from any island (e.g. 'Login & Continue'). */
export const $loginOpen = atom(false);
/**
 * Counts the requests to open it. The browser closes the dialog on Escape by itself and says so a
 * task later ('close'); a request in between finds `$loginOpen` still true, so the count is what
 * tells the dialog to show again (and its late 'close' that it is stale).
 */
export const $loginRequests = atom(0);

let restoring: Promise<void> | null = null;

/** The calls themselves, fetched on first use (src/stores/auth-calls.ts). */
const calls = () => import('./auth-calls');
/** What a call answers when even its code could not be fetched (offline). */
const UNREACHABLE: ApiError = { statusCode: 0, message: UNREACHABLE_MESSAGE };

/** On load: take the stored token and, if no user is loaded yet, ask the API who it belongs to. */
export function initAuth(): Promise<void> {
  if (restoring) return restoring;
  const stored = storedToken();
  if (stored && !$token.get()) $token.set(stored);
  if (!$token.get() || $user.get()) return Promise.resolve();
  $authRestoring.set(true);
  restoring = calls()
    .then(
      (c) => c.whoAmI(),
      () => ({ ok: false as const, error: UNREACHABLE }),
    )
    .then((result) => {
      // Spec: an answer with a statusCode clears the token; a network failure keeps it for next time.
      if (!result.ok) {
        if (result.error.statusCode > 0) saveToken(null);
      } else {
        $user.set(result.data);
      }
      $authRestoring.set(false);
      restoring = null;
    });
  return restoring;
}

/** What POST /api/auth/login answers, from the API contract. */
type LoginAnswer = Data<typeof client.api.auth.login.$post>;
export type SignedIn = Extract<LoginAnswer, { token: string }>;
/** The code was right but the address is new: the dialog asks for names and sends the code again. */
export type NamesRequired = Extract<LoginAnswer, { names_required: true }>;
/** Step one answers the same for every address: whether it has an account is told after the code. */
export type CodeRequest = Exclude<LoginAnswer, SignedIn | NamesRequired>;
export type LoginResult = SignedIn | NamesRequired;

export const isSignedIn = (result: LoginResult): result is SignedIn => 'token' in result;

/** `turnstile_token` answers a 428 that asked for the security check. */
export async function requestCode(email: string, turnstileToken?: string): Promise<CodeRequest | ApiError> {
  const loaded = await calls().catch(() => null);
  if (!loaded) return UNREACHABLE;
  const result = await loaded.askForCode(email, turnstileToken);
  return result.ok ? (result.data as CodeRequest) : result.error;
}

/** Exchanges the emailed code for a session (stored, and the user set) or asks for names. */
export async function verifyCode(input: CodeCheck): Promise<LoginResult | ApiError> {
  const loaded = await calls().catch(() => null);
  if (!loaded) return UNREACHABLE;
  const result = await loaded.checkCode(input);
  if (!result.ok) return result.error;
  const data: LoginAnswer = result.data;
  if ('names_required' in data) return data;
  if (!('token' in data)) return { statusCode: 500, message: 'The server did not start a session; please try again.' };
  saveToken(data.token);
  $user.set(data.user);
  return data;
}

/** Revokes the session on the server (best effort), forgets it here and goes home. */
export async function logout(navigate: (path: string) => void = (path) => window.location.assign(path)) {
  if ($token.get())
    await calls()
      .then((c) => c.revokeSession())
      .catch(() => undefined);
  saveToken(null);
  $user.set(null);
  navigate('/');
}

export const openLogin = () => {
  $loginRequests.set($loginRequests.get() + 1);
  $loginOpen.set(true);
};
export const closeLogin = () => $loginOpen.set(false);

export function initials(user: Pick<User, 'name' | 'email'>): string {
  const letters = `${user.name.first_name.trim().charAt(0)}${user.name.last_name.trim().charAt(0)}`;
  return (letters || user.email.charAt(0)).toUpperCase();
}
