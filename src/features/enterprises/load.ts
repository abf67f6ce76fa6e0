// What the enterprise screens show while they read the server: enterprises are server-held staff
// tools (no copy on the device), so offline they say they need the connection, and a refusal is
// said, never shown as an empty list.
import { useEffect, useRef, useState } from 'react';
import type { ApiResult } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { withLoading } from '../../lib/loading.ts';

export type Loaded<T> = { kind: 'loading' } | { kind: 'offline' } | { kind: 'notFound' } | { kind: 'forbidden' } | { kind: 'failed' } | { kind: 'ok'; data: T };

/** The outcome of a read, as the screens tell it. */
export function loadedOf<T>(res: ApiResult<T>): Loaded<T> {
  if (res.kind === 'ok') return { kind: 'ok', data: res.data };
  if (res.kind === 'notFound') return { kind: 'notFound' };
  if (res.kind === 'error') return { kind: 'offline' };
  if (res.kind === 'status' && res.status === 403) return { kind: 'forbidden' };
  return { kind: 'failed' };
}

/** Reads `read()` now, again when `key` changes or the connection returns; `reload` reads again. */
export function useServerRead<T>(key: string, read: () => Promise<ApiResult<T>>): [Loaded<T>, () => void, (data: T) => void] {
  const online = useOnline();
  const [state, setState] = useState<Loaded<T>>({ kind: 'loading' });
  const [round, setRound] = useState(0);
  // `read` is a new function on every render: the key says what it reads.
  const reader = useRef(read);
  reader.current = read;
  useEffect(() => {
    if (!online) {
      setState({ kind: 'offline' });
      return;
    }
    let live = true;
    setState((s) => (s.kind === 'ok' ? s : { kind: 'loading' }));
    void withLoading(reader.current()).then((res) => {
      if (live) setState(loadedOf(res));
    });
    return () => {
      live = false;
    };
  }, [key, online, round]);
  return [state, () => setRound((r) => r + 1), (data: T) => setState({ kind: 'ok', data })];
}
