// The analytics view of a query as a screen shows it: the kept answer at once (with the time it
// was fetched), then the fresh one when online. Offline, or when the network fails, the kept view
// stays with a note, and a view never loaded says so instead of waiting (docs/architecture.md:
// screens never wait on the network).
import { useEffect, useState } from 'react';
import { analyticsViewKey, keepView, keptView } from '../../db/analytics-cache.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { useSession } from '../../lib/session.ts';
import type { FieldError } from '../../protocol/errors.ts';
import { loadView, viewKeyFields, type AnalyticsLevel, type AnalyticsViewData } from './load.ts';
import type { AnalyticsQuery } from './range.ts';

export type ViewState = {
  /** The newest answer there is (kept or fresh), with when it was fetched. */
  shown: { data: AnalyticsViewData; fetchedAt: number } | null;
  /** Whether the kept copy has been read: until then nothing is said about it. */
  checked: boolean;
  /** A fetch is under way. */
  loading: boolean;
  /** Why the newest fetch gave nothing: offline also when the device is. */
  problem: 'offline' | 'forbidden' | 'notInPlan' | 'notFound' | 'failed' | null;
  /** The fields a 400 named (dates, time zone), for the form to show at them. */
  fieldErrors: FieldError[];
};

const INITIAL: ViewState = { shown: null, checked: false, loading: false, problem: null, fieldErrors: [] };

/** `query` null: the form's values do not make a query (its own errors are shown), nothing is fetched. */
export function useAnalyticsView(organizationId: string, level: AnalyticsLevel, query: AnalyticsQuery | null): ViewState & { retry: () => void } {
  const online = useOnline();
  const userId = useSession()?.session.User?.Id ?? '';
  const [attempt, setAttempt] = useState(0);
  const key = query ? analyticsViewKey(userId, organizationId, viewKeyFields(level, query)) : null;
  const [state, setState] = useState<ViewState & { key: string | null }>({ ...INITIAL, key });
  // A new key starts from nothing, in the same render (no flash of another query's numbers).
  if (state.key !== key) setState({ ...INITIAL, key });

  useEffect(() => {
    if (key === null || query === null) return;
    let live = true;
    const update = (f: (s: ViewState) => ViewState) => {
      if (live) setState((s) => (s.key === key ? { ...f(s), key } : s));
    };
    void keptView(key).then(
      (kept) => update((s) => ({ ...s, checked: true, shown: s.shown ?? (kept ? { data: kept.data as AnalyticsViewData, fetchedAt: kept.fetchedAt } : null) })),
      () => update((s) => ({ ...s, checked: true })),
    );
    if (!online) {
      update((s) => ({ ...s, loading: false, problem: 'offline' }));
    } else {
      update((s) => ({ ...s, loading: true, problem: null, fieldErrors: [] }));
      void loadView(level, query).then(async (res) => {
        if (res.kind === 'ok') {
          const fetchedAt = Date.now();
          update((s) => ({ ...s, loading: false, problem: null, shown: { data: res.data, fetchedAt } }));
          // Kept after it is shown: a full or refused store costs the offline copy, not the screen.
          await keepView({ key, userId, organizationId, data: res.data, fetchedAt }).catch(() => undefined);
        } else if (res.kind === 'badRequest') {
          update((s) => ({ ...s, loading: false, fieldErrors: res.errors }));
        } else {
          // notInPlan: the plan changed since the session was read; the device remembers it (offline
          // too) from the refusal itself (api.ts onExplained403).
          update((s) => ({ ...s, loading: false, problem: res.kind }));
        }
      });
    }
    return () => void (live = false);
    // The key holds the user, the organization, the level and the query: a new one of any is a new key.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- query is read through key
  }, [key, online, attempt]);

  return { ...state, retry: () => setAttempt((n) => n + 1) };
}
