// Time strings and time entry (section 5). Durations are whole seconds.
//
//   "75"       one part: minutes or seconds, as the caller says
//   "m:ss"     seconds below 60 once minutes are above 0 ("0:75" is 75 s)
//   "h:mm:ss"  hours 0–99, minutes below 60 once hours are above 0, seconds below 60
import { TIME_HOURS_MAX } from './constants.ts';
import { formError, type FormError } from './form-errors.ts';
import { domainMessage } from './messages.ts';

export type SinglePartUnit = 'minutes' | 'seconds';

export function parseTimeString(text: string, singlePart: SinglePartUnit = 'seconds'): number | null {
  const parts = text.trim().split(':');
  if (!parts.every((p) => /^\d+$/.test(p))) return null;
  const n = parts.map(Number);
  if (n.length === 1) return singlePart === 'minutes' ? n[0]! * 60 : n[0]!;
  if (n.length === 2) {
    const [m, s] = n as [number, number];
    return m > 0 && s >= 60 ? null : m * 60 + s;
  }
  if (n.length === 3) {
    const [h, m, s] = n as [number, number, number];
    if (h > TIME_HOURS_MAX || (h > 0 && m >= 60) || s >= 60) return null;
    return h * 3600 + m * 60 + s;
  }
  return null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'm:ss' below an hour, 'h:mm:ss' from an hour; an unknown duration shows '--:--'. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) {
    return domainMessage('domain_unknown_duration');
  }
  const total = Math.floor(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

const ENTRY_PATTERN = /^(\d{2,3}):(\d{2}):(\d{2})$/;

/** Time entry: format HH:MM:SS, hours at most 99. */
export function validateTimeEntry(text: string | null | undefined, options: { required?: boolean } = {}): FormError | null {
  if (text === null || text === undefined || text.trim() === '') {
    return options.required === true ? formError('required', 'domain_required') : null;
  }
  const m = ENTRY_PATTERN.exec(text.trim());
  if (!m) return formError('invalid', 'domain_time_invalid');
  const [h, min, s] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  if (h > TIME_HOURS_MAX) return formError('outOfRange', 'domain_time_hours_max', { max: TIME_HOURS_MAX }, 'overflow');
  if (min >= 60 || s >= 60) return formError('invalid', 'domain_time_invalid');
  return null;
}

/** Seconds of a valid HH:MM:SS entry, else null. */
export function parseTimeEntry(text: string): number | null {
  if (validateTimeEntry(text, { required: true }) !== null) return null;
  const [h, m, s] = text.trim().split(':').map(Number) as [number, number, number];
  return h * 3600 + m * 60 + s;
}

/** HH:MM:SS for a duration, capped at 99:59:59 (the largest entry). */
export function formatTimeEntry(seconds: number): string {
  const total = Math.min(Math.max(0, Math.floor(seconds)), TIME_HOURS_MAX * 3600 + 3599);
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** A time within something of known length (an annotation in a recording, a cut of a clip's
 *  audio): at most its end, which the message names ('The recording ends at 00:00:12…', 'The clip
 *  ends at …'). An unknown length (a recording still processing) allows any time. */
export function validateTimeWithin(seconds: number, lengthSeconds: number | null | undefined, of: 'recording' | 'clip' = 'recording'): FormError | null {
  if (lengthSeconds === null || lengthSeconds === undefined || !Number.isFinite(lengthSeconds) || lengthSeconds <= 0) return null;
  const message = of === 'clip' ? 'domain_time_after_clip_end' : 'domain_time_after_end';
  return seconds > lengthSeconds ? formError('outOfRange', message, { max: formatTimeEntry(lengthSeconds) }, 'overflow') : null;
}
