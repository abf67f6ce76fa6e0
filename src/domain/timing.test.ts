import { describe, expect, it } from 'vitest';
import {
  cacheDurationMs,
  loadingBar,
  loadingBarProgress,
  pauseToastTimer,
  relativeTime,
  resumeToastTimer,
  retryDelayMs,
  shouldRetry,
  showTranslationWarning,
  startToastTimer,
  toastClosesAt,
  toastExpired,
} from './timing.ts';

describe('Loading bar: delay 100 ms, starts at 50%, every 500 ms 20% of the remaining distance, fade 0.3 s', () => {
  it.each([
    [0, { visible: false, progress: 0, opacity: 0 }],
    [99, { visible: false, progress: 0, opacity: 0 }],
    [100, { visible: true, progress: 0.5, opacity: 1 }],
    [599, { visible: true, progress: 0.5, opacity: 1 }],
    [600, { visible: true, progress: 0.6, opacity: 1 }],
    [1100, { visible: true, progress: 0.68, opacity: 1 }],
  ])('still loading after %d ms', (elapsed, bar) => {
    const b = loadingBar(0, null, elapsed);
    expect(b.visible).toBe(bar.visible);
    expect(b.progress).toBeCloseTo(bar.progress, 10);
    expect(b.opacity).toBe(bar.opacity);
  });

  it('never reaches 100% while loading', () => expect(loadingBarProgress(60_000)).toBeLessThan(1));

  it('when loading ends it fills and fades out over 0.3 s', () => {
    expect(loadingBar(0, 1000, 1000)).toEqual({ visible: true, progress: 1, opacity: 1 });
    expect(loadingBar(0, 1000, 1150)).toEqual({ visible: true, progress: 1, opacity: 0.5 });
    expect(loadingBar(0, 1000, 1300).visible).toBe(false);
  });

  it('loading that ends within the 100 ms delay never shows', () => expect(loadingBar(0, 99, 120).visible).toBe(false));
});

describe('Toast: auto-closes after 5000 ms, never when infinity, pauses on hover or focus', () => {
  it('closes after 5000 ms by default', () => {
    const t = startToastTimer(1000);
    expect(toastClosesAt(t)).toBe(6000);
    expect(toastExpired(t, 5999)).toBe(false);
    expect(toastExpired(t, 6000)).toBe(true);
  });

  it('pauses and resumes with the remaining time', () => {
    let t = startToastTimer(0);
    t = pauseToastTimer(t, 2000);
    expect(toastClosesAt(t)).toBeNull();
    expect(toastExpired(t, 60_000)).toBe(false);
    expect(pauseToastTimer(t, 9000)).toBe(t);
    t = resumeToastTimer(t, 10_000);
    expect(resumeToastTimer(t, 11_000)).toBe(t);
    expect(toastClosesAt(t)).toBe(13_000);
  });

  it('never closes when the duration is infinity', () => {
    const t = startToastTimer(0, Infinity);
    expect(toastClosesAt(t)).toBeNull();
    expect(toastExpired(pauseToastTimer(t, 10), 1e12)).toBe(false);
  });
});

describe('Client retry: 3, from 1 second doubling, capped at 30 seconds', () => {
  it.each([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [4, 16_000],
    [5, 30_000],
    [10, 30_000],
  ])('retry %d waits %d ms', (attempt, ms) => expect(retryDelayMs(attempt)).toBe(ms));

  it('retries 3 times; some queries do not retry', () => {
    expect([0, 1, 2, 3].map((n) => shouldRetry(n))).toEqual([true, true, true, false]);
    expect(shouldRetry(0, { retry: false })).toBe(false);
  });

  it.each([
    ['default', 5],
    ['aiSuggestionsByType', 60],
    ['xsrfToken', 24 * 60],
    ['session', 60],
    ['analyticsGlance', 10],
    ['subscription', 10],
  ] as const)('caches %s for %d minutes', (kind, minutes) => expect(cacheDurationMs(kind)).toBe(minutes * 60_000));
  it('the default cache is 5 minutes', () => expect(cacheDurationMs()).toBe(300_000));
});

describe('Relative time buckets: seconds below 60, minutes below 60, hours below 24, days below 30, months below 12, then years', () => {
  const S = 1000;
  const D = 86_400 * S;
  it.each([
    [0, 0, 'second'],
    [-59 * S, -59, 'second'],
    [-60 * S, -1, 'minute'],
    [-3599 * S, -59, 'minute'],
    [-3600 * S, -1, 'hour'],
    [-23 * 3600 * S, -23, 'hour'],
    [-D, -1, 'day'],
    [-29 * D, -29, 'day'],
    [-30 * D, -1, 'month'],
    [-359 * D, -11, 'month'],
    [-360 * D, -1, 'year'],
    [-800 * D, -2, 'year'],
    [2 * 3600 * S, 2, 'hour'],
  ])('%d ms from now → %d %s', (delta, value, unit) => expect(relativeTime(1e12 + delta, 1e12)).toEqual({ value, unit }));
});

describe('Browser translation warning reappears after 1 month', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    [false, null, '2024-01-01', false],
    [true, null, '2024-01-01', true],
    [true, '2024-01-15', '2024-02-15', false],
    [true, '2024-01-15', '2024-02-15T00:00:01Z', true],
    [true, '2024-01-31', '2024-02-29T12:00:00Z', true],
    [true, '2024-01-31', '2024-02-28T12:00:00Z', false],
  ])('detected %s, dismissed %s, now %s → shown %s', (detected, dismissed, now, shown) =>
    expect(showTranslationWarning(detected, dismissed === null ? null : at(dismissed), at(now))).toBe(shown),
  );
});
