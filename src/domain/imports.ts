// An import from another podcast host, as section 3's operation progress (Status Busy, Failed or
// Success) follows from its parts: the feed (fetched, read, its rows written) and each episode's
// audio (fetched into the clip's upload pipeline, then processed as any upload).
//
//   feed:     Queued ─> FetchingFeed ─> Importing ─> Done
//                  └──────────┴────────────┴──────> Failed (the reason on the import)
//   episode:  Queued ─> Fetching ─> Processing ─> Done
//                  └───────┴───────────┴────────> Failed (the reason on the episode)
//
// Busy while the feed or any episode is on its way; Failed once everything has ended and the feed
// or any episode failed; Success when everything is Done.
import type { OperationStatus } from './polling.ts';

export const IMPORT_STAGES = ['Queued', 'FetchingFeed', 'Importing', 'Done', 'Failed'] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];

export const IMPORT_EPISODE_STATES = ['Queued', 'Fetching', 'Processing', 'Done', 'Failed'] as const;
export type ImportEpisodeState = (typeof IMPORT_EPISODE_STATES)[number];

export function importStatus(stage: ImportStage, episodes: readonly ImportEpisodeState[]): OperationStatus {
  if (stage === 'Queued' || stage === 'FetchingFeed' || stage === 'Importing') return 'Busy';
  if (episodes.some((s) => s === 'Queued' || s === 'Fetching' || s === 'Processing')) return 'Busy';
  if (stage === 'Failed' || episodes.includes('Failed')) return 'Failed';
  return 'Success';
}

/** Why an import or one of its episodes failed (the API's ErrorCode; the screens say it in words). */
export const ImportErrorCode = {
  /** The address is not http(s), or names a private, loopback, link-local or metadata address. */
  RefusedTarget: 'ImportRefusedTarget',
  /** The host answered with an error status (the status is in the message). */
  HttpStatus: 'ImportHttpStatus',
  /** No answer in time. */
  Timeout: 'ImportTimeout',
  /** The host could not be reached. */
  Unreachable: 'ImportUnreachable',
  /** More bytes than the limit (feed, chapters or audio). */
  TooLarge: 'ImportTooLarge',
  /** Too many redirects. */
  TooManyRedirects: 'ImportTooManyRedirects',
  /** Not an RSS feed the parser reads. */
  FeedUnreadable: 'ImportFeedUnreadable',
  /** The feed says podcast:locked yes: its owner does not allow it to be imported. */
  FeedLocked: 'ImportFeedLocked',
  /** More episodes than the limit. */
  TooManyEpisodes: 'ImportTooManyEpisodes',
  /** The episode has no enclosure, or one that is not audio of a supported format. */
  NoAudio: 'ImportNoAudio',
  /** The clip's audio was fetched but could not be processed (AudioProcessingProblem). */
  AudioProcessing: 'ImportAudioProcessing',
  /** The importing user can no longer write here (permissions changed, program deleted). */
  NotAllowed: 'ImportNotAllowed',
  /** Anything else (the message says what). */
  Failed: 'ImportFailed',
} as const;
export type ImportErrorCode = (typeof ImportErrorCode)[keyof typeof ImportErrorCode];
