// Typed failures and warnings of the media pipeline. Every decoder throws MediaError (never a bare
// Error), so the worker can post a code and the server can turn it into an AudioProcessingProblem.

export const MediaErrorCode = {
  /** Zero bytes. */
  EmptyFile: 'emptyFile',
  /** The bytes are not a known audio or video container (e.g. text with an .mp3 name). */
  NotAudio: 'notAudio',
  /** A known container with no audio track. */
  NoAudioTrack: 'noAudioTrack',
  /** The file ends before any audio could be decoded. */
  Truncated: 'truncated',
  /** A variant of a format we do not read (e.g. compressed AIFF-C, 12-bit PCM). */
  UnsupportedEncoding: 'unsupportedEncoding',
  /** No decoder for this codec exists in this environment (e.g. AAC in Node, which has no WebCodecs). */
  UnsupportedInEnvironment: 'unsupportedInEnvironment',
  /** The decoder rejected the data. */
  DecodeFailed: 'decodeFailed',
  /** The caller's AbortSignal fired. */
  Aborted: 'aborted',
  // Fetching the file (a URL source, waveform files), as opposed to decoding it:
  /** The device is offline and the file is not kept on it. */
  Offline: 'offline',
  /** The request failed before any answer: no route to the server, DNS, connection refused. */
  Unreachable: 'unreachable',
  /** The server answered that it has no such file (404, 410). */
  NotAvailable: 'notAvailable',
  /** The server answered with another error status (details.status). */
  DownloadFailed: 'downloadFailed',
} as const;
export type MediaErrorCode = (typeof MediaErrorCode)[keyof typeof MediaErrorCode];

export class MediaError extends Error {
  override readonly name = 'MediaError';
  constructor(
    readonly code: MediaErrorCode,
    message: string,
    readonly details: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

export function isMediaError(e: unknown): e is MediaError {
  return e instanceof MediaError;
}

export const MediaWarningCode = {
  /** The file stops before the end its headers announce; what was there was decoded. */
  TruncatedFile: 'truncatedFile',
  /** The decoder skipped damaged frames. */
  DamagedFrames: 'damagedFrames',
} as const;
export type MediaWarningCode = (typeof MediaWarningCode)[keyof typeof MediaWarningCode];
export type MediaWarning = { code: MediaWarningCode; details?: Record<string, string | number> };

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new MediaError(MediaErrorCode.Aborted, 'Decoding was cancelled');
}
