// Automatic transcription (issue 34): the states a clip's or recording's TranscriptStatus goes
// through when a transcript is asked for (POST …/transcript), shared by the server's job
// (sync-server/transcription/job.ts) and the transcript section on the clip screen.
//
//   POST …/transcript ──> Queued ──job starts──> InProgress ──engine's cues saved──> Completed
//                           ▲                      │
//                           └── attempt failed, ───┤  (the reason kept; tried again per the job's attempts)
//                               another is due     └── last attempt failed, or nothing to retry ──> Failed (with why)
//
// Completed is also what an imported or edited transcript has (sync-server/api/transcripts.ts),
// and none (null) a clip without one. Asking again while Queued or InProgress is refused.

import { isLiveAudioUrl } from '../protocol/api/live-recordings.ts';

export const TranscriptStatus = {
  Queued: 'Queued',
  InProgress: 'InProgress',
  Completed: 'Completed',
  Failed: 'Failed',
} as const;
export type TranscriptStatus = (typeof TranscriptStatus)[keyof typeof TranscriptStatus];

/** A transcription is under way: another request would race it. */
export const isTranscribing = (status: string | null | undefined): boolean => status === TranscriptStatus.Queued || status === TranscriptStatus.InProgress;

/**
 * Why a recording has no audio to transcribe, or null when it has: 'live' (an agent's stream still
 * coming in: the whole audio exists once it has ended; a Live recording with a stored file has it),
 * 'processing' (the audio is being made), 'lost' (a stream cut off with none of its audio kept,
 * HasTornAudio), 'none' (no audio link) or 'empty' (0 s). The server refuses these with 409 and the
 * screen says why instead of offering "Transcribe automatically".
 */
export type NoAudioReason = 'live' | 'processing' | 'lost' | 'empty' | 'none';
export function recordingNoAudio(recording: { State: string; HasTornAudio: boolean; DurationSeconds: number | null; Urls: { AudioUrl: string | null } }): NoAudioReason | null {
  if (recording.State === 'Live' && isLiveAudioUrl(recording.Urls.AudioUrl)) return 'live';
  if (recording.State === 'Processing') return 'processing';
  if (!recording.Urls.AudioUrl) return recording.HasTornAudio ? 'lost' : 'none';
  if (recording.DurationSeconds === 0) return 'empty';
  return null;
}

/** The message of each reason (locales/domain), said by the server's refusal and the screen alike. */
export const NO_AUDIO_MESSAGE = {
  live: 'domain_transcription_no_audio_live',
  processing: 'domain_transcription_no_audio_processing',
  lost: 'domain_transcription_no_audio_lost',
  empty: 'domain_transcription_no_audio_empty',
  none: 'domain_transcription_no_audio_none',
} as const satisfies Record<NoAudioReason, string>;
