// Time-driven behaviour of sections 4 and 9 as pure functions of elapsed time: the loading bar,
// the toast timer, the client retry policy, relative time buckets and the browser-translation
// warning schedule. Callers own the timers; these functions only say what to show.
import {
  CACHE_DURATIONS_MS,
  LOADING_BAR_DELAY_MS,
  LOADING_BAR_FADE_MS,
  LOADING_BAR_INTERVAL_MS,
  LOADING_BAR_START,
  LOADING_BAR_STEP,
  RELATIVE_TIME_LIMITS,
  RETRY_BASE_DELAY_MS,
  RETRY_COUNT,
  RETRY_MAX_DELAY_MS,
  TOAST_DURATION_MS,
  TRANSLATION_WARNING_REAPPEAR_MONTHS,
  type CacheKind,
} from './constants.ts';

// ── Loading bar ─────────────────────────────────────────────────────────────────────────────
//   hidden ─(100 ms)─► 50% ─(every 500 ms: +20% of what remains)─► … ─(end)─► 100%, fade 0.3 s

export type LoadingBar = { visible: boolean; progress: number; opacity: number };
const HIDDEN: LoadingBar = { visible: false, progress: 0, opacity: 0 };

export function loadingBarProgress(elapsedMs: number): number {
  const ticks = Math.floor((elapsedMs - LOADING_BAR_DELAY_MS) / LOADING_BAR_INTERVAL_MS);
  return 1 - (1 - LOADING_BAR_START) * (1 - LOADING_BAR_STEP) ** Math.max(0, ticks);
}

/** The bar at `now` for loading that started at `startedAt` and ended at `endedAt` (null: still loading). */
export function loadingBar(startedAt: number, endedAt: number | null, now: number): LoadingBar {
  // Loading that ends within the delay never shows the bar.
  const shownAt = startedAt + LOADING_BAR_DELAY_MS;
  if (endedAt === null) return now < shownAt ? HIDDEN : { visible: true, progress: loadingBarProgress(now - startedAt), opacity: 1 };
  if (endedAt < shownAt) return HIDDEN;
  const fading = now - endedAt;
  if (fading >= LOADING_BAR_FADE_MS) return HIDDEN;
  return { visible: true, progress: 1, opacity: 1 - Math.max(0, fading) / LOADING_BAR_FADE_MS };
}

// ── Toast timer ─────────────────────────────────────────────────────────────────────────────
//   running ─(hover/focus)─► paused ─(leave/blur)─► running ─(remaining reaches 0)─► closed

export type ToastTimer = { remainingMs: number; runningSince: number | null };

export function startToastTimer(now: number, durationMs: number = TOAST_DURATION_MS): ToastTimer {
  return { remainingMs: durationMs, runningSince: now };
}

export function pauseToastTimer(timer: ToastTimer, now: number): ToastTimer {
  if (timer.runningSince === null) return timer;
  return { remainingMs: Math.max(0, timer.remainingMs - (now - timer.runningSince)), runningSince: null };
}

export function resumeToastTimer(timer: ToastTimer, now: number): ToastTimer {
  return timer.runningSince === null ? { ...timer, runningSince: now } : timer;
}

/** When the toast closes by itself; null while paused or when its duration is infinity. */
export function toastClosesAt(timer: ToastTimer): number | null {
  if (timer.runningSince === null || timer.remainingMs === Infinity) return null;
  return timer.runningSince + timer.remainingMs;
}

export function toastExpired(timer: ToastTimer, now: number): boolean {
  const at = toastClosesAt(timer);
  return at !== null && now >= at;
}

// ── Retry policy ────────────────────────────────────────────────────────────────────────────

/** Retry while fewer than 3 retries have failed, unless the query opts out of retrying. */
export function shouldRetry(failureCount: number, options: { retry?: boolean } = {}): boolean {
  return options.retry !== false && failureCount < RETRY_COUNT;
}

/** Delay before retry number `attempt` (0-based): 1 s, doubling, capped at 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** attempt, RETRY_MAX_DELAY_MS);
}

export function cacheDurationMs(kind: CacheKind = 'default'): number {
  return CACHE_DURATIONS_MS[kind];
}

// ── Relative time ───────────────────────────────────────────────────────────────────────────

export type RelativeUnit = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year';

/** Value and unit for Intl.RelativeTimeFormat; negative for the past. */
export function relativeTime(thenMs: number, nowMs: number): { value: number; unit: RelativeUnit } {
  const deltaS = (thenMs - nowMs) / 1000;
  const sign = deltaS < 0 ? -1 : 1;
  const s = Math.floor(Math.abs(deltaS));
  const out = (value: number, unit: RelativeUnit) => ({ value: value === 0 ? 0 : sign * value, unit });
  if (s < RELATIVE_TIME_LIMITS.second) return out(s, 'second');
  const minutes = Math.floor(s / 60);
  if (minutes < RELATIVE_TIME_LIMITS.minute) return out(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < RELATIVE_TIME_LIMITS.hour) return out(hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days < RELATIVE_TIME_LIMITS.day) return out(days, 'day');
  const months = Math.floor(days / 30);
  if (months < RELATIVE_TIME_LIMITS.month) return out(months, 'month');
  return out(Math.max(1, Math.floor(days / 365)), 'year');
}

// ── Browser-translation warning ─────────────────────────────────────────────────────────────

function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  // 31 January + 1 month is the last day of February, not 3 March.
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** Shown when translation is detected and it was never dismissed or was dismissed over one month ago. */
export function showTranslationWarning(translationDetected: boolean, dismissedAt: Date | null, now: Date): boolean {
  if (!translationDetected) return false;
  return dismissedAt === null || now.getTime() > addMonths(dismissedAt, TRANSLATION_WARNING_REAPPEAR_MONTHS).getTime();
}
