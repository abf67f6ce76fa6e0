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

export const TranscriptStatus = {
  Queued: 'Queued',
  InProgress: 'InProgress',
  Completed: 'Completed',
  Failed: 'Failed',
} as const;
export type TranscriptStatus = (typeof TranscriptStatus)[keyof typeof TranscriptStatus];

/** A transcription is under way: another request would race it. */
export const isTranscribing = (status: string | null | undefined): boolean => status === TranscriptStatus.Queued || status === TranscriptStatus.InProgress;
