import { atom } from 'nanostores';

/**
 * The session token, on its own so the API client can read it without importing the auth store
 * (which itself calls the client).
 */
export const TOKEN_KEY = 'uk_nfp_token';

export const $token = atom<string | null>(null);

const storage = () => (typeof localStorage === 'undefined' ? null : localStorage);

/** The token kept from an earlier visit, if storage allows. */
export function storedToken(): string | null {
  try {
    return storage()?.getItem(TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Sets the token here and in storage (null forgets it). */
export function saveToken(token: string | null) {
  $token.set(token);
  try {
    if (token) storage()?.setItem(TOKEN_KEY, token);
    else storage()?.removeItem(TOKEN_KEY);
  } catch {
    // Private mode can refuse storage; the session then lasts for this page only.
  }
}
