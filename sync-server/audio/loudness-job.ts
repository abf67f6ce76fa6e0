// The loudness normalization job (clip.normalizeLoudness, queued by loudness-record.ts): the clip's
// ORIGINAL upload with its saved cut, rendered again through a gain and a true-peak limiter
// (src/media/limiter.ts), encoded to MP3 as every rendered version is (mp3-encode.ts), measured,
// and made the clip's PUBLISHED version; the original upload stays as it was.
//
//   Waiting ──> Running ──render (gain, limiter at the preset's true peak − headroom) ──> MP3 ──> measure
//                  ▲                                                                            │
//                  └─── missed: gain corrected by what was missed, ceiling lowered by the overshoot ┤ (3 tries)
//                                                                                               ▼
//   a version of its own + its waveforms ──ONE row write (the processing job's switch)──> Done (After)
//
// Why render from the original and not from the published MP3: a second lossy generation would
// add artefacts to every normalized clip. Why a limiter and not only a gain: a quiet recording
// raised to −16 LUFS would otherwise clip or exceed the preset's true peak. Why measure the MP3:
// the encoder's overshoot is only known after encoding, and After must be what listeners get.
// The preset's loudness range is shown against the measured one, not enforced: narrowing it takes
// a compressor, which changes the programme in ways a producer should choose.
import { randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { rm } from 'node:fs/promises';
import * as z from 'zod';
import { ENCODER_HEADROOM_DB, LOUDNESS_TOLERANCE_LU, loudnessBusy, meetsTarget, normalizationGainDb, type LoudnessProblem, type LoudnessState } from '../../src/domain/loudness.ts';
import { isMediaError } from '../../src/media/errors.ts';
import { CutEditSchema } from '../../src/protocol/media.ts';
import { gainAndLimit } from '../../src/media/limiter.ts';
import type { Chapter } from '../../src/domain/chapters.ts';
import type { AppDeps } from '../app.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { readJsonBlob, type BlobStore } from './blob-store.ts';
import { writeAudioRow } from './clip-rows.ts';
import { loadClipCut } from './cut-render.ts';
import {
  claimLoudnessRun,
  CLIP_NORMALIZE_JOB,
  failLoudnessRun,
  figuresOf,
  loadLoudnessRow,
  loudnessRunStands,
  measureStoredLoudness,
  presetById,
  setLoudnessState,
  type NormalizeJob,
} from './loudness-record.ts';
import { clipKeys, clipMediaFolder, clipUrls, mediaFiles, type UploadMeta } from './media-paths.ts';
import { encodeWavToMp3 } from './mp3-encode.ts';
import { analyzeStoredAudio } from './process.ts';
import { readPublishedVersion, type PublishedVersion } from './published-media.ts';
import { renderCutToFile, renderTempPath } from './render-cut.ts';
import { withBumpers } from './intro-outro-render.ts';
import { carriesChapters, chaptersDigest, clipChapters, editDigest, enqueueMediaSweep, putPublishedMp3, uploadRef, versionPatch } from './versions.ts';

const ATTEMPTS = 3;

class NormalizeProblem extends Error {
  constructor(readonly problem: LoudnessProblem) {
    super(problem);
  }
}

/** The job's run: see the header. Returns without a change when the clip moved on meanwhile (its processing queues a new one). */
export async function normalizeClipLoudness(deps: AppDeps, blobs: BlobStore, job: NormalizeJob, graceMs: number): Promise<void> {
  const { clipId } = job;
  const row = await loadLoudnessRow(deps.store, clipId);
  const preset = presetById(row?.preset_id ?? null);
  if (!row || !preset || !loudnessBusy(row.state)) return;
  const [published, source, cut] = await Promise.all([
    readPublishedVersion(blobs, clipId),
    readJsonBlob<UploadMeta>(blobs, clipKeys.meta(clipId)),
    loadClipCut(deps.store, blobs, clipId),
  ]);
  const cutText = cut === null ? null : JSON.stringify(cut);
  const chapters = await clipChapters(deps.store, clipId);
  // The published version must be the one of this upload, cut and chapters: otherwise the processing job runs and measures anew.
  if (!published || !source || published.upload !== uploadRef(clipId, source) || published.edit !== editDigest(cutText)) return;
  // (A normalized version is an MP3 and carries the chapters whatever the upload was.)
  if ((published.chapters ?? null) !== (published.normalization || carriesChapters(source, cutText, published.bumpers) ? chaptersDigest(chapters) : null)) return;
  // "Normalize again" while this runs (another preset, perhaps) queues this job once more; the
  // run's result is kept only while the request it was made for stands, so the newer one is not
  // marked Done with this one's figures and skipped.
  const token = await claimLoudnessRun(deps.store, clipId, row);
  if (token === null) return;
  try {
    if (source.contentType === 'video/mp4') throw new NormalizeProblem('Video');
    const before = row.before_integrated;
    if (before === null) throw new NormalizeProblem('TooQuiet');
    await publishNormalized(deps, blobs, job, { published, source, cutText, chapters, preset, before: Number(before), token }, graceMs);
  } catch (e) {
    if (e instanceof NormalizeProblem) return failLoudnessRun(deps.store, clipId, token, e.problem);
    if (isMediaError(e)) return failLoudnessRun(deps.store, clipId, token, 'Unreadable');
    throw e;
  }
}

type Plan = { published: PublishedVersion; source: UploadMeta; cutText: string | null; chapters: Chapter[]; preset: { Id: string; IntegratedLoudness: number; TruePeak: number }; before: number; token: string };

async function publishNormalized(deps: AppDeps, blobs: BlobStore, job: NormalizeJob, plan: Plan, graceMs: number): Promise<void> {
  const { clipId } = job;
  const { published, source, cutText, chapters, preset } = plan;
  const edit = cutText === null ? null : CutEditSchema.parse(JSON.parse(cutText));
  const original = await blobs.blob(mediaFiles.audio(clipMediaFolder(clipId, source)));
  const version = randomUUID();
  const folder = clipKeys.versionFolder(clipId, version);
  let gainDb = normalizationGainDb(plan.before, preset);
  let ceilingDbtp = preset.TruePeak - ENCODER_HEADROOM_DB;
  let done: { size: number; after: ReturnType<typeof figuresOf> } | null = null;
  try {
    for (let attempt = 0; attempt < ATTEMPTS && !done; attempt++) {
      const wavPath = renderTempPath();
      const mp3Path = `${wavPath}.mp3`;
      try {
        // The same intro and outro as the version it normalizes (intro-outro-render.ts), then the gain and limiter over the whole.
        const bumpers = published.bumpers ?? null;
        const wav = await renderCutToFile(original, edit, wavPath, (blocks) => gainAndLimit(bumpers ? withBumpers(blobs, bumpers)(blocks) : blocks, { gainDb, ceilingDbtp }));
        await encodeWavToMp3(wavPath, mp3Path, wav.channels);
        await blobs.remove(folder);
        // With the clip's chapters as ID3 frames, as every MP3 version carries them (id3-chapters.ts).
        const { size } = await putPublishedMp3(blobs, mediaFiles.audio(folder), await openAsBlob(mp3Path), chapters, wav.frames / wav.sampleRate, bumpers);
        const measured = await measureStoredLoudness(blobs, mediaFiles.audio(folder));
        if (!measured || measured.integratedLufs === null) throw new NormalizeProblem('Unreadable');
        const after = figuresOf(measured);
        if (meetsTarget(after, preset) && Math.abs(measured.integratedLufs - preset.IntegratedLoudness) <= LOUDNESS_TOLERANCE_LU / 2) done = { size, after };
        else {
          // Limiting lowers the loudness a little and the encoder overshoots a little: correct both and try again.
          gainDb += preset.IntegratedLoudness - measured.integratedLufs;
          if (measured.truePeakDbtp !== null && measured.truePeakDbtp > preset.TruePeak) ceilingDbtp -= measured.truePeakDbtp - preset.TruePeak + 0.2;
          if (attempt === ATTEMPTS - 1 && meetsTarget(after, preset)) done = { size, after };
        }
      } finally {
        await Promise.all([rm(wavPath, { force: true }), rm(mp3Path, { force: true })]);
      }
    }
    if (!done) throw new NormalizeProblem('Missed');
    const made = await analyzeStoredAudio(blobs, mediaFiles.audio(folder), (res, ext) => mediaFiles.waveform(folder, res, ext));
    if (made.failed || made.durationSeconds === null) throw new NormalizeProblem('Unreadable');
    const record: PublishedVersion = {
      version, folder, contentType: 'audio/mpeg', ext: 'mp3', size: done.size, durationSeconds: made.durationSeconds,
      upload: published.upload, edit: published.edit, chapters: chaptersDigest(chapters), loudness: done.after, normalization: { presetId: preset.Id, gainDb, ceilingDbtp },
      bumpers: published.bumpers ?? null,
    };
    await blobs.putBytes(clipKeys.versionMeta(clipId, version), JSON.stringify(record));
    const after = done.after;
    const written = await writeAudioRow(
      deps,
      { entity: 'clip', organizationId: job.organizationId, id: clipId },
      (r) => {
        const problem = typeof r['AudioProcessingProblem'] === 'string' ? r['AudioProcessingProblem'] : null;
        return versionPatch(clipId, source, { info: null, waveforms: made.waveforms, durationSeconds: made.durationSeconds, problem, failed: false }, { ...record, waveforms: made.waveforms, encoded: true });
      },
      { userId: job.userId },
      {
        // Switched only if the clip still serves the version this started from (a new upload or cut
        // meanwhile wins) and this run's request stands (a "normalize again" meanwhile runs next).
        stands: async (q, r) => {
          const urls = (r['Urls'] as Record<string, unknown> | null | undefined) ?? {};
          if (urls['AudioPrivateUrl'] !== clipUrls.audio(clipId, published.version)) return false;
          const run = await q.query(`SELECT clip_id FROM clip_loudness WHERE clip_id = $1 AND ${loudnessRunStands(2)} FOR UPDATE`, [clipId, plan.token]);
          return run.length > 0;
        },
        alsoInTransaction: async (q) => {
          await q.query(
            `UPDATE clip_loudness SET state = 'Done', problem = NULL, after_integrated = $2, after_true_peak = $3, after_range = $4, gain_db = $5, modified_at_utc = now() WHERE clip_id = $1`,
            [clipId, after.IntegratedLoudness, after.TruePeak, after.LoudnessRange, gainDb],
          );
          await blobs.putBytes(clipKeys.published(clipId), JSON.stringify(record));
          // The previous version unless it is the upload's own folder (published as it was).
          if (published.folder.startsWith(`${clipKeys.dir(clipId)}/versions/`)) await enqueueMediaSweep(q, clipId, [published.folder], graceMs);
        },
      },
    );
    if (written !== 'written') await blobs.remove(folder);
  } catch (e) {
    await blobs.remove(folder);
    throw e;
  }
}

const NormalizeJobSchema = z.object({ organizationId: z.string(), clipId: z.string(), userId: z.string().nullable().default(null) });

/** The normalization job, in the 'audio' pool beside the processing it follows. After its last
 *  attempt (failures around it: bad audio is a result) the clip says it failed. */
export function clipLoudnessJobs(deps: AppDeps, blobs: BlobStore, graceMs: number): JobHandlers {
  return {
    [CLIP_NORMALIZE_JOB]: defineJob({
      pool: 'audio',
      payload: NormalizeJobSchema,
      run: (job) => normalizeClipLoudness(deps, blobs, job, graceMs),
      // A "normalize again" asked while the last attempt ran has its run next: Failed would make it
      // skip (unlessRerun locks the row first, the order "normalize again" writes it in). Only a
      // normalization's own states fail: a new version meanwhile (NotNormalized, NotMeasured) is not
      // this job's to fail.
      giveUp: (job, _error, ctx) =>
        ctx.unlessRerun(
          async (q) => (await q.query<{ state: LoudnessState }>(`SELECT state FROM clip_loudness WHERE clip_id = $1 FOR UPDATE`, [job.clipId]))[0],
          async (q, row) => {
            if (row && loudnessBusy(row.state)) await setLoudnessState(q, job.clipId, 'Failed', 'Error');
          },
        ),
    }),
  };
}
