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

export function mediaProblemText(problem: { code: ErrorCode | WarningCode; details?: Record<string, string | number> }, locale?: Locale): string {
  const fn = catalogue[KEYS[problem.code]];
  if (!fn) throw new Error(`no media message for ${problem.code}`);
  const params = { encoding: '', codec: '', status: '', ...(problem.details ?? {}) };
  return locale === undefined ? fn(params) : fn(params, { locale });
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
