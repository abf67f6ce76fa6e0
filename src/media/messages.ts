// Words for media problems, from the media catalogue (locales/media). The server writes the
// English text into AudioProcessingProblem; the worker's callers show the user's locale.
import * as messages from '../paraglide/messages/_index.js';
import type { Locale } from '../paraglide/runtime.js';
import { isMediaError, MediaErrorCode, MediaWarningCode, type MediaErrorCode as ErrorCode, type MediaWarningCode as WarningCode } from './errors.ts';

type MessageFn = (inputs?: Record<string, unknown>, options?: { locale?: Locale }) => string;
const catalogue = messages as unknown as Record<string, MessageFn>;

const KEYS: Record<ErrorCode | WarningCode, string> = {
  [MediaErrorCode.EmptyFile]: 'media_problem_empty_file',
  [MediaErrorCode.NotAudio]: 'media_problem_not_audio',
  [MediaErrorCode.NoAudioTrack]: 'media_problem_no_audio_track',
  [MediaErrorCode.Truncated]: 'media_problem_truncated',
  [MediaErrorCode.UnsupportedEncoding]: 'media_problem_unsupported_encoding',
  [MediaErrorCode.UnsupportedInEnvironment]: 'media_problem_unsupported_in_environment',
  [MediaErrorCode.DecodeFailed]: 'media_problem_decode_failed',
  [MediaErrorCode.Aborted]: 'media_problem_aborted',
  [MediaErrorCode.Offline]: 'media_problem_offline',
  [MediaErrorCode.Unreachable]: 'media_problem_unreachable',
  [MediaErrorCode.NotAvailable]: 'media_problem_not_available',
  [MediaErrorCode.DownloadFailed]: 'media_problem_download_failed',
  [MediaWarningCode.TruncatedFile]: 'media_problem_truncated_file',
  [MediaWarningCode.DamagedFrames]: 'media_problem_damaged_frames',
};

/** The values a media message may name; absent ones read as empty. */
const PARAMS = ['encoding', 'codec', 'status'] as const;

/** The catalogue's message `key` with `values` (a value not given reads as empty), in `locale`
 * (default: the current one). */
function render(key: string, values: Record<string, string | number> | undefined, locale?: Locale): string {
  const fn = catalogue[key];
  if (!fn) throw new Error(`no media message ${key}`);
  const params = { ...Object.fromEntries(PARAMS.map((p) => [p, ''])), ...(values ?? {}) };
  return locale === undefined ? fn(params) : fn(params, { locale });
}

export function mediaProblemText(problem: { code: ErrorCode | WarningCode; details?: Record<string, string | number> }, locale?: Locale): string {
  return render(KEYS[problem.code], problem.details, locale);
}

/** Each media message as the server writes it (en-US), as a pattern that gives back its values. */
let englishPatterns: Array<{ key: string; pattern: RegExp }> | null = null;

function patterns(): Array<{ key: string; pattern: RegExp }> {
  if (englishPatterns) return englishPatterns;
  const marker = (p: string) => `\u0000${p}\u0000`;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  englishPatterns = [...new Set(Object.values(KEYS))].map((key) => {
    const template = render(key, Object.fromEntries(PARAMS.map((p) => [p, marker(p)])), 'en-US');
    let source = escape(template);
    for (const p of PARAMS) source = source.replace(escape(marker(p)), `(?<${p}>.*)`);
    return { key, pattern: new RegExp(`^${source}$`, 's') };
  });
  return englishPatterns;
}

/**
 * A clip's AudioProcessingProblem in the user's language. The server writes the field in English
 * (mediaProblemText(…, 'en-US'): it is text in the specification, the same for every reader), so
 * a German user read "Warnung: The file ends before…". A text one of the media messages makes in
 * English is made again in `locale` (default: the current one), with the values it names (an
 * encoding, a codec, a status); any other text (an earlier release's, another tool's) stays as it is.
 */
export function processingProblemText(text: string, locale?: Locale): string {
  for (const { key, pattern } of patterns()) {
    const match = pattern.exec(text);
    if (match) return render(key, match.groups, locale);
  }
  return text;
}

/**
 * The words for anything a fetch, decode or render threw: its own problem (offline, not on the
 * server, …), or "could not be decoded" for anything else.
 */
export function mediaFailureText(e: unknown, locale?: Locale, options: { deviceOffline?: boolean } = {}): string {
  if (!isMediaError(e)) return mediaProblemText({ code: MediaErrorCode.DecodeFailed }, locale);
  // The browser's own online flag can read true just after an offline reload: the caller's better
  // knowledge that the device is offline turns "could not be reached" into "not offline yet".
  const code = options.deviceOffline && e.code === MediaErrorCode.Unreachable ? MediaErrorCode.Offline : e.code;
  return mediaProblemText({ code, details: e.details }, locale);
}
