// Time strings and time entry (section 5). Durations are whole seconds, except a position in
// audio (a selection's start or end), which may have a fraction of a second (readPreciseTime).
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

// ── Positions in audio, with a fraction of a second ────────────────────────────────────────────
//   "1.5"  "0:01.5"  "1:02.25"  "00:01:02.5"  "1:02:03,75"
// The section 5 shapes and bounds above, and the last part may carry up to three decimals
// (milliseconds, finer than any cut needs) after a point or a comma (the decimal sign of German,
// French, Spanish, Italian and Portuguese typists). The bounds apply to the whole seconds: "0:59.9"
// is below 60 s, "1:60.0" is not.

/** Decimals a typed position may carry: milliseconds. */
export const PRECISE_TIME_DECIMALS_MAX = 3;

const PRECISE_LAST = new RegExp(`^(\\d+)(?:[.,](\\d{1,${PRECISE_TIME_DECIMALS_MAX}}))?$`);

/** Why a typed position was refused, for the screen to put into words beside the field. */
export type PreciseTimeProblem = 'required' | 'shape' | 'hours';

export type PreciseTimeReading = { ok: true; seconds: number } | { ok: false; problem: PreciseTimeProblem; error: FormError };

/**
 * A typed position in audio (the cut editor's selection boxes), in seconds with its fraction;
 * one part is `singlePart` (seconds by default). An empty text is `required`; more than 99 hours
 * is `hours` (the time entry's 'Hours cannot be more than 99'); anything else outside the rules is
 * `shape`, for which the screen names the accepted forms.
 */
export function readPreciseTime(text: string | null | undefined, singlePart: SinglePartUnit = 'seconds'): PreciseTimeReading {
  const refused = (problem: PreciseTimeProblem, error: FormError): PreciseTimeReading => ({ ok: false, problem, error });
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return refused('required', formError('required', 'domain_required'));
  const shape = () => refused('shape', formError('invalid', 'domain_time_invalid'));
  const parts = trimmed.split(':');
  if (parts.length > 3) return shape();
  const last = PRECISE_LAST.exec(parts.at(-1)!);
  if (!last || !parts.slice(0, -1).every((p) => /^\d+$/.test(p))) return shape();
  // The fraction is added as a count of thousandths, so "0:01.1" is exactly 1.1 (no 1.1000000000000001).
  const fraction = last[2] ? Number(last[2].padEnd(PRECISE_TIME_DECIMALS_MAX, '0')) : 0;
  const withFraction = (whole: number) => (whole * 1000 + fraction) / 1000;
  const n = [...parts.slice(0, -1).map(Number), Number(last[1])];
  if (n.length === 1) {
    // A single part read as minutes: "1.5" is a minute and a half.
    return { ok: true, seconds: singlePart === 'minutes' ? ((n[0]! * 1000 + fraction) * 60) / 1000 : withFraction(n[0]!) };
  }
  if (n.length === 2) {
    const [m, s] = n as [number, number];
    return m > 0 && s >= 60 ? shape() : { ok: true, seconds: withFraction(m * 60 + s) };
  }
  const [h, m, s] = n as [number, number, number];
  if (h > TIME_HOURS_MAX) return refused('hours', formError('outOfRange', 'domain_time_hours_max', { max: TIME_HOURS_MAX }, 'overflow'));
  if ((h > 0 && m >= 60) || s >= 60) return shape();
  return { ok: true, seconds: withFraction(h * 3600 + m * 60 + s) };
}

/**
 * HH:MM:SS with tenths when there are any ("00:00:01.5"; "00:00:02" for 2.04 s), so what a drag
 * selected can be read in the boxes and typed back; capped at 99:59:59.9.
 */
export function formatPreciseTime(seconds: number): string {
  const tenths = Math.min(Math.max(0, Math.round(seconds * 10)), (TIME_HOURS_MAX * 3600 + 3599) * 10 + 9);
  const whole = Math.floor(tenths / 10);
  const t = tenths % 10;
  return t === 0 ? formatTimeEntry(whole) : `${formatTimeEntry(whole)}.${t}`;
}
