// Unsaved changes (section 4): a form, dialog or transcript with unsaved changes triggers a
// blocking prompt on route change, on in-page navigation where enabled, or on page unload.
//
//   navigate(to) ──no dirty guard──> go
//        └──dirty guard──> pending {entity} ──OK──> go (changes discarded)
//                                   └──close/Cancel──> stay
import { useEffect, useRef } from 'react';
import { navigate as browserNavigate, useBrowserLocation } from 'wouter/use-browser-location';
import { getShared, setShared, sharedState, useShared } from './store.ts';

export type UnsavedEntity = 'form' | 'dialog' | 'transcript';
type Guard = { entity: UnsavedEntity; isDirty: () => boolean };
export type PendingLeave = { entity: UnsavedEntity; proceed: () => void };

const guards = new Set<Guard>();
/** The navigation waiting for the user's answer to the unsaved-changes prompt. */
const pendingLeave = sharedState<PendingLeave | null>(null);

function firstDirty(): Guard | undefined {
  return [...guards].find((g) => g.isDirty());
}

/** Runs `action` now, or after the user confirms discarding unsaved changes. */
export function runGuarded(action: () => void): void {
  const dirty = firstDirty();
  if (!dirty) return action();
  setShared(pendingLeave, { entity: dirty.entity, proceed: action });
}

export function resolvePendingLeave(proceed: boolean): void {
  const p = getShared(pendingLeave);
  setShared(pendingLeave, null);
  if (proceed && p) {
    // The changes are discarded: guards must not fire again for this navigation.
    const dirty = [...guards];
    guards.clear();
    p.proceed();
    queueMicrotask(() => {
      dirty.forEach((g) => guards.add(g));
      emitDirty();
    });
  }
}

export function usePendingLeave(): PendingLeave | null {
  return useShared(pendingLeave);
}

// Back and Forward (popstate) pass through the guard too. This listener is added when the module
// loads, before the router subscribes to popstate, so stopImmediatePropagation keeps the router
// from rendering a blocked move (which would unmount the dirty form). The URL is put back at once;
// if the user confirms, the move is replayed as a push.
let shownHref = typeof window === 'undefined' ? '' : window.location.href;
if (typeof window !== 'undefined') {
  window.addEventListener('popstate', (event) => {
    const target = window.location.href;
    if (!firstDirty()) {
      shownHref = target;
      return;
    }
    event.stopImmediatePropagation();
    window.history.pushState(window.history.state, '', shownHref);
    runGuarded(() => {
      shownHref = target;
      browserNavigate(target);
    });
  });
}

export function guardedNavigate(to: string | URL, options?: { replace?: boolean; state?: unknown }): void {
  runGuarded(() => browserNavigate(to, options));
}

/** The location hook given to the router: route changes pass through the unsaved-changes guard. */
export function useGuardedLocation(): [string, typeof guardedNavigate] {
  const [location] = useBrowserLocation();
  useEffect(() => {
    shownHref = window.location.href;
  }, [location]);
  return [location, guardedNavigate];
}

// Whether anything is dirty, for those who wait on it (the update prompt): computed again on every
// change of a guard or of its flag.
const anyDirty = sharedState(false);
const emitDirty = () => setShared(anyDirty, hasUnsavedChanges());

/** Registers a dirty flag for route changes, page unload and (via runGuarded) in-page navigation. */
export function useUnsavedGuard(entity: UnsavedEntity, isDirty: boolean): void {
  const dirty = useRef(isDirty);
  dirty.current = isDirty;
  useEffect(emitDirty, [isDirty]);
  useEffect(() => {
    const guard: Guard = { entity, isDirty: () => dirty.current };
    guards.add(guard);
    emitDirty();
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (dirty.current) {
        e.preventDefault();
        e.returnValue = '';
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      guards.delete(guard);
      window.removeEventListener('beforeunload', onBeforeUnload);
      emitDirty();
    };
  }, [entity]);
}

export function hasUnsavedChanges(): boolean {
  return firstDirty() !== undefined;
}

/** Re-renders when any registered form, dialog or transcript becomes dirty or clean. */
export function useHasUnsavedChanges(): boolean {
  return useShared(anyDirty);
}
