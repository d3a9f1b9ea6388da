import { useStore } from '@nanostores/react';
import type { ClientRequestOptions, ClientResponse } from 'hono/client';
import { useEffect, useState } from 'react';
import { api, type ApiError, type Success } from '../../lib/api';
import { startLoading } from '../../stores/dashboard';
import { $dashToken } from '../session';

export type Load<T> =
  | { status: 'idle' | 'loading' }
  | { status: 'ok'; data: T; headers: Headers }
  | { status: 'error'; error: ApiError };

/**
 * A typed GET through the one client (src/lib/api.ts) with the dashboard's token; reloads when
 * `key` (the call's path and query) or the token changes. Without a token, or with a null key,
 * nothing loads (spec 6).
 */
export function useApiGet<R extends ClientResponse<unknown, number, string>>(
  key: string | null,
  send: (options: ClientRequestOptions) => Promise<R>,
): [Load<Success<R>>, () => void] {
  const token = useStore($dashToken);
  const [state, setState] = useState<Load<Success<R>>>({ status: 'idle' });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!key || !token) {
      setState({ status: 'idle' });
      return;
    }
    const ctrl = new AbortController();
    const done = startLoading();
    setState({ status: 'loading' });
    void api(send, { token, signal: ctrl.signal }).then((res) => {
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
