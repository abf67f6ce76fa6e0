// Display labels for values the screens show (through messages).
import { normalizeRecording } from '../domain/recording.ts';
import { relativeTime as relativeBucket } from '../domain/timing.ts';
import { m } from '../paraglide/messages.js';
import { getLocale } from './i18n.ts';
import type { Recording } from '../protocol/entities.ts';

export function visibilityLabel(v: string | null | undefined): string {
  switch (v) {
    case 'Public': return m.app_visibility_public();
    case 'Restricted': return m.app_visibility_restricted();
    case 'Unlisted': return m.app_visibility_unlisted();
    case 'Private': return m.app_visibility_private();
    default: return m.app_clip_none();
  }
}

export function publishStateLabel(p: string | null | undefined): string {
  switch (p) {
    case 'Published': return m.app_publish_published();
    case 'Publishing': return m.app_publish_publishing();
    case 'Unpublishing': return m.app_publish_unpublishing();
    default: return m.app_publish_unpublished();
  }
}

/** Recording State per section 4, with the data errors of section 8 shown as such. */
export function recordingStateLabel(r: Recording): string {
  const n = normalizeRecording(r);
  if (!n.ok) return n.error === 'UnhandledState' ? m.app_recording_state_other() : m.app_state_data_error();
  switch (n.value.Phase) {
    case 'processing': return m.app_recording_state_processing();
    case 'live': return m.app_recording_state_live();
    case 'finalized': return m.app_recording_state_finalized();
    case 'finalizedZeroDuration': return m.app_recording_state_zero();
  }
}

/** Durations as section 5 shows them ('--:--' when unknown). */
export { formatDuration as formatSeconds } from '../domain/time.ts';

/** Relative time with the buckets of section 9, in the reader's language. */
export function relativeTime(fromMs: number, nowMs: number, locale: string): string {
  const { value, unit } = relativeBucket(fromMs, nowMs);
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(value, unit);
}

/** A date and time in the interface language (not the browser's). */
export function formatDateTime(at: string | number, locale: string = getLocale()): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at));
}

/** A time of day in the interface language. */
export function formatTime(at: string | number, locale: string = getLocale()): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(new Date(at));
}

/** "{count} clips", with the singular, and the count in the interface language's digits. */
export function clipCountLabel(count: number): string {
  return m.app_program_clip_count({ count, countText: new Intl.NumberFormat(getLocale()).format(count) });
}
