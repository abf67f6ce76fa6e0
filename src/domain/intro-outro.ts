// A program's intro and outro (specification section 7: PUT/DELETE
// /v1/programs/{programId}/settings/audio/{type}, GET /v1/programs/settings/audio/{operationId}).
// One copy of each rule, for the settings screen and the server alike.
//
// An upload becomes the program's intro or outro through an operation (section 3 "Operation
// progress": Id, Status Busy, Failed or Success):
//
//   PUT (file stored) ──> Busy ──decoded, 1 s … 10 min of audio──> Success: the program's intro/outro
//                          └──── not audio, silent length, too long ──> Failed (Reason: a code below)
//
// What it does to episodes: a clip's PUBLISHED audio is intro + the episode (its cut) + outro; the
// original upload is kept. Chapters and transcript cues stay on the episode's own timeline in the
// studio and are moved later by the intro's length where the published audio carries them.
import type { PermissionFlags } from './permissions.ts';
import { settingsAccess } from './settings.ts';

export const INTRO_OUTRO_TYPES = ['intro', 'outro'] as const;
export type IntroOutroType = (typeof INTRO_OUTRO_TYPES)[number];

export const isIntroOutroType = (value: string): value is IntroOutroType => (INTRO_OUTRO_TYPES as readonly string[]).includes(value);

/** The wire key of each type on the program's row (Program.IntroOutro). */
export const INTRO_OUTRO_KEY = { intro: 'Intro', outro: 'Outro' } as const satisfies Record<IntroOutroType, string>;

/**
 * The longest intro or outro taken: ten minutes. It is played before or after every episode of the
 * program, so a longer file is almost surely the wrong file (a whole episode picked by mistake).
 */
export const INTRO_OUTRO_MAX_SECONDS = 600;
/** The shortest: a second (a file of a few frames decodes, but is no intro: a damaged export). */
export const INTRO_OUTRO_MIN_SECONDS = 1;

/** Why an operation failed: each has words on the settings screen. */
export const IntroOutroFailure = {
  /** The file did not decode as audio (wrong bytes behind an audio extension, damaged). */
  NotAudio: 'NotAudio',
  TooShort: 'TooShort',
  TooLong: 'TooLong',
  /** The processing itself failed after its retries (the store, the disk): try again. */
  Error: 'Error',
} as const;
export type IntroOutroFailure = (typeof IntroOutroFailure)[keyof typeof IntroOutroFailure];

/** A decoded length's verdict: null when it may be an intro or outro. */
export function introOutroLengthProblem(durationSeconds: number): typeof IntroOutroFailure.TooShort | typeof IntroOutroFailure.TooLong | null {
  if (!(durationSeconds >= INTRO_OUTRO_MIN_SECONDS)) return IntroOutroFailure.TooShort;
  if (durationSeconds > INTRO_OUTRO_MAX_SECONDS) return IntroOutroFailure.TooLong;
  return null;
}

export const OperationStatus = { Busy: 'Busy', Success: 'Success', Failed: 'Failed' } as const;
export type OperationStatus = (typeof OperationStatus)[keyof typeof OperationStatus];

/** Polling an operation: every 1.5 s while it is Busy (decoding an intro takes seconds). */
export const INTRO_OUTRO_POLL_MS = 1500;

/** Who may see and who may change a program's intro and outro: its settings' access (section 6). */
export const introOutroAccess = (flags: PermissionFlags) => settingsAccess('Program', flags);

/** The intro and outro a published version was made with: their lengths, in seconds. */
export type Bumpers = { introSeconds: number; outroSeconds: number };

/**
 * The published audio's length: the episode between the intro and the outro. Each is rendered
 * whole and back to back (no crossfade: an intro's own ending is the producer's choice).
 */
export const publishedSeconds = (episodeSeconds: number, bumpers: Bumpers) => bumpers.introSeconds + episodeSeconds + bumpers.outroSeconds;

/**
 * A time on the episode's own timeline (a chapter's start, a transcript cue's) as it falls in the
 * published audio: later by the intro's length.
 */
export const onPublishedTimeline = (episodeSeconds: number, bumpers: Pick<Bumpers, 'introSeconds'>) => episodeSeconds + bumpers.introSeconds;

/**
 * The other way: a time of the published audio (a player's position) on the episode's own timeline,
 * earlier by the intro's length; negative while the intro plays (no cue or chapter is heard yet).
 */
export const onEpisodeTimeline = (publishedSeconds: number, bumpers: Pick<Bumpers, 'introSeconds'>) => publishedSeconds - bumpers.introSeconds;

/** A clip's row as far as its published audio's intro and outro go (PublishedIntroSeconds,
 * PublishedOutroSeconds: absent, null or 0: none). */
export type WithPublishedBumpers = { PublishedIntroSeconds?: number | null | undefined; PublishedOutroSeconds?: number | null | undefined };

const seconds = (value: number | null | undefined) => (value != null && value > 0 ? value : 0);

/**
 * The studio's marker editors (a clip's chapters, its ad markers) play the clip's published audio
 * (Urls.AudioPrivateUrl) but place markers on the episode's own timeline, the one stored and
 * published: behind an intro the player is later by its length, and an outro plays after the
 * episode has ended. One conversion, both ways:
 *   toPlayer(t)     where the player goes for a time on the episode (a seek to a marker)
 *   fromPlayer(t)   the episode's time at the player's position (the playhead, a marker added there);
 *                   while the intro plays the episode has not begun: 0; while the outro plays it has
 *                   ended: its length
 *   episodeSeconds  the published length less the intro and the outro: what the markers' timeline spans
 */
export function markerTimeline(clip: WithPublishedBumpers, publishedDurationSeconds: number | null) {
  const intro = seconds(clip.PublishedIntroSeconds);
  const outro = seconds(clip.PublishedOutroSeconds);
  const episodeSeconds = publishedDurationSeconds === null ? null : Math.max(0, publishedDurationSeconds - intro - outro);
  return {
    introSeconds: intro,
    outroSeconds: outro,
    toPlayer: (episodeTime: number) => onPublishedTimeline(episodeTime, { introSeconds: intro }),
    fromPlayer: (playerSeconds: number) => Math.min(Math.max(0, playerSeconds - intro), episodeSeconds ?? Infinity),
    episodeSeconds,
  };
}

/**
 * The episode's length on a clip's row: its published length (DurationSeconds) less the intro it
 * starts with and the outro it ends with, or null when unknown. What its chapters and ad markers
 * are checked against (a start past it would fall in the outro, or past the audio), on the device
 * and on the server alike.
 */
export function episodeSecondsOf(row: object): number | null {
  // A synced row or the server's stored one: its fields read as they are, nothing assumed of their type.
  const { DurationSeconds: duration, PublishedIntroSeconds: intro, PublishedOutroSeconds: outro } = row as { DurationSeconds?: unknown; PublishedIntroSeconds?: unknown; PublishedOutroSeconds?: unknown };
  if (typeof duration !== 'number') return null;
  const orNull = (v: unknown) => (typeof v === 'number' ? v : null);
  return markerTimeline({ PublishedIntroSeconds: orNull(intro), PublishedOutroSeconds: orNull(outro) }, duration).episodeSeconds;
}
