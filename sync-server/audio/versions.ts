// A clip's published versions: what the processing job (process.ts) makes of the clip's original
// upload and its saved cut, and the one row write that switches the clip to it.
//
//   upload ──> clips/{id}/uploads/{uploadId}/audio   pending.json names it (audio.json while the clip has
//                  │                                  no good audio; the clip keeps serving its current one)
//   cut saved ─────┤  (job, one per clip)
//                  ▼
//   analyse the original (its waveforms, for the cut editor) ──failed──> pending dropped; a clip with good
//                  │                                                   audio keeps it, AudioProcessingProblem
//                  │                                                   says why; one without goes to Error
//                  ▼
//   no cut and MP3/M4A/MP4 ─────> the upload as it is (hard link)  ─┐
//   a cut, or WAV/FLAC/AIFF/AAC ─> render the kept regions (WAV) ─> MP3 (mp3-encode.ts)
//                                                                    ▼
//   clips/{id}/versions/{version}/audio + waveforms of the version itself + version.json
//                  ▼
//   ONE row write: State, DurationSeconds = PublishedDurationSeconds, PublishedAudioSizeInBytes,
//   PublishedIntroSeconds and PublishedOutroSeconds (the program's intro it starts with, the outro it
//   ends with), the audio and waveform URLs with ?v={version}; in its transaction published.json
//   and audio.json are switched and the sweep of what they named before is queued after the grace
//   period (a listener may be mid-download of the previous file).
//
// A cut is always rendered from the original, never from a version: a new cut replaces the old one.
// New audio re-renders the saved cut of it (the editor shows the saved cut over the new audio).
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, openAsBlob } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import * as z from 'zod';
import { MediaError, MediaErrorCode, isMediaError } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import { CutEditSchema } from '../../src/protocol/media.ts';
import type { AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import type { Queryable } from '../store/store.ts';
import { readJsonBlob, type BlobStore } from './blob-store.ts';
import { writeAudioRow, type AudioRowPatch } from './clip-rows.ts';
import { clipKeys, clipMediaFolder, clipUrls, mediaFiles, type UploadMeta } from './media-paths.ts';
import { encodeWavToMp3 } from './mp3-encode.ts';
import { loadClipCut } from './cut-render.ts';
import { figuresOf, measureStoredLoudness, noteVersionLoudness } from './loudness-record.ts';
import { analyzeStoredAudio, type StoredAudioAnalysis } from './process.ts';
import { publishedExt, readPublishedVersion, type PublishedVersion } from './published-media.ts';
import { renderCutToFile, renderTempPath } from './render-cut.ts';
import { normaliseChapters, type Chapter } from '../../src/domain/chapters.ts';
import { mp3WithChapters, storedChapterPicture } from './id3-chapters.ts';
import { onPublishedTimeline } from '../../src/domain/intro-outro.ts';
import { bumpersDigest, currentBumpers, publishedIntroSeconds, publishedOutroSeconds, withBumpers, type VersionBumpers } from './intro-outro-render.ts';

/** How long the files of a version (or upload) no longer named stay: a download under way finishes. */
export const DEFAULT_MEDIA_GRACE_MS = 24 * 60 * 60 * 1000;

/** Files podcast apps play as they are: published without re-encoding when there is no cut. */
const PUBLISHABLE_AS_IS = new Set(['audio/mpeg', 'audio/mp4', 'video/mp4']);

const digest = (text: string) => createHash('sha256').update(text).digest('hex');
/** What a PublishedVersion's edit names: the saved cut's digest, or null for the whole upload. */
export const editDigest = (cutText: string | null) => (cutText === null ? null : digest(cutText));

/** What a PublishedVersion's chapters name: the digest of the chapters written into its MP3, or null for none. */
export const chaptersDigest = (chapters: readonly Chapter[]) => (chapters.length === 0 ? null : digest(JSON.stringify(normaliseChapters(chapters))));

/** The clip's chapters as stored on its row ([] for none). */
export async function clipChapters(q: Queryable, clipId: string): Promise<Chapter[]> {
  const [row] = await q.query<{ chapters: unknown }>(`SELECT data->'Chapters' AS chapters FROM clips WHERE id = $1`, [clipId]);
  return Array.isArray(row?.chapters) ? (row.chapters as Chapter[]) : [];
}

/**
 * Stores an MP3 as a version's audio: with the clip's chapters as ID3 frames when it has any. The
 * chapters are on the episode's timeline; behind an intro each starts later by its length (the
 * intro itself is before the first chapter, not a chapter of the episode).
 */
export async function putPublishedMp3(
  blobs: BlobStore,
  key: string,
  audio: Blob,
  chapters: readonly Chapter[],
  durationSeconds: number,
  bumpers?: VersionBumpers | null,
): Promise<{ size: number }> {
  const introSeconds = publishedIntroSeconds(bumpers);
  const placed = introSeconds !== null ? chapters.map((ch) => ({ ...ch, StartSeconds: onPublishedTimeline(ch.StartSeconds, { introSeconds }) })) : chapters;
  const body = placed.length > 0 ? await mp3WithChapters(audio, placed, durationSeconds, (path) => storedChapterPicture(blobs, path)) : (audio.stream() as ReadableStream<Uint8Array>);
  return blobs.put(key, body, Number.POSITIVE_INFINITY);
}

/** What names an upload in a PublishedVersion: its uploadId, or for older ones the folder serving it. */
export const uploadRef = (clipId: string, meta: UploadMeta) => meta.uploadId ?? clipMediaFolder(clipId, meta);

// ── The sweep ──────────────────────────────────────────────────────────────────────────────────
export const MEDIA_SWEEP_JOB = 'clip.sweepMedia';
const SweepSchema = z.object({ clipId: z.string(), keys: z.array(z.string()) });

/** The files an upload meta makes the clip's own (never shared demo media). */
export function ownFilesOf(clipId: string, meta: UploadMeta): string[] {
  const folder = clipMediaFolder(clipId, meta);
  if (folder === clipKeys.dir(clipId)) {
    // An upload from before uploads had folders: its files, not the clip's folder.
    return [clipKeys.audio(clipId), ...(['high', 'low'] as const).flatMap((res) => (['dat', 'json'] as const).map((ext) => clipKeys.waveform(clipId, res, ext)))];
  }
  return folder.startsWith(`${clipKeys.dir(clipId)}/`) ? [folder] : [];
}

/** Queues the removal of files no longer named, after the grace period, in the caller's transaction. */
export function enqueueMediaSweep(q: Queryable, clipId: string, keys: string[], graceMs: number): Promise<unknown> {
  if (keys.length === 0) return Promise.resolve(null);
  return enqueueJob(q, MEDIA_SWEEP_JOB, { clipId, keys }, { runAt: new Date(Date.now() + graceMs), maxAttempts: 5 });
}

/** Removes the keys, except any the clip names again by now (published, original or pending). */
export async function sweepClipMedia(blobs: BlobStore, clipId: string, keys: string[]): Promise<void> {
  const [published, current, pending] = await Promise.all([
    readPublishedVersion(blobs, clipId),
    readJsonBlob<UploadMeta>(blobs, clipKeys.meta(clipId)),
    readJsonBlob<UploadMeta>(blobs, clipKeys.pending(clipId)),
  ]);
  const live = new Set([published?.folder, ...[current, pending].flatMap((m) => (m ? ownFilesOf(clipId, m) : []))]);
  for (const key of keys) {
    const ours = key.startsWith(`${clipKeys.dir(clipId)}/`);
    if (ours && !live.has(key)) await blobs.remove(key);
  }
}

// ── Building a version ─────────────────────────────────────────────────────────────────────────
export type Built = PublishedVersion & { waveforms: boolean; encoded: boolean };

/** The version is an MP3 (rendered, or an MP3 published as it is), so it carries the clip's chapters.
 *  One with an intro or outro is always rendered. */
export const carriesChapters = (source: UploadMeta, cutText: string | null, bumpers?: VersionBumpers | null) =>
  cutText !== null || bumpersDigest(bumpers) !== null || !PUBLISHABLE_AS_IS.has(source.contentType) || source.contentType === 'audio/mpeg';

/** Makes the version of `source` with the cut `cutText` (or none) in a new folder; throws MediaError for audio it cannot render. */
async function buildVersion(
  blobs: BlobStore,
  clipId: string,
  source: UploadMeta,
  cutText: string | null,
  analysis: StoredAudioAnalysis,
  chapters: readonly Chapter[],
  bumpers: VersionBumpers | null,
): Promise<Built> {
  const version = randomUUID();
  const folder = clipKeys.versionFolder(clipId, version);
  const from = clipMediaFolder(clipId, source);
  // An MP3 carries the chapters (ID3 CHAP frames); other files are published without them.
  const tagged = chapters.length > 0 && carriesChapters(source, cutText, bumpers);
  const own = bumpersDigest(bumpers) === null ? null : { intro: bumpers!.intro, outro: bumpers!.outro };
  const base = { version, folder, upload: uploadRef(clipId, source), edit: cutText === null ? null : digest(cutText), chapters: tagged ? chaptersDigest(chapters) : null, bumpers: own };
  try {
    if (cutText === null && !own && PUBLISHABLE_AS_IS.has(source.contentType)) {
      const { size } = tagged
        ? await putPublishedMp3(blobs, mediaFiles.audio(folder), await blobs.blob(mediaFiles.audio(from)), chapters, analysis.durationSeconds!)
        : await blobs.copy(mediaFiles.audio(from), mediaFiles.audio(folder));
      if (analysis.waveforms) {
        for (const res of ['high', 'low'] as const) for (const ext of ['dat', 'json'] as const) await blobs.copy(mediaFiles.waveform(from, res, ext), mediaFiles.waveform(folder, res, ext));
      }
      const ext = publishedExt(source.contentType, source.fileName);
      return { ...base, contentType: source.contentType, ext, size, durationSeconds: analysis.durationSeconds!, waveforms: analysis.waveforms, encoded: false };
    }
    const edit = cutText === null ? null : CutEditSchema.parse(JSON.parse(cutText));
    const wavPath = renderTempPath();
    const mp3Path = `${wavPath}.mp3`;
    try {
      // Behind the program's intro and before its outro when it has them (intro-outro-render.ts).
      const shape = own ? withBumpers(blobs, own) : undefined;
      const wav = await renderCutToFile(await blobs.blob(mediaFiles.audio(from)), edit, wavPath, shape);
      if (wav.frames === 0) throw new MediaError(MediaErrorCode.EmptyFile, 'The cut keeps no audio');
      await encodeWavToMp3(wavPath, mp3Path, wav.channels);
      const { size } = tagged
        ? await putPublishedMp3(blobs, mediaFiles.audio(folder), await openAsBlob(mp3Path), chapters, wav.frames / wav.sampleRate, own)
        : await blobs.put(mediaFiles.audio(folder), Readable.toWeb(createReadStream(mp3Path)) as ReadableStream<Uint8Array>, Number.POSITIVE_INFINITY);
      // The version's own waveforms and length, decoded from the MP3 as a listener gets it.
      const made = await analyzeStoredAudio(blobs, mediaFiles.audio(folder), (res, ext) => mediaFiles.waveform(folder, res, ext));
      if (made.failed || made.durationSeconds === null) throw new MediaError(MediaErrorCode.DecodeFailed, made.problem ?? 'The encoded version does not decode');
      return { ...base, contentType: 'audio/mpeg', ext: 'mp3', size, durationSeconds: made.durationSeconds, waveforms: made.waveforms, encoded: true };
    } finally {
      await Promise.all([rm(wavPath, { force: true }), rm(mp3Path, { force: true })]);
    }
  } catch (e) {
    await blobs.remove(folder);
    throw e;
  }
}

/** The row as the version makes it: one write. */
export function versionPatch(clipId: string, source: UploadMeta, analysis: StoredAudioAnalysis, built: Built): AudioRowPatch {
  const video = !built.encoded && analysis.info?.mediaType === 'AudioAndVideo';
  const mediaType = video ? 'AudioAndVideo' : 'Audio';
  const audioUrl = clipUrls.audio(clipId, built.version);
  return {
    State: analysis.problem ? 'Warning' : 'Ready',
    fields: {
      UploadedMediaInfo: { MediaType: mediaType, VideoInfo: video && analysis.info?.video ? { Height: analysis.info.video.height, Width: analysis.info.video.width } : null },
      MediaType: mediaType,
      UploadedAudioFileName: source.fileName,
      // The clip's duration is the published version's: what listeners hear, and what the feed says.
      DurationSeconds: built.durationSeconds,
      PublishedDurationSeconds: built.durationSeconds,
      PublishedAudioSizeInBytes: built.size,
      AudioProcessingProblem: analysis.problem,
      AudioProcessingProblemDismissed: false,
      // With the audio it describes: the studio's editors and the public chapters and transcript
      // move the episode's timeline by it (null: the version has no intro).
      PublishedIntroSeconds: publishedIntroSeconds(built.bumpers),
      // And the outro it ends with: the episode's length is the published length less both.
      PublishedOutroSeconds: publishedOutroSeconds(built.bumpers),
    },
    urls: {
      AudioPrivateUrl: audioUrl,
      WaveformHighResUrl: built.waveforms ? clipUrls.waveform(clipId, 'high', built.version) : null,
      WaveformLowResUrl: built.waveforms ? clipUrls.waveform(clipId, 'low', built.version) : null,
      VideoPrivateUrl: video ? audioUrl : null,
    },
  };
}

/** The clip serves audio that processed (a new file is then processed beside it, not in its place). */
export const hasGoodAudio = (row: Record<string, unknown>) =>
  (row['State'] === 'Ready' || row['State'] === 'Warning') && Boolean((row['Urls'] as Record<string, unknown> | null | undefined)?.['AudioPrivateUrl']);

/** force: made again even when the published version is current (the staff tool "regenerate audio":
 *  a version made by an older release, or files lost from the store). */
export type ClipAudioJob = { organizationId: string; clipId: string; userId: string | null; force?: boolean | undefined };

/**
 * The processing job's run: makes the clip's published version from its newest upload and its
 * saved cut (what they are when it runs), unless the current one already is that. Idempotent.
 */
export async function processClipAudio(deps: AppDeps, blobs: BlobStore, job: ClipAudioJob, graceMs: number): Promise<void> {
  const { clipId } = job;
  const row = { entity: 'clip', organizationId: job.organizationId, id: clipId } as const;
  const author = { userId: job.userId };
  const [pending, current, cut, published] = await Promise.all([
    readJsonBlob<UploadMeta>(blobs, clipKeys.pending(clipId)),
    readJsonBlob<UploadMeta>(blobs, clipKeys.meta(clipId)),
    loadClipCut(deps.store, blobs, clipId),
    readPublishedVersion(blobs, clipId),
  ]);
  const cutText = cut === null ? null : JSON.stringify(cut);
  const source = pending ?? current;
  if (!source) return;
  const chapters = await clipChapters(deps.store, clipId);
  // The program's intro and outro in effect now: a version made with others is not current.
  const bumpers = await currentBumpers(deps.store, clipId);
  // Chapters go into an MP3 only: a version of another file is current whatever the chapters.
  const wantChapters = carriesChapters(source, cutText, bumpers) ? chaptersDigest(chapters) : null;
  if (
    !job.force &&
    !pending &&
    published &&
    published.upload === uploadRef(clipId, source) &&
    published.edit === (cutText === null ? null : digest(cutText)) &&
    (published.chapters ?? null) === wantChapters &&
    bumpersDigest(published.bumpers) === bumpersDigest(bumpers)
  )
    return;

  // A clip without good audio shows that it is processing; one with good audio keeps showing it.
  const processing = (r: Record<string, unknown>): AudioRowPatch | null => (hasGoodAudio(r) ? null : { State: 'Processing' });
  if ((await writeAudioRow(deps, row, processing, author)) !== 'written') return;

  const from = clipMediaFolder(clipId, source);
  const analysis = await analyzeStoredAudio(blobs, mediaFiles.audio(from), (res, ext) => mediaFiles.waveform(from, res, ext));
  let built: Built | null = null;
  let problem = analysis.problem;
  if (!analysis.failed) {
    try {
      built = await buildVersion(blobs, clipId, source, cutText, analysis, chapters, bumpers);
    } catch (e) {
      if (!isMediaError(e)) throw e;
      problem = mediaProblemText({ code: e.code, details: e.details }, 'en-US');
    }
  }

  /** In the row's transaction: the pending upload is no longer pending (unless a newer one came meanwhile). */
  const settlePending = async () => {
    if (!pending) return;
    const now = await readJsonBlob<UploadMeta>(blobs, clipKeys.pending(clipId));
    if (now?.uploadId === pending.uploadId) await blobs.remove(clipKeys.pending(clipId));
  };

  if (!built) {
    // The new file is unusable: the clip keeps what it serves, and says why.
    let keepsAudio = false;
    const failed = (r: Record<string, unknown>): AudioRowPatch =>
      (keepsAudio = hasGoodAudio(r))
        ? { State: String(r['State']), fields: { AudioProcessingProblem: problem, AudioProcessingProblemDismissed: false } }
        : {
            State: 'Error',
            fields: { DurationSeconds: null, PublishedDurationSeconds: null, PublishedAudioSizeInBytes: null, PublishedIntroSeconds: null, PublishedOutroSeconds: null, AudioProcessingProblem: problem, AudioProcessingProblemDismissed: false },
            urls: { AudioPrivateUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null },
          };
    await writeAudioRow(deps, row, failed, author, {
      alsoInTransaction: async (q) => {
        await settlePending();
        if (!pending) return;
        if (keepsAudio) await enqueueMediaSweep(q, clipId, ownFilesOf(clipId, pending), graceMs);
        else {
          // A clip in Error keeps the file it has as its original: the studio can show what was uploaded.
          await blobs.putBytes(clipKeys.meta(clipId), JSON.stringify(pending));
          if (current) await enqueueMediaSweep(q, clipId, ownFilesOf(clipId, current), graceMs);
        }
      },
    });
    return;
  }
  const version = built;
  // Its loudness, kept with the version; the normalization to the preset in effect is queued with the switch.
  const measured = await measureStoredLoudness(blobs, mediaFiles.audio(version.folder));
  const { waveforms: _w, encoded: _e, ...unmeasured } = version;
  const record: PublishedVersion = measured ? { ...unmeasured, loudness: figuresOf(measured) } : unmeasured;
  await blobs.putBytes(clipKeys.versionMeta(clipId, version.version), JSON.stringify(record));
  const written = await writeAudioRow(deps, row, versionPatch(clipId, source, analysis, version), author, {
    alsoInTransaction: async (q) => {
      await noteVersionLoudness(q, job, measured, version.upload);
      // What this version replaces is what is published now, read under the row's lock where every
      // switch of published.json is made (a version switched in since the read above was never
      // swept otherwise; the one it replaced, the switcher swept).
      const replaced = await readPublishedVersion(blobs, clipId);
      const superseded = [...(replaced ? [replaced.folder] : []), ...(pending && current ? ownFilesOf(clipId, current) : [])];
      if (pending) await blobs.putBytes(clipKeys.meta(clipId), JSON.stringify(pending));
      await blobs.putBytes(clipKeys.published(clipId), JSON.stringify(record));
      await settlePending();
      await enqueueMediaSweep(q, clipId, superseded, graceMs);
    },
  });
  if (written !== 'written') await blobs.remove(version.folder);
}

export const CLIP_AUDIO_JOB = 'clip.processAudio';
/** The name cut renders were queued under before they made versions: such jobs still run. */
const LEGACY_CUT_RENDER_JOB = 'clip.renderCut';

const ClipAudioJobSchema = z.object({ organizationId: z.string(), clipId: z.string(), userId: z.string().nullable().default(null), force: z.boolean().optional() });

/**
 * Queues the clip's processing, in the transaction that stores new audio or saves a cut: one per
 * clip (singleton), run once more when queued while it runs (it may have read what changed).
 */
export function enqueueClipAudio(q: Queryable, job: ClipAudioJob): Promise<number | null> {
  return enqueueJob(q, CLIP_AUDIO_JOB, job, { singletonKey: `${CLIP_AUDIO_JOB}:${job.clipId}`, rerunIfRunning: true, maxAttempts: 3 });
}

/** Run once after migration 0630 (it queues it where clips have audio). */
export const PUBLISHED_OUTRO_JOB = 'clip.recordPublishedOutros';

/**
 * The clips whose published version ends with an outro but whose row does not say so (made before
 * the row carried PublishedOutroSeconds) are given it from the version's own record (published.json:
 * the intro and outro it was rendered with), each a row write with a new Version so devices pull it.
 * A clip with no outro is left as it is (absent means none); so is one whose version changed since
 * its record was read (the new version's write carries its own). How many were written.
 */
export async function recordPublishedOutros(deps: AppDeps, blobs: BlobStore): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let written = 0;
  for (;;) {
    const clips = await deps.store.query<{ id: string; organization_id: string }>(
      `SELECT id, organization_id FROM clips
        WHERE id > $1 AND NOT deleted AND data->'Urls'->>'AudioPrivateUrl' IS NOT NULL AND NOT (data ? 'PublishedOutroSeconds')
        ORDER BY id LIMIT 200`,
      [after],
    );
    if (clips.length === 0) return written;
    for (const clip of clips) {
      after = clip.id;
      const published = await readPublishedVersion(blobs, clip.id);
      const outro = publishedOutroSeconds(published?.bumpers);
      if (!published || outro === null) continue;
      let changed = false;
      // As the row is locked: still serving that version and not given the field meanwhile.
      const patch = (r: Record<string, unknown>): AudioRowPatch | null => {
        const urls = r['Urls'] as Record<string, unknown> | null | undefined;
        changed = r['PublishedOutroSeconds'] === undefined && urls?.['AudioPrivateUrl'] === clipUrls.audio(clip.id, published.version);
        return changed ? { State: String(r['State']), fields: { PublishedOutroSeconds: outro } } : null;
      };
      await writeAudioRow(deps, { entity: 'clip', organizationId: clip.organization_id, id: clip.id }, patch, { userId: null });
      if (changed) written++;
    }
  }
}

