// A list kept on the server and read a page at a time (the audit trail, the support inbox): its
// states, loading the first page whenever the network comes back, appending the next, and what
// the user sees while it loads, when it cannot, and when it is empty. Such lists are the server's
// alone (no device has them), so offline they say so instead of showing nothing.
import { useCallback, useRef, useState } from 'react';
import { m } from '../paraglide/messages.js';
import type { ApiResult } from '../lib/api.ts';
import type { BadRequestBody } from '../protocol/errors.ts';
import { useLoadWhenOnline } from '../lib/load-when-online.ts';
import { showToast } from '../lib/toast.ts';

type Page<T> = { Items: T[]; HasNext: boolean };
export type ServerPagesState<T> = { kind: 'loading' } | { kind: 'failed'; text: string } | { kind: 'ready'; items: T[]; hasNext: boolean; page: number };

/**
 * `fetchPage` reads page n (a new function when the filters change reloads from page 1);
 * `failure` words a refusal (its HTTP status; null: no answer); a 400 goes to `onBadRequest`
 * (the filters' fields), leaving an empty list.
 */
export function useServerPages<T extends { Id: string }>(
  fetchPage: (page: number) => Promise<ApiResult<Page<T>>>,
  failure: (status: number | null) => string,
  onBadRequest?: (body: BadRequestBody) => void,
) {
  const [state, setState] = useState<ServerPagesState<T>>({ kind: 'loading' });
  // These only word an answer: the latest is used, and a new one does not reload the list.
  const words = useRef({ failure, onBadRequest });
  words.current = { failure, onBadRequest };
  const load = useCallback(async () => {
    const { failure, onBadRequest } = words.current;
    setState({ kind: 'loading' });
    const res = await fetchPage(1);
    if (res.kind === 'ok') setState({ kind: 'ready', items: res.data.Items, hasNext: res.data.HasNext, page: 1 });
    else if (res.kind === 'badRequest' && onBadRequest) {
      onBadRequest(res.body);
      setState({ kind: 'ready', items: [], hasNext: false, page: 1 });
    } else setState({ kind: 'failed', text: failure(res.kind === 'status' ? res.status : null) });
  }, [fetchPage]);
  useLoadWhenOnline(load);

  const more = async () => {
    if (state.kind !== 'ready') return;
    const res = await fetchPage(state.page + 1);
    // A row that moved onto the next page while reading (a newer one came in) is shown once.
    if (res.kind === 'ok') setState({ kind: 'ready', items: [...state.items, ...res.data.Items.filter((e) => !state.items.some((x) => x.Id === e.Id))], hasNext: res.data.HasNext, page: state.page + 1 });
    else showToast({ type: 'danger', title: failure(res.kind === 'status' ? res.status : null) });
  };
  /** One row replaced where it is shown (after a change made to it). */
  const replace = (next: T) => setState((s) => (s.kind === 'ready' ? { ...s, items: s.items.map((e) => (e.Id === next.Id ? next : e)) } : s));
  return { state, load, more, replace };
}

/** Loading, the refusal with Try again, or the empty text: whichever the state is. */
export function ServerPagesStatus({ state, empty, retry }: { state: ServerPagesState<unknown>; empty: string; retry: () => void }) {
  if (state.kind === 'loading') return <p className="muted">{m.app_loading()}</p>;
  if (state.kind === 'failed')
    return (
      <div className="alert alert-warning" role="status">
        <p>{state.text}</p>
        <button type="button" className="button" onClick={retry}>
          {m.app_try_again()}
        </button>
      </div>
    );
  return state.items.length === 0 ? <p className="empty">{empty}</p> : null;
}
