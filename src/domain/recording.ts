// Recording normalisation (sections 3, 4 and 8). The server's State decides which links a
// recording must carry; what the state forbids is dropped, what it needs and lacks is a data error.
//
//   Processing ── no duration, no audio, no waveforms
//   Live ──────── audio required, duration optional, no waveforms
//   Finalized ─── audio + both waveforms + duration   (duration 0: zero-duration case, no audio)
import type { Normalised } from './clip.ts';

export const RecordingState = { Processing: 'Processing', Live: 'Live', Finalized: 'Finalized' } as const;
export type RecordingState = (typeof RecordingState)[keyof typeof RecordingState];

export type RecordingUrls = {
  AudioUrl: string | null;
  WaveformHighResUrl: string | null;
  WaveformLowResUrl: string | null;
};

export type RecordingFields = {
  State: string;
  DurationSeconds: number | null;
  Urls: RecordingUrls;
};

export const RecordingDataError = {
  FinalizedWithoutAudio: 'FinalizedWithoutAudio',
  FinalizedWithoutWaveformHighRes: 'FinalizedWithoutWaveformHighRes',
  FinalizedWithoutWaveformLowRes: 'FinalizedWithoutWaveformLowRes',
  FinalizedWithoutDuration: 'FinalizedWithoutDuration',
  LiveWithoutAudio: 'LiveWithoutAudio',
  UnhandledState: 'UnhandledState',
} as const;
export type RecordingDataError = (typeof RecordingDataError)[keyof typeof RecordingDataError];

/** Which of the section-4 cases a normalised recording is. */
export type RecordingPhase = 'processing' | 'live' | 'finalized' | 'finalizedZeroDuration';

export type NormalisedRecording<T extends RecordingFields> = T & { Phase: RecordingPhase };

const NO_URLS: RecordingUrls = { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null };

export function normalizeRecording<T extends RecordingFields>(raw: T): Normalised<NormalisedRecording<T>, RecordingDataError> {
  const ok = (Phase: RecordingPhase, patch: Partial<RecordingFields>) =>
    ({ ok: true, value: { ...raw, ...patch, Phase } }) as const;
  const fail = (error: RecordingDataError, field: string) => ({ ok: false, error, field }) as const;
  const { Urls, DurationSeconds } = raw;
  switch (raw.State) {
    case RecordingState.Processing:
      return ok('processing', { DurationSeconds: null, Urls: NO_URLS });
    case RecordingState.Live:
      if (Urls.AudioUrl === null) return fail('LiveWithoutAudio', 'Urls.AudioUrl');
      return ok('live', { Urls: { ...NO_URLS, AudioUrl: Urls.AudioUrl } });
    case RecordingState.Finalized:
      if (DurationSeconds === 0) return ok('finalizedZeroDuration', { Urls: { ...Urls, AudioUrl: null } });
      if (Urls.AudioUrl === null) return fail('FinalizedWithoutAudio', 'Urls.AudioUrl');
      if (Urls.WaveformHighResUrl === null) return fail('FinalizedWithoutWaveformHighRes', 'Urls.WaveformHighResUrl');
      if (Urls.WaveformLowResUrl === null) return fail('FinalizedWithoutWaveformLowRes', 'Urls.WaveformLowResUrl');
      if (DurationSeconds === null) return fail('FinalizedWithoutDuration', 'DurationSeconds');
      return ok('finalized', {});
    default:
      // "Other states are not handled."
      return fail('UnhandledState', 'State');
  }
}