/** The clip processing jobs, in the 'audio' pool (one decode at a time per instance), and the sweep. An
 *  attempt that throws (the disk, the database: bad media is a result) is tried again; after the last
 *  one a clip without good audio goes to Error, one with good audio keeps it with the problem. */
export function clipAudioJobs(deps: AppDeps, blobs: BlobStore, graceMs = DEFAULT_MEDIA_GRACE_MS): JobHandlers {
  const run = defineJob({
    pool: 'audio',
    payload: ClipAudioJobSchema,
    run: (job) => processClipAudio(deps, blobs, job, graceMs),
    // A new upload (or cut) that asked for a run while the last attempt ran is that run's to end:
    // Error would show over its AudioUploaded until then (unlessRerun locks the row first, the
    // order an upload writes it and asks in).
    async giveUp(job, _error, ctx) {
      const problem = mediaProblemText({ code: MediaErrorCode.DecodeFailed }, 'en-US');
      const failed = (r: Record<string, unknown>): AudioRowPatch =>
        hasGoodAudio(r)
          ? { State: String(r['State']), fields: { AudioProcessingProblem: problem } }
          : { State: 'Error', fields: { AudioProcessingProblem: problem, DurationSeconds: null } };
      await writeAudioRow(deps, { entity: 'clip', organizationId: job.organizationId, id: job.clipId }, failed, { userId: job.userId }, { inTransaction: ctx.unlessRerun });
    },
  });
  return {
    [CLIP_AUDIO_JOB]: run,
    [LEGACY_CUT_RENDER_JOB]: run,
    [MEDIA_SWEEP_JOB]: defineJob({ pool: 'audio', payload: SweepSchema, run: (job) => sweepClipMedia(blobs, job.clipId, job.keys) }),
    [PUBLISHED_OUTRO_JOB]: defineJob({ payload: z.object({}), run: async () => void (await recordPublishedOutros(deps, blobs)) }),
  };
}
