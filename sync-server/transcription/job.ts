// Automatic transcription as a durable job (issue 34). POST …/transcript (startTranscription)
// records the request, sets TranscriptStatus Queued and queues the job in one transaction; the
// job decodes the audio to 16 kHz mono (audio16k.ts), runs the engine (engine.ts) and saves the
// cues through the transcript storage (storeTranscript: Completed, search text, public URL).
//
//   request ──tx: transcriptions row Queued, TranscriptStatus Queued, job queued──> (job)
//   attempt n: InProgress ──decode──engine (child process, timeout)──store──> Completed
//                  │ the engine or the disk threw: Problem kept, Queued again (backoff), tried again
//                  │ last attempt threw (giveUp) ─────────────────────────────────────> Failed + why
//                  └ nothing to retry (no audio any more, audio that is not audio, no speech heard) ─> Failed + why
//
// A request superseded by a newer one (the row's id changed) or whose clip was deleted ends
// quietly; one whose row got a transcript saved or imported meanwhile (TranscriptStatus Completed
// again) keeps that one: the request is Failed, saying so, and the row left as it is. The check is
// made when the job starts and just before it writes, not in the write's transaction: a save in
// the very same instant may still be replaced. TranscriptStatus changes reach devices as any row change does (sync poke after commit).
import { rm } from 'node:fs/promises';
import * as z from 'zod';
import { formError } from '../../src/domain/form-errors.ts';
import { checkCues, type TranscriptCue } from '../../src/domain/transcripts.ts';
import { isTranscribing, TranscriptStatus } from '../../src/domain/transcription.ts';
import { isMediaError } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import type { Transcription } from '../../src/protocol/api/transcription.ts';
import { now, type AppDeps } from '../app.ts';
import { readJsonBlob, type BlobStore } from '../audio/blob-store.ts';
import { clipKeys, clipMediaFolder, mediaFiles, recordingKeys, recordingMediaFolder, type CurrentAudio, type UploadMeta } from '../audio/media-paths.ts';
import { readPublishedVersion } from '../audio/published-media.ts';
import { storeTranscript, TRANSCRIPT_OWNERS } from '../api/transcripts.ts';
import { badRequest, fieldError, notFound } from '../errors.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobContext, type JobHandlers } from '../jobs/runner.ts';
import { loadRow, updateRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { engineWavPath, writeEngineWav } from './audio16k.ts';
import { engineLanguage, engineTimeoutMs, TranscriptionEngineError, type TranscriptionEngine } from './engine.ts';
import { assertUnderCap } from '../billing/entitlements.ts';

export const TRANSCRIPTION_JOB = 'transcript.transcribe';
/** Attempts before the transcription is Failed (an engine killed by a busy machine gets two more). */
export const TRANSCRIPTION_ATTEMPTS = 3;

export type TranscriptionOwner = 'clip' | 'recording';
const KEY = { clip: 'clip_id', recording: 'recording_id' } as const;

type RequestRow = {
  id: string;
  owner_id: string;
  language: string;
  publish: boolean | null;
  engine: string;
  status: TranscriptStatus;
  problem: string | null;
  attempts: number;
  audio_seconds: number | null;
  engine_seconds: number | null;
  requested_at_utc: Date;
  requested_by_id: string | null;
  finished_at_utc: Date | null;
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function transcriptionToWire(owner: TranscriptionOwner, r: RequestRow): Transcription {
  return {
    ...(owner === 'clip' ? { ClipId: r.owner_id } : { RecordingId: r.owner_id }),
    Status: r.status,
    Language: r.language,
    Publish: r.publish,
    Engine: r.engine,
    Problem: r.problem,
    Attempts: r.attempts,
    AudioSeconds: r.audio_seconds,
    EngineSeconds: r.engine_seconds,
    RequestedAtUtc: iso(r.requested_at_utc)!,
    RequestedById: r.requested_by_id,
    FinishedAtUtc: iso(r.finished_at_utc),
  };
}

export async function loadTranscription(q: Queryable, owner: TranscriptionOwner, id: string, lock = false): Promise<RequestRow | null> {
  const [row] = await q.query<RequestRow>(`SELECT ${KEY[owner]} AS owner_id, * FROM transcriptions WHERE ${KEY[owner]} = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return row ? { ...row, id: String(row.id) } : null;
}

/** The stored file the engine hears: a clip's published version (its cut, as listeners hear it, so
 * the cue times match), else its upload; a recording's current audio. Null when there is none. */
async function audioKeyOf(blobs: BlobStore, owner: TranscriptionOwner, id: string): Promise<string | null> {
  if (owner === 'recording') {
    const current = await readJsonBlob<CurrentAudio>(blobs, recordingKeys.current(id));
    return current ? mediaFiles.audio(recordingMediaFolder(id, current)) : null;
  }
  const published = await readPublishedVersion(blobs, id);
  if (published) return mediaFiles.audio(published.folder);
  const meta = await readJsonBlob<UploadMeta>(blobs, clipKeys.meta(id));
  return meta ? mediaFiles.audio(clipMediaFolder(id, meta)) : null;
}

/** Sets the content row's TranscriptStatus in the caller's transaction; returns the new version when it changed. */
async function setContentStatus(q: Queryable, owner: TranscriptionOwner, who: { organizationId: string; userId: string | null }, id: string, status: TranscriptStatus, at: Date): Promise<number | null> {
  const content = await loadRow(q, owner, who.organizationId, id, { forUpdate: true });
  if (!content || content.Deleted || content['TranscriptStatus'] === status) return null;
  const written = await updateRow(q, owner, content, { organizationId: who.organizationId, userId: who.userId, now: at }, { ...content, TranscriptStatus: status });
  return written.Version;
}

const TranscriptionJobSchema = z.object({
  organizationId: z.string(),
  userId: z.string().nullable(),
  owner: z.enum(['clip', 'recording']),
  id: z.string(),
  /** The transcriptions row this job serves; a newer request replaces it. */
  requestId: z.string(),
});
type TranscriptionJob = z.infer<typeof TranscriptionJobSchema>;

/**
 * POST …/transcript: checks the language (400 at language), that there is audio and no
 * transcription under way (400 at body) and that the audio's minutes fit under the month's
 * TranscriptionMinutes cap (403, sync-server/billing/entitlements.ts), then records the request
 * and queues the job with TranscriptStatus Queued, in one transaction.
 */
export async function startTranscription(
  deps: AppDeps,
  blobs: BlobStore,
  engine: TranscriptionEngine,
  who: { organizationId: string; userId: string },
  owner: TranscriptionOwner,
  id: string,
  query: { language: string; publish?: boolean | undefined },
): Promise<void> {
  const language = engineLanguage(engine, query.language);
  if (!language) {
    throw badRequest([fieldError('language', formError('invalid', 'domain_transcription_language', { language: query.language, languages: engine.languages.join(', ') }))]);
  }
  if (!(await audioKeyOf(blobs, owner, id))) throw badRequest([fieldError('body', formError('invalid', 'domain_transcription_no_audio'))]);
  const at = now(deps);
  const version = await deps.store.tx(async (q) => {
    const content = await loadRow(q, owner, who.organizationId, id, { forUpdate: true });
    if (!content || content.Deleted) throw notFound();
    if (isTranscribing(content['TranscriptStatus'] as string | null)) throw badRequest([fieldError('body', formError('invalid', 'domain_transcription_busy'))]);
    // The audio's minutes against the month's TranscriptionMinutes cap, before anything is queued.
    const seconds = content['DurationSeconds'];
    await assertUnderCap(q, who.organizationId, 'TranscriptionMinutes', typeof seconds === 'number' ? seconds / 60 : 0, at);
    const publish = owner === 'clip' ? (query.publish ?? null) : null;
    const [request] = await q.query<{ id: string }>(
      `INSERT INTO transcriptions (${KEY[owner]}, organization_id, language, publish, engine, status, problem, attempts, audio_seconds, engine_seconds, requested_at_utc, requested_by_id, finished_at_utc)
       VALUES ($1, $2, $3, $4, $5, $6, NULL, 0, NULL, NULL, $7, $8, NULL)
       ON CONFLICT (${KEY[owner]}) DO UPDATE SET language = EXCLUDED.language, publish = EXCLUDED.publish, engine = EXCLUDED.engine, status = EXCLUDED.status,
         problem = NULL, attempts = 0, audio_seconds = NULL, engine_seconds = NULL, requested_at_utc = EXCLUDED.requested_at_utc,
         requested_by_id = EXCLUDED.requested_by_id, finished_at_utc = NULL, id = nextval('transcriptions_id_seq')
       RETURNING id`,
      [id, who.organizationId, language, publish, engine.name, TranscriptStatus.Queued, at, who.userId],
    );
    const payload: TranscriptionJob = { organizationId: who.organizationId, userId: who.userId, owner, id, requestId: String(request!.id) };
    await enqueueJob(q, TRANSCRIPTION_JOB, payload, { maxAttempts: TRANSCRIPTION_ATTEMPTS });
    return setContentStatus(q, owner, who, id, TranscriptStatus.Queued, at);
  });
  if (version !== null) deps.bus.publish({ organizationId: who.organizationId, version });
}

/** Moves the job's request (if still current) and its row to `status`, with `fields` on the request. */
async function moveTo(
  deps: AppDeps,
  job: TranscriptionJob,
  status: TranscriptStatus,
  fields: { problem?: string | null; attempts?: number; audioSeconds?: number; engineSeconds?: number; keepRow?: boolean } = {},
): Promise<boolean> {
  const at = now(deps);
  const finished = status === TranscriptStatus.Completed || status === TranscriptStatus.Failed;
  const { current, version } = await deps.store.tx(async (q) => {
    const request = await loadTranscription(q, job.owner, job.id, true);
    if (!request || request.id !== job.requestId) return { current: false, version: null };
    await q.query(
      `UPDATE transcriptions SET status = $2, problem = CASE WHEN $3::boolean THEN $4 ELSE problem END, attempts = COALESCE($5, attempts),
         audio_seconds = COALESCE($6, audio_seconds), engine_seconds = COALESCE($7, engine_seconds), finished_at_utc = $8 WHERE id = $1`,
      [job.requestId, status, fields.problem !== undefined, fields.problem ?? null, fields.attempts ?? null, fields.audioSeconds ?? null, fields.engineSeconds ?? null, finished ? at : null],
    );
    // Completed is written by storeTranscript with the cues; the other states here.
    const version = status === TranscriptStatus.Completed || fields.keepRow ? null : await setContentStatus(q, job.owner, job, job.id, status, at);
    return { current: true, version };
  });
  if (version !== null) deps.bus.publish({ organizationId: job.organizationId, version });
  return current;
}

/** What a failure the engine does not describe (the disk, the database, a bug) says on screen. */
export const TRANSCRIPTION_SERVER_PROBLEM = 'The server could not make the transcript: support can see why';

/**
 * Why an attempt failed, in words a person can act on: the engine's own (not installed, timed out,
 * its exit), or for anything else TRANSCRIPTION_SERVER_PROBLEM. That error's text (a database's,
 * with its hosts and tables) is the server's: it stays in the runner's log and on the failed job.
 */
const reasonOf = (e: unknown) => (e instanceof TranscriptionEngineError ? e.message : TRANSCRIPTION_SERVER_PROBLEM).slice(0, 2000);

const SAVED_MEANWHILE = 'A transcript was saved while this one was being made: it was kept, and this one dropped';

/** The row's TranscriptStatus, or null when the row is gone. */
async function rowStatus(deps: AppDeps, job: TranscriptionJob): Promise<string | null | undefined> {
  const content = await loadRow(deps.store, job.owner, job.organizationId, job.id);
  return content && !content.Deleted ? ((content['TranscriptStatus'] as string | null) ?? null) : undefined;
}

async function transcribe(deps: AppDeps, blobs: BlobStore, engine: TranscriptionEngine, job: TranscriptionJob, ctx: JobContext): Promise<void> {
  const request = await loadTranscription(deps.store, job.owner, job.id);
  if (!request || request.id !== job.requestId || !isTranscribing(request.status)) return;
  const before = await rowStatus(deps, job);
  if (before === undefined) return;
  if (!isTranscribing(before)) {
    await moveTo(deps, job, TranscriptStatus.Failed, { problem: SAVED_MEANWHILE, keepRow: true });
    return;
  }
  if (!(await moveTo(deps, job, TranscriptStatus.InProgress, { attempts: ctx.attempt }))) return;
  const key = await audioKeyOf(blobs, job.owner, job.id);
  if (!key) {
    await moveTo(deps, job, TranscriptStatus.Failed, { problem: 'The audio was removed before it could be transcribed' });
    return;
  }
  const wav = engineWavPath();
  let cues: TranscriptCue[];
  let audioSeconds: number;
  const started = performance.now();
  try {
    try {
      audioSeconds = await writeEngineWav(await blobs.blob(key), wav, ctx.signal);
    } catch (e) {
      // Audio that is not audio fails the same way every time: a result, not tried again.
      if (!isMediaError(e)) throw e;
      await moveTo(deps, job, TranscriptStatus.Failed, { problem: mediaProblemText({ code: e.code, details: e.details }, 'en-US') });
      return;
    }
    const heard = await engine.transcribe(wav, request.language, { signal: ctx.signal, timeoutMs: engineTimeoutMs(audioSeconds) });
    cues = heard.map((c) => ({ start: c.start, end: c.end, text: c.text, speaker: null }));
  } catch (e) {
    // Kept while it is tried again (the screen says why it is queued once more).
    const last = ctx.attempt >= ctx.maxAttempts;
    if (!last) await moveTo(deps, job, TranscriptStatus.Queued, { problem: reasonOf(e) });
    throw e;
  } finally {
    await rm(wav, { force: true });
  }
  const engineSeconds = (performance.now() - started) / 1000;
  if (cues.length === 0) {
    await moveTo(deps, job, TranscriptStatus.Failed, { problem: `${engine.name} heard no speech in the audio`, audioSeconds, engineSeconds });
    return;
  }
  const checked = checkCues(cues);
  if (!checked.ok) throw new TranscriptionEngineError(`${engine.name} gave cues that are not valid (cue ${checked.cue ?? '?'}: ${checked.error.type})`);
  const still = await loadTranscription(deps.store, job.owner, job.id);
  if (!still || still.id !== job.requestId) return; // asked again meanwhile: the newer job writes
  const current = await rowStatus(deps, job);
  if (current === undefined) return;
  if (current !== TranscriptStatus.InProgress) {
    await moveTo(deps, job, TranscriptStatus.Failed, { problem: SAVED_MEANWHILE, audioSeconds, engineSeconds, keepRow: true });
    return;
  }
  await storeTranscript(deps, job, TRANSCRIPT_OWNERS[job.owner], job.id, {
    cues: checked.cues,
    original: checked.cues,
    language: request.language,
    published: request.publish ?? undefined,
  });
  await moveTo(deps, job, TranscriptStatus.Completed, { problem: null, audioSeconds, engineSeconds });
}

/** The transcription job: its own pool, so a long transcription never holds up audio processing. */
export function transcriptionJobs(deps: AppDeps, blobs: BlobStore, engine: () => TranscriptionEngine): JobHandlers {
  return {
    [TRANSCRIPTION_JOB]: defineJob({
      pool: 'transcription',
      payload: TranscriptionJobSchema,
      run: (job, ctx) => transcribe(deps, blobs, engine(), job, ctx),
      giveUp: async (job, error) => {
        await moveTo(deps, job, TranscriptStatus.Failed, { problem: reasonOf(error) });
      },
    }),
  };
}
