// Loudness normalization of a clip (issue 34), the rules the clip screen and the server share: the
// states of a clip's normalization, what "done" means for a preset, and the gain that gets there.
//
//   processed ──preset chosen (program's, else organization's)──> Waiting ──job──> Running ──> Done
//       │                                                            ▲                   └──> Failed (why)
//       └──no preset──> NotNormalized                                └── "normalize again" (clip.normalizeLoudness)
//
// A preset changed later does not touch clips already processed; only the action does.
import { formError, type FormError } from './form-errors.ts';

export const LOUDNESS_STATES = ['NotMeasured', 'NotNormalized', 'Waiting', 'Running', 'Done', 'Failed'] as const;
export type LoudnessState = (typeof LOUDNESS_STATES)[number];

/** Why a normalization failed (Problem), in words on the screen:
 *  TooQuiet  the audio is too quiet for the gates (silence): no gain would reach the target
 *  Video     a video clip is published as uploaded; re-encoding its audio alone would drop the picture
 *  Unreadable the original upload or the rendered version does not decode
 *  Missed    after its attempts the published file still misses the target or the true peak
 *  Error     the job gave up after repeated failures around it (the disk, the database) */
export const LOUDNESS_PROBLEMS = ['TooQuiet', 'Video', 'Unreadable', 'Missed', 'Error'] as const;
export type LoudnessProblem = (typeof LOUDNESS_PROBLEMS)[number];

/** The normalized integrated loudness lands within this of the preset's target (LU). */
export const LOUDNESS_TOLERANCE_LU = 0.5;
/** The limiter's ceiling starts this far under the preset's true peak: MP3 encoding adds overshoot. */
export const ENCODER_HEADROOM_DB = 1;

export type LoudnessTarget = { IntegratedLoudness: number; TruePeak: number };
export type LoudnessFigures = { IntegratedLoudness: number | null; TruePeak: number | null; LoudnessRange: number | null };

/** The gain (dB) that brings audio measured at `integratedLufs` to the target. */
export const normalizationGainDb = (integratedLufs: number, target: LoudnessTarget) => target.IntegratedLoudness - integratedLufs;

/** Whether published audio measuring `after` meets the preset: on target within the tolerance, true peak at most the preset's. */
export function meetsTarget(after: LoudnessFigures, target: LoudnessTarget): boolean {
  if (after.IntegratedLoudness === null) return false;
  const peakOk = after.TruePeak === null || after.TruePeak <= target.TruePeak;
  return peakOk && Math.abs(after.IntegratedLoudness - target.IntegratedLoudness) <= LOUDNESS_TOLERANCE_LU;
}

/** A normalization's own states: the job is under way (the screen polls; asking again only queues
 *  it again), and only these does the job claim, or fail when it gives up. */
export const LOUDNESS_BUSY_STATES = ['Waiting', 'Running'] as const satisfies readonly LoudnessState[];
export const loudnessBusy = (state: LoudnessState) => (LOUDNESS_BUSY_STATES as readonly LoudnessState[]).includes(state);

/** "Normalize again" needs a preset in effect and audio that has been measured; otherwise why not. */
export function normalizeAgainError(effectivePresetId: string | null, state: LoudnessState): FormError | null {
  if (effectivePresetId === null) return formError('invalid', 'domain_loudness_no_preset');
  if (state === 'NotMeasured') return formError('invalid', 'domain_loudness_not_measured');
  return null;
}
