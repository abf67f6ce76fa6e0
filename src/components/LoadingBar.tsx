// The thin loading bar (sections 4 and 9): it appears after a 100 ms delay, starts at 50% and
// every 500 ms moves 20% of the remaining distance toward 100%; when loading ends it fills and
// fades out over 0.3 s.
//
//   idle ──loading──> delayed(100 ms) ──> running(50%, +20% of rest / 500 ms) ──done──> finishing(100%, fade 0.3 s) ──> idle
import { useEffect, useRef, useState } from 'react';
import { LOADING_BAR_DELAY_MS, LOADING_BAR_FADE_MS, LOADING_BAR_INTERVAL_MS, LOADING_BAR_START, LOADING_BAR_STEP } from '../domain/constants.ts';
import { useIsLoading } from '../lib/loading.ts';
import { m } from '../paraglide/messages.js';

export function LoadingBar() {
  const loading = useIsLoading();
  const [progress, setProgress] = useState<number | null>(null);
  const [fading, setFading] = useState(false);
  const shown = useRef(false);

  useEffect(() => {
    if (loading) {
      setFading(false);
      let interval: ReturnType<typeof setInterval> | undefined;
      const delay = setTimeout(() => {
        shown.current = true;
        setProgress(LOADING_BAR_START);
        interval = setInterval(() => setProgress((p) => (p === null ? LOADING_BAR_START : p + (1 - p) * LOADING_BAR_STEP)), LOADING_BAR_INTERVAL_MS);
      }, LOADING_BAR_DELAY_MS);
      return () => {
        clearTimeout(delay);
        if (interval) clearInterval(interval);
      };
    }
    if (!shown.current) return;
    setProgress(1);
    setFading(true);
    const done = setTimeout(() => {
      shown.current = false;
      setProgress(null);
      setFading(false);
    }, LOADING_BAR_FADE_MS);
    return () => clearTimeout(done);
  }, [loading]);

  if (progress === null) return null;
  return (
    <div
      className="loading-bar"
      role="progressbar"
      aria-label={m.app_loading()}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(progress * 100)}
      style={{ transform: `scaleX(${progress})`, opacity: fading ? 0 : 1, transition: `transform ${LOADING_BAR_INTERVAL_MS}ms ease-out, opacity ${LOADING_BAR_FADE_MS}ms ease` }}
    />
  );
}
