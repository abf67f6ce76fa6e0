// Display labels for values the screens show (through messages).
import { normalizeRecording } from '../domain/recording.ts';
import { m } from '../paraglide/messages.js';
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

/** h:mm:ss or m:ss; '--:--' when unknown (section 5). */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
}

/** Relative time with the buckets of section 9 (seconds < 60, minutes < 60, hours < 24, days < 30, months < 12, years). */
export function relativeTime(fromMs: number, nowMs: number, locale: string): string {
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const diff = (fromMs - nowMs) / 1000;
  const abs = Math.abs(diff);
  if (abs < 60) return rtf.format(Math.round(diff), 'second');
  if (abs < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), 'hour');
  if (abs < 30 * 86400) return rtf.format(Math.round(diff / 86400), 'day');
  if (abs < 365 * 86400) return rtf.format(Math.round(diff / (30 * 86400)), 'month');
  return rtf.format(Math.round(diff / (365 * 86400)), 'year');
}
