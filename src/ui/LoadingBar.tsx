// The thin loading bar (sections 4 and 9), drawn from src/domain/timing.ts: it appears after a
// 100 ms delay, starts at 50% and every 500 ms moves 20% of the remaining distance toward 100%;
// when loading ends it fills and fades out over 0.3 s. What drives it: a screen's code chunk
// loading on navigation (LoadingFallback, the Suspense fallback of lazy routes and dialogs) and
// form submissions (withLoading around the work the submit waits for).
import { useEffect, useState, type ReactNode } from 'react';
import { LOADING_BAR_INTERVAL_MS } from '../domain/constants.ts';
import { loadingBar, type LoadingBar as Bar } from '../domain/timing.ts';
import { beginLoading, useIsLoading } from '../lib/loading.ts';
import { m } from '../paraglide/messages.js';

const FRAME_MS = 50;

export function LoadingBar() {
  const loading = useIsLoading();
  const [span, setSpan] = useState<{ startedAt: number; endedAt: number | null } | null>(null);
  const [bar, setBar] = useState<Bar | null>(null);

  useEffect(() => {
    if (loading) setSpan({ startedAt: Date.now(), endedAt: null });
    else setSpan((s) => (s && s.endedAt === null ? { ...s, endedAt: Date.now() } : s));
  }, [loading]);

  useEffect(() => {
    if (!span) return;
    const tick = () => {
      const next = loadingBar(span.startedAt, span.endedAt, Date.now());
      setBar(next.visible ? next : null);
      // Only this span is over: a tick already queued when a new load began (the previous bar
      // still fading out) must not clear the new span, or the bar stays hidden while it loads.
      if (!next.visible && span.endedAt !== null) setSpan((current) => (current === span ? null : current));
    };
    tick();
    const handle = setInterval(tick, FRAME_MS);
    return () => clearInterval(handle);
  }, [span]);

  // The bar sits outside the page's landmarks (it shows above the login screen too); a polite live
  // region around it is where assistive technology expects such content, and says it appeared.
  return (
    <div aria-live="polite">
      {bar && (
        <div
          className="loading-bar"
          role="progressbar"
          aria-label={m.app_loading()}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(bar.progress * 100)}
          style={{ transform: `scaleX(${bar.progress})`, opacity: bar.opacity, transition: `transform ${LOADING_BAR_INTERVAL_MS}ms ease-out` }}
        />
      )}
    </div>
  );
}

/** A Suspense fallback that drives the loading bar for as long as it is shown. */
export function LoadingFallback({ children = null }: { children?: ReactNode }) {
  useEffect(() => beginLoading(), []);
  return children;
}
