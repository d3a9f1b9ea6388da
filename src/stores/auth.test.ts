import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, client } from '../lib/api';
import { $token, $user, initAuth, logout, TOKEN_KEY, verifyCode } from './auth';

const user = {
  _id: 'u1',
  email: 'a@example.org',
  name: { first_name: 'Ada', last_name: 'L' },
  type: 'donor',
  avatar: null,
  org_ids: [],
};

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('auth store and api client', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    $token.set(null);
    $user.set(null);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('restores the user from a stored token with the bearer header', async () => {
    localStorage.setItem(TOKEN_KEY, 'tok-123');
    fetchMock.mockResolvedValue(json(200, user));
    await initAuth();
    expect(fetchMock).toHaveBeenCalledWith('/api/auth', expect.objectContaining({ method: 'GET' }));
    expect(new Headers(fetchMock.mock.calls[0][1].headers).get('authorization')).toBe('Bearer tok-123');
    expect($user.get()).toEqual(user);
  });

  it('clears the stored token when the auth call answers with a statusCode', async () => {
    localStorage.setItem(TOKEN_KEY, 'stale');
    fetchMock.mockResolvedValue(json(401, { statusCode: 401, message: 'Sign in to continue' }));
    await initAuth();
    expect($token.get()).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect($user.get()).toBeNull();
  });

  it('keeps the token when the network fails, so a later load can retry', async () => {
    localStorage.setItem(TOKEN_KEY, 'keep');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockRejectedValue(new TypeError('offline'));
    await initAuth();
    expect(localStorage.getItem(TOKEN_KEY)).toBe('keep');
  });

  it('stores the token after a successful code check, and logout clears it and goes home', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { user, token: 'new-token', new_user: false }));
    await verifyCode({ email: 'a@example.org', code: '123456' });
    expect(localStorage.getItem(TOKEN_KEY)).toBe('new-token');
    expect($user.get()).toEqual(user);
    fetchMock.mockResolvedValueOnce(json(200, { message: 'You are signed out' }));
    const navigate = vi.fn();
    await logout(navigate);
    expect(fetchMock).toHaveBeenLastCalledWith('/api/auth/logout', expect.objectContaining({ method: 'POST' }));
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect($user.get()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('returns the error shape for non-JSON failures', async () => {
    fetchMock.mockResolvedValue(new Response('<html>bad gateway</html>', { status: 502 }));
    expect(await api((o) => client.api.auth.$get(undefined, o))).toEqual({
      ok: false,
      error: { statusCode: 502, message: expect.stringContaining('502') },
    });
  });
});

describe('auth store when the sign-in code cannot be fetched (offline after the page loaded)', () => {
  afterEach(() => {
    vi.doUnmock('./auth-calls');
    vi.resetModules();
    vi.unstubAllGlobals();
  });

  it('keeps the stored token, and the dialog says the server could not be reached', async () => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('fetch', vi.fn());
    vi.resetModules();
    vi.doMock('./auth-calls', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const auth = await import('./auth');
    localStorage.setItem(auth.TOKEN_KEY, 'keep');
    await auth.initAuth();
    expect(localStorage.getItem(auth.TOKEN_KEY)).toBe('keep');
    expect(auth.$authRestoring.get()).toBe(false);
    expect(await auth.requestCode('a@example.org')).toEqual({
      statusCode: 0,
      message: 'Could not reach the server. Check your connection and try again.',
    });
    expect(fetch).not.toHaveBeenCalled();
  });
});
