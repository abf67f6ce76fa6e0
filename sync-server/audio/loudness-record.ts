// A clip's loudness row (clip_loudness, 0553) and the steps that write it:
//
//   processing job (versions.ts) ── a new version ──> measured (EBU R128, src/media/loudness.ts),
//        the figures kept in its version.json and, in the version's transaction, as the row's Before:
//        preset in effect ? Waiting + the normalization job (loudness-job.ts) : NotNormalized
//   clip.normalizeLoudness (the outbox's "normalize again") ──> Waiting + the job, for the preset in
//        effect NOW (a preset changed later never reprocesses a clip by itself; a version made
//        again of the same upload, for a new cut or new chapters, keeps the clip's preset)
//
// The preset in effect is the program's choice, else the organization's (src/domain/settings.ts).
import { LOUDNESS_BUSY_STATES, normalizeAgainError, type LoudnessFigures, type LoudnessProblem, type LoudnessState } from '../../src/domain/loudness.ts';
import { effectiveNormalization, type NormalizationChoice, type NormalizationSource } from '../../src/domain/settings.ts';
import { openAudioDecoding } from '../../src/media/decode.ts';
import { measureLoudness, type LoudnessMeasurement } from '../../src/media/loudness.ts';
import { blobSource } from '../../src/media/source.ts';
import { clipNormalizeLoudness } from '../../src/mutations/loudness.ts';
import type { ClipLoudness } from '../../src/protocol/api/loudness.ts';
import { registerNodeAudioDecoders } from '../media/node-decoder.ts';
import { assertValid } from '../errors.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { serverMutation, type ServerMutation } from '../mutations/run.ts';
import { lockContent } from '../mutations/store.ts';
import { NORMALIZATION_PRESETS, type NormalizationPresetEntry } from '../reference/normalization-presets.ts';
import { loadRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import type { BlobStore } from './blob-store.ts';

registerNodeAudioDecoders();

export const CLIP_NORMALIZE_JOB = 'clip.normalizeLoudness';

export type NormalizeJob = { organizationId: string; clipId: string; userId: string | null };

export const presetById = (id: string | null): NormalizationPresetEntry | null => NORMALIZATION_PRESETS.find((p) => p.Id === id) ?? null;

export const figuresOf = (m: LoudnessMeasurement): LoudnessFigures => ({ IntegratedLoudness: m.integratedLufs, TruePeak: m.truePeakDbtp, LoudnessRange: m.loudnessRangeLu });

/** Measures a stored audio file (a version's); null when it does not decode (the processing job says why elsewhere). */
export async function measureStoredLoudness(blobs: BlobStore, key: string): Promise<LoudnessMeasurement | null> {
  try {
    const decoding = await openAudioDecoding(blobSource(await blobs.blob(key)), { reuseBuffers: true });
    return await measureLoudness(decoding.blocks);
  } catch {
    return null;
  }
}

/** The normalization the clip's program gets now, and whose choice it is. */
export async function presetInEffect(q: Queryable, organizationId: string, programId: string): Promise<{ PresetId: string | null; Source: NormalizationSource }> {
  const [organization, program] = await Promise.all([loadRow(q, 'organization', organizationId, organizationId), loadRow(q, 'program', organizationId, programId)]);
  const choice = (row: Record<string, unknown> | null) => (row?.['Normalization'] as NormalizationChoice | null | undefined) ?? null;
  return effectiveNormalization(choice(organization), choice(program));
}

const enqueueNormalize = (q: Queryable, job: NormalizeJob) =>
  enqueueJob(q, CLIP_NORMALIZE_JOB, job, { singletonKey: `${CLIP_NORMALIZE_JOB}:${job.clipId}`, rerunIfRunning: true, maxAttempts: 3 });

/**
 * In the transaction that makes a new version the clip's: its figures as Before, and the
 * normalization queued (or NotNormalized without a preset). New audio gets the preset in effect
 * now; a version made again of the same upload (a new cut, new chapters) keeps the clip's preset,
 * so a preset changed meanwhile never reaches the clip unless it is asked to.
 */
export async function noteVersionLoudness(q: Queryable, job: NormalizeJob, measured: LoudnessMeasurement | null, upload: string): Promise<void> {
  const clip = await loadRow(q, 'clip', job.organizationId, job.clipId);
  if (!clip) return;
  const kept = await loadLoudnessRow(q, job.clipId, true);
  const PresetId = kept && kept.upload === upload ? kept.preset_id : (await presetInEffect(q, job.organizationId, String(clip['ProgramId']))).PresetId;
  // A version that could not be measured is NotMeasured, with no figures: an earlier version's
  // (Done, or a run's Running, which nothing would end) no longer describe the audio published.
  // The preset stays chosen for its upload, as for a measured version.
  const state: LoudnessState = !measured ? 'NotMeasured' : PresetId ? 'Waiting' : 'NotNormalized';
  await q.query(
    `INSERT INTO clip_loudness (clip_id, organization_id, state, preset_id, upload, problem, before_integrated, before_true_peak, before_range,
       after_integrated, after_true_peak, after_range, gain_db, modified_at_utc)
     VALUES ($1, $2, $3, $4, $8, NULL, $5, $6, $7, NULL, NULL, NULL, NULL, now())
     ON CONFLICT (clip_id) DO UPDATE SET state = EXCLUDED.state, preset_id = EXCLUDED.preset_id, upload = EXCLUDED.upload, problem = NULL,
       before_integrated = EXCLUDED.before_integrated, before_true_peak = EXCLUDED.before_true_peak, before_range = EXCLUDED.before_range,
       after_integrated = NULL, after_true_peak = NULL, after_range = NULL, gain_db = NULL, modified_at_utc = now()`,
    [job.clipId, job.organizationId, state, PresetId, measured?.integratedLufs ?? null, measured?.truePeakDbtp ?? null, measured?.loudnessRangeLu ?? null, upload],
  );
  if (measured && PresetId) await enqueueNormalize(q, job);
}

export type LoudnessRow = {
  state: LoudnessState;
  preset_id: string | null;
  upload: string | null;
  problem: LoudnessProblem | null;
  before_integrated: number | null;
  before_true_peak: number | null;
  before_range: number | null;
  after_integrated: number | null;
  after_true_peak: number | null;
  after_range: number | null;
  gain_db: number | null;
  modified_at_utc: Date | string;
  /** modified_at_utc as the database writes it (to the microsecond): what claimLoudnessRun compares. */
  token: string;
};

export async function loadLoudnessRow(q: Queryable, clipId: string, forUpdate = false): Promise<LoudnessRow | null> {
  const rows = await q.query<LoudnessRow>(`SELECT *, modified_at_utc::text AS token FROM clip_loudness WHERE clip_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [clipId]);
  return rows[0] ?? null;
}

/** Moves the row to a state (with why, for Failed). */
export async function setLoudnessState(q: Queryable, clipId: string, state: LoudnessState, problem: LoudnessProblem | null = null): Promise<void> {
  await q.query(`UPDATE clip_loudness SET state = $2, problem = $3, modified_at_utc = now() WHERE clip_id = $1`, [clipId, state, problem]);
}

/**
 * The normalization job's claim on the request it read (`row`, as loadLoudnessRow gave it): the
 * row goes Running unless it changed since ("normalize again" to another preset, a new version's
 * figures), whose own job runs after this one. Returns the run's token, which the run's result
 * must still match to be written (loudnessRunStands), or null when there is nothing to claim.
 */
export async function claimLoudnessRun(q: Queryable, clipId: string, row: LoudnessRow): Promise<string | null> {
  const rows = await q.query<{ token: string }>(
    `UPDATE clip_loudness SET state = 'Running', problem = NULL, modified_at_utc = now()
     WHERE clip_id = $1 AND state = ANY($3::text[]) AND modified_at_utc::text = $2 RETURNING modified_at_utc::text AS token`,
    [clipId, row.token, LOUDNESS_BUSY_STATES],
  );
  return rows[0]?.token ?? null;
}

/** The SQL condition (with the run's token as parameter `$n`) under which a run's result is still the one asked for. */
export const loudnessRunStands = (n: number) => `state = 'Running' AND modified_at_utc::text = $${n}`;

/** A run's failure, written only while the run's request stands: a newer request keeps its Waiting. */
export async function failLoudnessRun(q: Queryable, clipId: string, token: string, problem: LoudnessProblem): Promise<void> {
  await q.query(`UPDATE clip_loudness SET state = 'Failed', problem = $2, modified_at_utc = now() WHERE clip_id = $1 AND ${loudnessRunStands(3)}`, [clipId, problem, token]);
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The row as the API answers it. */
export function loudnessToWire(clipId: string, row: LoudnessRow | null, effective: { PresetId: string | null; Source: NormalizationSource }): ClipLoudness {
  const figures = (i: unknown, t: unknown, r: unknown) => ({ IntegratedLoudness: num(i), TruePeak: num(t), LoudnessRange: num(r) });
  return {
    ClipId: clipId,
    State: row?.state ?? 'NotMeasured',
    PresetId: row?.preset_id ?? null,
    EffectivePresetId: effective.PresetId,
    EffectiveSource: effective.Source,
    Problem: row?.problem ?? null,
    Before: row && row.before_integrated !== null ? figures(row.before_integrated, row.before_true_peak, row.before_range) : null,
    After: row && row.after_integrated !== null ? figures(row.after_integrated, row.after_true_peak, row.after_range) : null,
    GainDb: num(row?.gain_db),
    ModifiedAtUtc: row ? new Date(row.modified_at_utc).toISOString() : null,
  };
}

/** "Normalize again to the current preset": the preset in effect now, Waiting, the job queued; refused at clipId without one. */
export function loudnessMutationRuns(): ServerMutation[] {
  return [
    serverMutation(clipNormalizeLoudness, async (s, a) => {
      const { current } = await lockContent(s, 'clip', a.clipId);
      const { PresetId } = await presetInEffect(s.q, s.auth.organizationId, String(current['ProgramId']));
      const row = await loadLoudnessRow(s.q, a.clipId, true);
      assertValid([['clipId', normalizeAgainError(PresetId, row?.state ?? 'NotMeasured')]]);
      await s.q.query(`UPDATE clip_loudness SET state = 'Waiting', preset_id = $2, problem = NULL, modified_at_utc = now() WHERE clip_id = $1`, [a.clipId, PresetId]);
      await enqueueNormalize(s.q, { organizationId: s.auth.organizationId, clipId: a.clipId, userId: s.auth.user.Id });
      return current;
    }),
  ];
}
