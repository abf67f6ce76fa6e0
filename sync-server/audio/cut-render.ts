// The clip's cut, rendered: a durable job (sync-server/jobs) queued in the transaction that saves
// a cut (the clip.saveCut run, mutations.ts) renders the kept regions of the clip's audio to a WAV
// beside its media, with its waveforms, so that later work (publishing) serves the cut without
// rendering it on request.
//
//   clip.saveCut ──cut.json + the job, one transaction──> (job) render the cut.json and audio it reads
//        │                                                   ──> clips/{id}/cuts/{renderId}/audio, waveform-…
//        └── saved again while it runs: it runs once more         ──> cut-render.json (last): edit, audio, folder
//                                                                     (the previous render's folder removed)
//
// cut-render.json names the edit (a digest of cut.json as stored) and the audio (a digest of the
// clip's audio.json, whose uploadId is new for every file) it was made from. freshCutRender hands
// out a render only while both are still the clip's, so a stale render is never served: after a new
// save, until the job has run again, there is none.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import * as z from 'zod';
import { isMediaError } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import { CutEditSchema } from '../../src/protocol/media.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import type { Queryable } from '../store/store.ts';
import { readJsonBlob, type BlobStore } from './blob-store.ts';
import { clipKeys, clipMediaFolder, mediaFiles, type UploadMeta } from './media-paths.ts';
import { analyzeStoredAudio } from './process.ts';
import { renderCutToFile, renderTempPath } from './render-cut.ts';

/** A clip's cut-render.json. */
export type CutRender = {
  /** sha256 of the cut.json rendered. */
  edit: string;
  /** sha256 of the audio.json of the audio it was rendered from. */
  audio: string;
  /** The media folder of the render (audio, waveform-{high|low}.{dat|json}); null when it failed. */
  folder: string | null;
  contentType: 'audio/wav';
  frames: number;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  /** Why the audio could not be rendered (in AudioProcessingProblem's words), or null. */
  problem: string | null;
};

export const CUT_RENDER_JOB = 'clip.renderCut';

const CutRenderJobSchema = z.object({ organizationId: z.string(), clipId: z.string() });
export type CutRenderJob = z.infer<typeof CutRenderJobSchema>;

/** Queues the render of a clip's cut, in the transaction that saves the cut: one per clip, run
 * again when saved while it runs (it may have read the edit the save replaced). */
export function enqueueCutRender(q: Queryable, job: CutRenderJob): Promise<number | null> {
  return enqueueJob(q, CUT_RENDER_JOB, job, { singletonKey: `${CUT_RENDER_JOB}:${job.clipId}`, rerunIfRunning: true, maxAttempts: 3 });
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

async function textOf(blobs: BlobStore, key: string): Promise<string | null> {
  if ((await blobs.size(key)) === null) return null;
  return (await blobs.blob(key)).text();
}

/** The clip's rendered cut, if it is the render of the clip's current cut and audio; else null. */
export async function freshCutRender(blobs: BlobStore, clipId: string): Promise<CutRender | null> {
  const render = await readJsonBlob<CutRender>(blobs, clipKeys.cutRender(clipId));
  if (!render?.folder) return null;
  const [cut, meta] = await Promise.all([textOf(blobs, clipKeys.cut(clipId)), textOf(blobs, clipKeys.meta(clipId))]);
  if (cut === null || meta === null || digest(cut) !== render.edit || digest(meta) !== render.audio) return null;
  return render;
}

/**
 * Renders the clip's saved cut of its current audio (what they are when it runs, not when it was
 * queued). Idempotent: run twice, it renders twice, and the last render is the one named. Audio
 * that cannot be decoded is a result (recorded with its problem), not a failure to retry.
 */
export async function renderClipCut(blobs: BlobStore, clipId: string): Promise<CutRender | null> {
  const [cutText, metaText] = await Promise.all([textOf(blobs, clipKeys.cut(clipId)), textOf(blobs, clipKeys.meta(clipId))]);
  // No cut, or no audio yet: nothing to render (a render of earlier ones is stale by its digests).
  if (cutText === null || metaText === null) return null;
  const edit = CutEditSchema.parse(JSON.parse(cutText));
  const meta = JSON.parse(metaText) as UploadMeta;
  const previous = await readJsonBlob<CutRender>(blobs, clipKeys.cutRender(clipId));
  const folder = clipKeys.cutFolder(clipId, randomUUID());
  const base = { edit: digest(cutText), audio: digest(metaText), contentType: 'audio/wav' as const };
  const tmp = renderTempPath();
  let render: CutRender;
  try {
    const wav = await renderCutToFile(await blobs.blob(mediaFiles.audio(clipMediaFolder(clipId, meta))), edit, tmp);
    await blobs.put(mediaFiles.audio(folder), Readable.toWeb(createReadStream(tmp)) as ReadableStream<Uint8Array>, Number.POSITIVE_INFINITY);
    const analysis = await analyzeStoredAudio(blobs, mediaFiles.audio(folder), (res, ext) => mediaFiles.waveform(folder, res, ext));
    render = { ...base, folder, ...wav, durationSeconds: wav.frames / wav.sampleRate, problem: analysis.waveforms ? null : analysis.problem };
  } catch (e) {
    await blobs.remove(folder);
    if (!isMediaError(e)) throw e;
    render = { ...base, folder: null, frames: 0, sampleRate: 0, channels: 0, durationSeconds: 0, problem: mediaProblemText({ code: e.code, details: e.details }, 'en-US') };
  } finally {
    await rm(tmp, { force: true });
  }
  await blobs.putBytes(clipKeys.cutRender(clipId), JSON.stringify(render));
  if (previous?.folder && previous.folder !== render.folder) await blobs.remove(previous.folder);
  return render;
}

/** The cut render job, in the 'audio' pool (one decode at a time per instance). An attempt that
 * throws (the disk) is tried again; after the last one the previous render stays, stale, unserved. */
export function cutRenderJobs(blobs: BlobStore): JobHandlers {
  return {
    [CUT_RENDER_JOB]: defineJob({
      pool: 'audio',
      payload: CutRenderJobSchema,
      run: async (job) => void (await renderClipCut(blobs, job.clipId)),
    }),
  };
}
