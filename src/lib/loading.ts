// Tracks what is loading (navigation data, form submissions) for the top loading bar.
import { useSyncExternalStore } from 'react';

let active = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Marks one loading task; call the returned function when it ends (idempotent). */
export function beginLoading(): () => void {
  active++;
  emit();
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    active--;
    emit();
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
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => active > 0,
  );
}
