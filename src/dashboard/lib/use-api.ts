import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { startLoading } from '../../stores/dashboard';
import { $dashToken } from '../session';
import { api, type ApiError } from './api';

export type Load<T> = { status: 'idle' | 'loading' } | { status: 'ok'; data: T; headers: Headers } | { status: 'error'; error: ApiError };

/** GET with the token; reloads when the path or token changes. Without a token nothing loads (spec 6). */
export function useApiGet<T>(path: string | null): [Load<T>, () => void] {
  const token = useStore($dashToken);
  const [state, setState] = useState<Load<T>>({ status: 'idle' });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!path || !token) {
      setState({ status: 'idle' });
      return;
    }
    const ctrl = new AbortController();
    const done = startLoading();
    setState({ status: 'loading' });
    api<T>(path, { token, signal: ctrl.signal }).then((res) => {
      done();
      if (ctrl.signal.aborted) return;
      setState(res.ok ? { status: 'ok', data: res.data, headers: res.headers } : { status: 'error', error: res.error });
    });
    return () => {
      ctrl.abort();
      done();
    };
  }, [path, token, nonce]);
  return [state, () => setNonce((n) => n + 1)];
}
