// The one module that imports jotai (STYLE.md habit 8): the app's shared state is atoms in one
// store, appStore. Modules that are not React (the sync runner, the fetch wrapper, the service
// worker's update flow) read and write it through getShared/setShared/subscribeShared, and
// screens read it with useShared, which names the store, so a screen rendered without the
// Provider (a unit test) still sees the same state.
import { atom, createStore, Provider, useAtom, useAtomValue, useSetAtom, type PrimitiveAtom } from 'jotai';

export { atom, Provider, useAtom, useAtomValue, useSetAtom };
export type { PrimitiveAtom, WritableAtom } from 'jotai';
export const appStore = createStore();

/** A piece of shared state, with its first value. */
export function sharedState<T>(initial: T): PrimitiveAtom<T> {
  return atom(initial);
}

export function getShared<T>(state: PrimitiveAtom<T>): T {
  return appStore.get(state);
}

/** Sets the value (or its update from the current one); listeners hear it only if it changed (Object.is). */
export function setShared<T>(state: PrimitiveAtom<T>, next: T | ((current: T) => T)): void {
  appStore.set(state, next as T);
}

/** Calls `listener` after each change; returns the unsubscribe function. */
export function subscribeShared<T>(state: PrimitiveAtom<T>, listener: () => void): () => void {
  return appStore.sub(state, listener);
}

/** The state's current value in a component, re-rendered on change. */
export function useShared<T>(state: PrimitiveAtom<T>): T {
  return useAtomValue(state, { store: appStore });
}
