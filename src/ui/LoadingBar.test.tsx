// @vitest-environment happy-dom
// The loading bar of sections 4 and 9 (100 ms delay, starts at 50%, every 500 ms 20% of what
// remains, fills and fades over 0.3 s), driven by a screen's code loading (LoadingFallback as the
// Suspense fallback of a lazy route) and by a form submission (withLoading).
import { act, lazy, Suspense, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withLoading } from '../lib/loading.ts';
import { LoadingBar, LoadingFallback } from './LoadingBar.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const bar = () => document.querySelector('[role="progressbar"]');
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

function render(node: React.ReactNode) {
  const el = document.createElement('div');
  document.body.append(el);
  act(() => {
    createRoot(el).render(node);
  });
  return el;
}

describe('the loading bar', () => {
  it('shows while a lazy screen loads: after 100 ms at 50%, then 60% after 500 ms more, then fills and fades over 0.3 s', async () => {
    let resolve: (mod: { default: ComponentType }) => void = () => undefined;
    const Screen = lazy(() => new Promise<{ default: ComponentType }>((r) => (resolve = r)));
    const el = render(
      <>
        <LoadingBar />
        <Suspense fallback={<LoadingFallback><p>Loading…</p></LoadingFallback>}>
          <Screen />
        </Suspense>
      </>,
    );
    expect(el.textContent).toContain('Loading…');
    advance(50);
    expect(bar()).toBeNull();
    advance(100);
    expect(bar()?.getAttribute('aria-valuenow')).toBe('50');
    expect(bar()?.getAttribute('aria-label')).toBe('Loading…');
    advance(500);
    expect(bar()?.getAttribute('aria-valuenow')).toBe('60');

    await act(async () => resolve({ default: () => <h1>Programs</h1> }));
    expect(el.querySelector('h1')?.textContent).toBe('Programs');
    advance(50);
    expect(bar()?.getAttribute('aria-valuenow')).toBe('100');
    advance(300);
    expect(bar()).toBeNull();
  });

  it('shows while a form submission waits, and never for one that ends within 100 ms', async () => {
    render(<LoadingBar />);
    let done: () => void = () => undefined;
    let saving!: Promise<void>;
    act(() => {
      saving = withLoading(new Promise<void>((r) => (done = r)));
    });
    advance(150);
    expect(bar()?.getAttribute('aria-valuenow')).toBe('50');
    await act(async () => {
      done();
      await saving;
    });
    advance(400);
    expect(bar()).toBeNull();

    let quick!: Promise<void>;
    act(() => {
      quick = withLoading(new Promise<void>((r) => setTimeout(r, 60)));
    });
    await act(async () => {
      vi.advanceTimersByTime(60);
      await quick;
    });
    for (let t = 0; t < 400; t += 50) {
      advance(50);
      expect(bar()).toBeNull();
    }
  });
});
