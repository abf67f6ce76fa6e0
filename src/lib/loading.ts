// Tracks what is loading (navigation data, form submissions) for the top loading bar.
import { setShared, sharedState, useShared } from './store.ts';

/** How many tasks are loading now. */
const activeTasks = sharedState(0);

/** Marks one loading task; call the returned function when it ends (idempotent). */
export function beginLoading(): () => void {
  setShared(activeTasks, (n) => n + 1);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    setShared(activeTasks, (n) => n - 1);
  };
}

export async function withLoading<T>(work: Promise<T>): Promise<T> {
  const end = beginLoading();
  try {
    return await work;
  } finally {
    end();
  }
}

export function useIsLoading(): boolean {
  return useShared(activeTasks) > 0;
}
