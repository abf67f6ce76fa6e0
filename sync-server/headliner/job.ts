// Headliner videos as durable jobs (src/domain/headliner.ts draws the states). POST …/headliner-videos
// (requestHeadlinerVideos) reads the program's headliner-video setting in effect, then in one
// transaction replaces the clip's videos of those aspect ratios with new Queued rows and queues a
// render job for each. The job (renderVideo) copies the clip's audio and artwork out of the blob
// store, renders with ffmpeg (render.ts), and keeps the MP4 at clips/{clipId}/headliner/{id}.mp4.
//
//   request ──tx: rows Queued (earlier ones of the ratios deleted, their files swept later), jobs──>
//   attempt n: Rendering ──copy audio + artwork──ffmpeg──store MP4──> Ready (duration, size)
//                 │ ffmpeg or the disk threw: Queued again with the problem (backoff), tried again
//                 │ last attempt threw (giveUp) ──────────────────────────────────────> Failed + why
//                 └ nothing to retry (the audio gone, audio ffprobe cannot read) ─────> Failed + why
//
// Files: a replaced video's file is removed after the media grace period (a download under way
// finishes); a deleted clip's videos (rows and files) are removed by a sweep queued with the
// clip's deletion, after the same grace, if the clip is still deleted then.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as z from 'zod';
import { formError } from '../../src/domain/form-errors.ts';
import { HEADLINER_FRAMES, headlinerSeconds, sortRatios, type HeadlinerVideoState } from '../../src/domain/headliner.ts';
import { ownOf, resolveSetting, ROW_FIELD, type HeadlinerAspectRatio, type HeadlinerVideos } from '../../src/domain/monetization.ts';
import type { TranscriptCue } from '../../src/domain/transcripts.ts';
import type { HeadlinerVideo } from '../../src/protocol/api/headliner-videos.ts';
import { cueFromWire } from '../../src/protocol/api/transcripts.ts';
import { now, type AppDeps } from '../app.ts';
import { readJsonBlob, type BlobStore } from '../audio/blob-store.ts';
import { clipKeys, clipMediaFolder, mediaFiles, type UploadMeta } from '../audio/media-paths.ts';
import { readPublishedVersion } from '../audio/published-media.ts';
import { DEFAULT_MEDIA_GRACE_MS } from '../audio/versions.ts';
import { loadOwnerTranscript } from '../api/transcripts.ts';
import { badRequest, fieldError, notFound } from '../errors.ts';
import { imageKeys } from '../images/service.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobContext, type JobHandlers } from '../jobs/runner.ts';
import { loadRow, type WireRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { probeAudioSeconds, renderHeadliner } from './render.ts';

export const HEADLINER_RENDER_JOB = 'headliner.render';
export const HEADLINER_SWEEP_JOB = 'headliner.sweep';
/** Attempts before a video is Failed: an encoder killed by a busy machine gets two more. */
export const HEADLINER_ATTEMPTS = 3;
/** A rendered video is at most this large (a 60 s 1080p audiogram is a few megabytes). */
const MAX_VIDEO_BYTES = 2 * 1024 ** 3;

export const headlinerKeys = {
  dir: (clipId: string) => `${clipKeys.dir(clipId)}/headliner`,
  video: (clipId: string, id: string) => `${clipKeys.dir(clipId)}/headliner/${id}.mp4`,
};

type VideoRow = {
  id: string;
  clip_id: string;
  organization_id: string;
  aspect_ratio: HeadlinerAspectRatio;
  transcript_enabled: boolean;
  background_color: string;
  foreground_color: string;
  state: HeadlinerVideoState;
  problem: string | null;
  attempts: number;
  duration_seconds: number | null;
  size_bytes: number | string | null;
  blob_key: string | null;
  created_at_utc: Date;
  created_by_id: string | null;
  modified_at_utc: Date;
};

const iso = (d: Date) => new Date(d).toISOString();

export function headlinerToWire(r: VideoRow): HeadlinerVideo {
  const frame = HEADLINER_FRAMES[r.aspect_ratio];
  const ready = r.state === 'Ready';
  return {
    Id: r.id,
    ClipId: r.clip_id,
    AspectRatio: r.aspect_ratio,
    Width: frame.width,
    Height: frame.height,
    TranscriptEnabled: r.transcript_enabled,
    BackgroundColor: r.background_color,
    ForegroundColor: r.foreground_color,
    State: r.state,
    Problem: r.problem,
    Attempts: r.attempts,
    DurationSeconds: ready && r.duration_seconds !== null ? Number(r.duration_seconds) : null,
    SizeInBytes: ready && r.size_bytes !== null ? Number(r.size_bytes) : null,
    DownloadUrl: ready ? `/api/v1/clips/${r.clip_id}/headliner-videos/${r.id}/download` : null,
    CreatedAtUtc: iso(r.created_at_utc),
    CreatedById: r.created_by_id,
    ModifiedAtUtc: iso(r.modified_at_utc),
  };
}

/** The clip's videos, newest first (one request's in settings order: see requestHeadlinerVideos). */
export async function listHeadlinerVideos(q: Queryable, clipId: string): Promise<HeadlinerVideo[]> {
  const rows = await q.query<VideoRow>(`SELECT * FROM headliner_videos WHERE clip_id = $1 ORDER BY created_at_utc DESC, id`, [clipId]);
  return rows.map(headlinerToWire);
}

/** A Ready video of the clip and its file's key, or null. */
export async function readyVideo(q: Queryable, clipId: string, id: string): Promise<{ key: string; ratio: HeadlinerAspectRatio } | null> {
  const [row] = await q.query<VideoRow>(`SELECT * FROM headliner_videos WHERE id = $1 AND clip_id = $2 AND state = 'Ready' AND blob_key IS NOT NULL`, [id, clipId]);
  return row ? { key: row.blob_key!, ratio: row.aspect_ratio } : null;
}

/** The stored audio a video is made of: the clip's published version (as listeners hear it, with
 * its intro) else its upload; null when there is none. */
async function audioOf(blobs: BlobStore, clipId: string): Promise<{ key: string; published: boolean } | null> {
  const published = await readPublishedVersion(blobs, clipId);
  if (published && (await blobs.size(mediaFiles.audio(published.folder))) !== null) return { key: mediaFiles.audio(published.folder), published: true };
  const meta = await readJsonBlob<UploadMeta>(blobs, clipKeys.meta(clipId));
  const key = meta ? mediaFiles.audio(clipMediaFolder(clipId, meta)) : null;
  return key && (await blobs.size(key)) !== null ? { key, published: false } : null;
}

/** The program's headliner-video setting in effect (its own over the organization's defaults). */
async function settingOf(q: Queryable, organizationId: string, programId: string): Promise<HeadlinerVideos> {
  const [organization, program] = await Promise.all([loadRow(q, 'organization', organizationId, organizationId), loadRow(q, 'program', organizationId, programId)]);
  const own = (level: 'Organization' | 'Program', row: WireRow | null) => ownOf('HeadlinerVideos', row?.[ROW_FIELD[level].HeadlinerVideos]);
  return resolveSetting('HeadlinerVideos', own('Organization', organization), own('Program', program)).values;
}

const RenderSchema = z.object({ organizationId: z.string(), clipId: z.string(), videoId: z.string() });
type RenderJob = z.infer<typeof RenderSchema>;
const SweepSchema = z.object({
  organizationId: z.string(),
  clipId: z.string(),
  /** Files of replaced videos; absent: the clip was deleted, and all its videos go if it still is. */
  keys: z.array(z.string()).optional(),
});

/**
 * POST …/headliner-videos: the clip's audio must be there (400 at body), captions asked for need a
 * transcript (400 at transcriptEnabled), and none of its videos may be under way (400 at body);
 * then one transaction replaces the videos of the ratios in effect and queues their jobs.
 */
export async function requestHeadlinerVideos(
  deps: AppDeps,
  blobs: BlobStore,
  who: { organizationId: string; userId: string },
  clip: WireRow,
  query: { transcriptEnabled?: boolean | undefined },
): Promise<HeadlinerVideo[]> {
  const clipId = clip.Id;
  if (!(await audioOf(blobs, clipId))) throw badRequest([fieldError('body', formError('invalid', 'domain_headliner_no_audio'))]);
  const setting = await settingOf(deps.store, who.organizationId, String(clip['ProgramId']));
  const transcript = await loadOwnerTranscript(deps.store, 'clip', clipId);
  const hasCues = (transcript?.cues.length ?? 0) > 0;
  if (query.transcriptEnabled === true && !hasCues) throw badRequest([fieldError('transcriptEnabled', formError('invalid', 'domain_headliner_no_transcript'))]);
  // The setting's default asks for captions of every clip; one without a transcript is made without (the row says so).
  const captions = (query.transcriptEnabled ?? setting.TranscriptEnabled) && hasCues;
  const ratios = sortRatios(setting.AspectRatios.length > 0 ? setting.AspectRatios : ['1:1']);
  const at = now(deps);
  const ids = await deps.store.tx(async (q) => {
    // The clip's row locked: two requests at once queue one set of videos, the other is refused.
    const [locked] = await q.query<{ deleted: boolean }>(`SELECT deleted FROM clips WHERE id = $1 FOR UPDATE`, [clipId]);
    if (!locked || locked.deleted) throw notFound();
    const [busy] = await q.query(`SELECT 1 FROM headliner_videos WHERE clip_id = $1 AND state IN ('Queued', 'Rendering') LIMIT 1`, [clipId]);
    if (busy) throw badRequest([fieldError('body', formError('invalid', 'domain_headliner_busy'))]);
    const replaced = await q.query<{ blob_key: string | null }>(`DELETE FROM headliner_videos WHERE clip_id = $1 AND aspect_ratio = ANY($2::text[]) RETURNING blob_key`, [clipId, ratios]);
    const keys = replaced.flatMap((r) => (r.blob_key ? [r.blob_key] : []));
    if (keys.length > 0) await enqueueJob(q, HEADLINER_SWEEP_JOB, { organizationId: who.organizationId, clipId, keys }, { runAt: new Date(Date.now() + DEFAULT_MEDIA_GRACE_MS) });
    const made: string[] = [];
    for (const [i, ratio] of ratios.entries()) {
      const id = randomUUID();
      // A millisecond apart in settings order, so the list reads as the setting does.
      const created = new Date(at.getTime() - i);
      await q.query(
        `INSERT INTO headliner_videos (id, clip_id, organization_id, aspect_ratio, transcript_enabled, background_color, foreground_color, state, attempts, created_at_utc, created_by_id, modified_at_utc)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'Queued', 0, $8, $9, $8)`,
        [id, clipId, who.organizationId, ratio, captions, setting.BackgroundColor, setting.ForegroundColor, created, who.userId],
      );
      await enqueueJob(q, HEADLINER_RENDER_JOB, { organizationId: who.organizationId, clipId, videoId: id } satisfies RenderJob, { maxAttempts: HEADLINER_ATTEMPTS });
      made.push(id);
    }
    return made;
  });
  return (await listHeadlinerVideos(deps.store, clipId)).filter((v) => ids.includes(v.Id));
}

/** Queues, in the transaction that deletes the clip, the removal of its videos after the grace period. */
export function enqueueHeadlinerSweep(q: Queryable, organizationId: string, clipId: string): Promise<unknown> {
  return enqueueJob(q, HEADLINER_SWEEP_JOB, { organizationId, clipId }, { runAt: new Date(Date.now() + DEFAULT_MEDIA_GRACE_MS), maxAttempts: 5 });
}

/** Moves the video to `state` with the fields given; false when it is gone (replaced, clip deleted). */
async function moveTo(deps: AppDeps, id: string, state: HeadlinerVideoState, fields: { problem?: string | null; attempts?: number; seconds?: number; size?: number; key?: string } = {}): Promise<boolean> {
  const rows = await deps.store.query<{ id: string }>(
    `UPDATE headliner_videos SET state = $2, problem = CASE WHEN $3::boolean THEN $4 ELSE problem END, attempts = COALESCE($5, attempts),
       duration_seconds = COALESCE($6, duration_seconds), size_bytes = COALESCE($7, size_bytes), blob_key = COALESCE($8, blob_key), modified_at_utc = $9
     WHERE id = $1 RETURNING id`,
    [id, state, fields.problem !== undefined, fields.problem ?? null, fields.attempts ?? null, fields.seconds ?? null, fields.size ?? null, fields.key ?? null, now(deps)],
  );
  return rows.length > 0;
}

/** The artwork's stored file: the clip's own, else its program's (large variant, else the original). */
async function artworkKey(blobs: BlobStore, rows: Array<WireRow | null>): Promise<string | null> {
  for (const row of rows) {
    const urls = (row?.['Urls'] as Record<string, unknown> | null | undefined) ?? {};
    const path = String(urls['ImagePrivateUrl'] ?? urls['ImagePublicUrl'] ?? '');
    const m = /^\/images\/(clip|program)\/([0-9a-fA-F-]{36})\/([A-Za-z0-9_-]+)/.exec(path);
    if (!m) continue;
    for (const key of [imageKeys.variant(m[1] as 'clip', m[2]!, m[3]!, 'large'), imageKeys.original(m[1] as 'clip', m[2]!, m[3]!)]) {
      if ((await blobs.size(key)) !== null) return key;
    }
  }
  return null;
}

async function copyOut(blobs: BlobStore, key: string, path: string): Promise<void> {
  const blob = await blobs.blob(key);
  await pipeline(Readable.fromWeb(blob.stream() as import('node:stream/web').ReadableStream<Uint8Array>), createWriteStream(path));
}

/** A render's failures are the server's (ffmpeg on the studio's own inputs, the disk, the
 *  database): the screen says this, and the error (with its paths, hosts and tables) stays in the
 *  runner's log and on the failed job. */
export const HEADLINER_PROBLEM = 'The server could not make the video: support can see why';

async function renderVideo(deps: AppDeps, blobs: BlobStore, job: RenderJob, ctx: JobContext): Promise<void> {
  const [row] = await deps.store.query<VideoRow>(`SELECT * FROM headliner_videos WHERE id = $1`, [job.videoId]);
  if (!row || (row.state !== 'Queued' && row.state !== 'Rendering')) return;
  const clip = await loadRow(deps.store, 'clip', job.organizationId, job.clipId);
  if (!clip || clip.Deleted) return; // the clip's sweep removes the row
  if (!(await moveTo(deps, row.id, 'Rendering', { attempts: ctx.attempt }))) return;
  const audio = await audioOf(blobs, job.clipId);
  if (!audio) {
    await moveTo(deps, row.id, 'Failed', { problem: 'The clip’s audio was removed before the video could be made' });
    return;
  }
  const work = await mkdtemp(join(tmpdir(), 'castaway-headliner-'));
  try {
    try {
      const audioPath = join(work, 'audio');
      await copyOut(blobs, audio.key, audioPath);
      const total = await probeAudioSeconds(audioPath, ctx.signal);
      if (total === null) {
        await moveTo(deps, row.id, 'Failed', { problem: 'The clip’s audio cannot be read as audio' });
        return;
      }
      // The published version starts with the program's intro (the same in every episode): the video starts after it.
      const rawIntro = audio.published ? Number(clip['PublishedIntroSeconds'] ?? 0) : 0;
      const intro = Number.isFinite(rawIntro) && rawIntro > 0 && rawIntro < total ? rawIntro : 0;
      const seconds = headlinerSeconds(total - intro);
      const program = await loadRow(deps.store, 'program', job.organizationId, String(clip['ProgramId']));
      const art = await artworkKey(blobs, [clip, program]);
      const artworkPath = art ? join(work, 'artwork') : null;
      if (art && artworkPath) await copyOut(blobs, art, artworkPath);
      let cues: TranscriptCue[] = [];
      if (row.transcript_enabled) cues = ((await loadOwnerTranscript(deps.store, 'clip', job.clipId))?.cues ?? []).map(cueFromWire);
      const title = typeof clip['Title'] === 'string' && clip['Title'].trim() !== '' ? clip['Title'].trim() : null;
      const outPath = join(work, 'video.mp4');
      await renderHeadliner({
        ratio: row.aspect_ratio,
        audioPath,
        introSeconds: intro,
        seconds,
        artworkPath,
        title,
        cues,
        background: row.background_color,
        foreground: row.foreground_color,
        workDir: work,
        outPath,
        signal: ctx.signal,
      });
      const key = headlinerKeys.video(job.clipId, row.id);
      const { size } = await blobs.put(key, Readable.toWeb(createReadStream(outPath)) as ReadableStream<Uint8Array>, MAX_VIDEO_BYTES);
      const rendered = (await probeAudioSeconds(outPath)) ?? seconds;
      if (size !== (await stat(outPath)).size) throw new Error('The video was not stored whole');
      // Replaced or its clip deleted while it rendered: the file is nobody's.
      if (!(await moveTo(deps, row.id, 'Ready', { problem: null, seconds: rendered, size, key }))) await blobs.remove(key);
    } catch (e) {
      const last = ctx.attempt >= ctx.maxAttempts;
      if (!last) await moveTo(deps, row.id, 'Queued', { problem: HEADLINER_PROBLEM });
      throw e;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function sweep(deps: AppDeps, blobs: BlobStore, job: z.infer<typeof SweepSchema>): Promise<void> {
  if (job.keys) {
    const named = new Set((await deps.store.query<{ blob_key: string }>(`SELECT blob_key FROM headliner_videos WHERE clip_id = $1 AND blob_key IS NOT NULL`, [job.clipId])).map((r) => r.blob_key));
    for (const key of job.keys) if (key.startsWith(`${headlinerKeys.dir(job.clipId)}/`) && !named.has(key)) await blobs.remove(key);
    return;
  }
  const clip = await loadRow(deps.store, 'clip', job.organizationId, job.clipId);
  if (clip && clip.Deleted !== true) return; // the deletion was undone
  await deps.store.query(`DELETE FROM headliner_videos WHERE clip_id = $1`, [job.clipId]);
  await blobs.remove(headlinerKeys.dir(job.clipId));
}

/** The render job (its own pool: one video at a time per instance, never holding up audio processing) and the sweep. */
export function headlinerJobs(deps: AppDeps, blobs: BlobStore): JobHandlers {
  return {
    [HEADLINER_RENDER_JOB]: defineJob({
      pool: 'headliner',
      payload: RenderSchema,
      run: (job, ctx) => renderVideo(deps, blobs, job, ctx),
      giveUp: async (job) => {
        const [row] = await deps.store.query<{ state: string }>(`SELECT state FROM headliner_videos WHERE id = $1`, [job.videoId]);
        if (row && (row.state === 'Queued' || row.state === 'Rendering')) await moveTo(deps, job.videoId, 'Failed', { problem: HEADLINER_PROBLEM });
      },
    }),
    [HEADLINER_SWEEP_JOB]: defineJob({ payload: SweepSchema, run: (job) => sweep(deps, blobs, job) }),
  };
}
