// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { hasUnsavedChanges, resolvePendingLeave, runGuarded, useUnsavedGuard, usePendingLeave } from './unsaved.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Form({ dirty }: { dirty: boolean }) {
  useUnsavedGuard('form', dirty);
  return null;
}
let seen: ReturnType<typeof usePendingLeave> = null;
function Probe() {
  seen = usePendingLeave();
  return null;
}

describe('unsaved-changes guard', () => {
  it('a clean form lets navigation through at once', () => {
    const el = document.createElement('div');
    const root = createRoot(el);
    act(() => root.render(<><Form dirty={false} /><Probe /></>));
    let went = false;
    runGuarded(() => (went = true));
    expect(went).toBe(true);
    act(() => root.unmount());
  });

  it('a dirty form holds navigation until OK; closing the prompt cancels it', () => {
    const el = document.createElement('div');
    const root = createRoot(el);
    act(() => root.render(<><Form dirty /><Probe /></>));
    expect(hasUnsavedChanges()).toBe(true);
    let went = 0;
    act(() => runGuarded(() => went++));
    expect(went).toBe(0);
    expect(seen?.entity).toBe('form');
    act(() => resolvePendingLeave(false));
    expect(went).toBe(0);
    expect(seen).toBeNull();
    act(() => runGuarded(() => went++));
    act(() => resolvePendingLeave(true));
    expect(went).toBe(1);
    act(() => root.unmount());
    expect(hasUnsavedChanges()).toBe(false);
  });

  it('page unload is blocked while the form is dirty', () => {
    const el = document.createElement('div');
    const root = createRoot(el);
    act(() => root.render(<Form dirty />));
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    act(() => root.render(<Form dirty={false} />));
    const clean = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);
    act(() => root.unmount());
  });
});
