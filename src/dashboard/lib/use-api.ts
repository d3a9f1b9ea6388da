import { useStore } from '@nanostores/react';
import type { ClientRequestOptions, ClientResponse } from 'hono/client';
import { useEffect, useState } from 'react';
import { api, type ApiError, apiPath, type Success } from '../../lib/api';
import { startLoading } from '../../stores/dashboard';
import { $dashToken } from '../session';

export type Load<T> = { status: 'idle' | 'loading' } | { status: 'ok'; data: T; headers: Headers } | { status: 'error'; error: ApiError };

/**
 * A typed GET through the one client (src/lib/api.ts) with the dashboard's token; reloads when
 * `key` (the call's path and query) or the token changes. Without a token, or with a null key,
 * nothing loads (spec 6).
 */
export function useApiGet<R extends ClientResponse<unknown, number, string>>(
  key: string | null,
  send: (options: ClientRequestOptions) => Promise<R>,
): [Load<Success<R>>, () => void];
/** By path, for the screens not yet on typed calls: `T` is the screen's own reading of the answer. */
export function useApiGet<T>(path: string | null): [Load<T>, () => void];
export function useApiGet(key: string | null, send?: (options: ClientRequestOptions) => Promise<ClientResponse<unknown, number, string>>): [Load<unknown>, () => void] {
  const token = useStore($dashToken);
  const [state, setState] = useState<Load<unknown>>({ status: 'idle' });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!key || !token) {
      setState({ status: 'idle' });
      return;
    }
    const ctrl = new AbortController();
    const done = startLoading();
    setState({ status: 'loading' });
    const call = send ? api(send, { token, signal: ctrl.signal }) : apiPath<unknown>(key, { token, signal: ctrl.signal });
    void call.then((res) => {
      done();
      if (ctrl.signal.aborted) return;
      setState(res.ok ? { status: 'ok', data: res.data, headers: res.headers } : { status: 'error', error: res.error });
    });
    return () => {
      ctrl.abort();
      done();
    };
    // `send` is a new closure each render; `key` stands for what it asks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, token, nonce]);
  return [state, () => setNonce((n) => n + 1)];
}
