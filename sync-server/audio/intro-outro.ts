// A program's intro and outro (issue 33; routes sync-server/api/program-audio.ts, rules
// src/domain/intro-outro.ts). An upload is stored in a folder of its own and checked by a durable
// job, whose operation the PUT answers and the client polls:
//
//   PUT ──file in programs/{id}/intro-outro/{uploadId}/audio──> operation Busy + job (one transaction)
//          job: decode it whole ──not audio / < 1 s / > 10 min──> Failed (the folder removed)
//                    └── ok ──ONE transaction──> program_intro_outro (what the clip pipeline reads),
//                                                the program row's IntroOutro (what devices see),
//                                                operation Success
//   DELETE ──ONE transaction──> both cleared (the files kept: published episodes were made with them)
//   program deleted ──same transaction──> sweep job, after the media grace period: still deleted?
//                     ──> program_intro_outro rows, then the files (programs/{id}/intro-outro/…), removed
//   apply ──job──> the clip processing job of each of the program's episodes with audio, which makes
//                  a new published version where the version's intro/outro is not the current one
//
// Setting or removing an intro changes no episode by itself: an episode takes the intro in effect
// when it is next processed (new audio, a new cut, new chapters) or when "apply" asks for it.
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { INTRO_OUTRO_KEY, INTRO_OUTRO_MAX_SECONDS, IntroOutroFailure, introOutroLengthProblem, type IntroOutroType } from '../../src/domain/intro-outro.ts';
import { openAudioDecoding } from '../../src/media/decode.ts';
import { isMediaError } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import { blobSource } from '../../src/media/source.ts';
import type { IntroOutroFile } from '../../src/protocol/entities.ts';
import type { ProgramAudioOperation } from '../../src/protocol/api/program-audio.ts';
import { now, type AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { loadRow, updateRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import type { BlobStore } from './blob-store.ts';
import { introOutroKeys } from './intro-outro-render.ts';
import { registerNodeAudioDecoders } from '../media/node-decoder.ts';
import { audioContentType } from './upload-rules.ts';
import { DEFAULT_MEDIA_GRACE_MS, enqueueClipAudio } from './versions.ts';

registerNodeAudioDecoders();

export const INTRO_OUTRO_JOB = 'program.processIntroOutro';
export const APPLY_INTRO_OUTRO_JOB = 'program.applyIntroOutro';
export const INTRO_OUTRO_SWEEP_JOB = 'program.sweepIntroOutro';

/** The URL a device plays the program's intro or outro from (v: the upload, so a cache never mixes two). */
export const introOutroUrl = (programId: string, type: IntroOutroType, uploadId: string) => `/api/media/programs/${programId}/audio/${type}?v=${uploadId}`;

type OperationRow = {
  id: string;
  organization_id: string;
  program_id: string;
  type: IntroOutroType;
  user_id: string | null;
  upload_id: string;
  file_name: string;
  content_type: string;
  status: ProgramAudioOperation['Status'];
  duration_seconds: number | null;
  failure_code: IntroOutroFailure | null;
  failure_message: string | null;
};

export function operationToWire(row: OperationRow): ProgramAudioOperation {
  return {
    Id: row.id,
    Status: row.status,
    ProgramId: row.program_id,
    Type: row.type,
    FileName: row.file_name,
    DurationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    FailureReason: row.status === 'Failed' && row.failure_code ? { Code: row.failure_code, Message: row.failure_message ?? '' } : null,
  };
}

export async function loadOperation(q: Queryable, organizationId: string, operationId: string, forUpdate = false): Promise<OperationRow | null> {
  const [row] = await q.query<OperationRow>(`SELECT * FROM program_audio_operations WHERE id = $1 AND organization_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [operationId, organizationId]);
  return row ?? null;
}

/** A new upload's id and the blob key its file goes to (then startIntroOutro). */
export function newIntroOutroUpload(programId: string): { uploadId: string; key: string } {
  const uploadId = randomUUID();
  return { uploadId, key: introOutroKeys.audio(programId, uploadId) };
}

/** The stored file's operation, Busy, and its job, in one transaction. */
export async function startIntroOutro(
  deps: AppDeps,
  upload: { organizationId: string; programId: string; type: IntroOutroType; userId: string; uploadId: string; fileName: string; size: number },
): Promise<ProgramAudioOperation> {
  const id = randomUUID();
  const row = await deps.store.tx(async (q) => {
    const [inserted] = await q.query<OperationRow>(
      `INSERT INTO program_audio_operations (id, organization_id, program_id, type, user_id, upload_id, file_name, content_type, size_bytes, status, started_at_utc)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'Busy', $10) RETURNING *`,
      [id, upload.organizationId, upload.programId, upload.type, upload.userId, upload.uploadId, upload.fileName, audioContentType(upload.fileName), upload.size, now(deps)],
    );
    await enqueueJob(q, INTRO_OUTRO_JOB, { organizationId: upload.organizationId, operationId: id }, { maxAttempts: 3 });
    return inserted!;
  });
  return operationToWire(row);
}

/** Seconds of audio in the file, decoded whole (the container's own figure may lie: a damaged file). */
async function decodedSeconds(blob: Blob): Promise<number> {
  const decoding = await openAudioDecoding(blobSource(blob), { reuseBuffers: true });
  let seconds = 0;
  for await (const block of decoding.blocks) seconds += (block.channels[0]?.length ?? 0) / block.sampleRate;
  return Math.round(seconds * 1000) / 1000;
}

const FAILURE_TEXT: Record<Exclude<IntroOutroFailure, 'NotAudio'>, string> = {
  TooShort: 'The file has less than a second of audio',
  TooLong: `The file is longer than ${INTRO_OUTRO_MAX_SECONDS / 60} minutes`,
  Error: 'The file could not be processed; try again',
};

async function fail(deps: AppDeps, blobs: BlobStore, row: OperationRow, code: IntroOutroFailure, message: string): Promise<void> {
  await deps.store.query(
    `UPDATE program_audio_operations SET status = 'Failed', failure_code = $2, failure_message = $3, finished_at_utc = $4 WHERE id = $1 AND status = 'Busy'`,
    [row.id, code, message, now(deps)],
  );
  await blobs.remove(introOutroKeys.folder(row.program_id, row.upload_id));
}

/** The job's run: see the header. Idempotent: an operation no longer Busy is left as it is. */
async function processIntroOutro(deps: AppDeps, blobs: BlobStore, job: { organizationId: string; operationId: string }): Promise<void> {
  const row = await loadOperation(deps.store, job.organizationId, job.operationId);
  if (!row || row.status !== 'Busy') return;
  let seconds: number;
  try {
    seconds = await decodedSeconds(await blobs.blob(introOutroKeys.audio(row.program_id, row.upload_id)));
  } catch (e) {
    if (!isMediaError(e)) throw e;
    return fail(deps, blobs, row, IntroOutroFailure.NotAudio, mediaProblemText({ code: e.code, details: e.details }, 'en-US'));
  }
  const problem = introOutroLengthProblem(seconds);
  if (problem) return fail(deps, blobs, row, problem, FAILURE_TEXT[problem]);

  const at = now(deps);
  const version = await deps.store.tx(async (q) => {
    const op = await loadOperation(q, job.organizationId, job.operationId, true);
    if (!op || op.status !== 'Busy') return null;
    const program = await loadRow(q, 'program', op.organization_id, op.program_id, { forUpdate: true });
    if (!program || program.Deleted) {
      await q.query(`UPDATE program_audio_operations SET status = 'Failed', failure_code = 'Error', failure_message = 'The program was deleted', finished_at_utc = $2 WHERE id = $1`, [op.id, at]);
      return null;
    }
    await q.query(
      `INSERT INTO program_intro_outro (program_id, type, organization_id, upload_id, content_type, duration_seconds) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (program_id, type) DO UPDATE SET upload_id = EXCLUDED.upload_id, content_type = EXCLUDED.content_type, duration_seconds = EXCLUDED.duration_seconds`,
      [op.program_id, op.type, op.organization_id, op.upload_id, op.content_type, seconds],
    );
    const file: IntroOutroFile = { FileName: op.file_name, DurationSeconds: seconds, UploadedAtUtc: at.toISOString(), AudioUrl: introOutroUrl(op.program_id, op.type, op.upload_id) };
    const written = await updateRow(q, 'program', program, { organizationId: op.organization_id, userId: op.user_id, now: at, clientId: null }, withIntroOutro(program, op.type, file));
    await q.query(`UPDATE program_audio_operations SET status = 'Success', duration_seconds = $2, finished_at_utc = $3 WHERE id = $1`, [op.id, seconds, at]);
    return written.Version;
  });
  if (version !== null) deps.bus.publish({ organizationId: job.organizationId, version });
}

/** The program row with one of its intro/outro set (null: removed). */
function withIntroOutro(program: Record<string, unknown>, type: IntroOutroType, file: IntroOutroFile | null): Record<string, unknown> {
  const current = (program['IntroOutro'] as { Intro: IntroOutroFile | null; Outro: IntroOutroFile | null } | null | undefined) ?? { Intro: null, Outro: null };
  const next = { ...current, [INTRO_OUTRO_KEY[type]]: file };
  return { ...program, IntroOutro: next.Intro || next.Outro ? next : null };
}

/** Removes the program's intro or outro (nothing to remove: nothing changes). */
export async function removeIntroOutro(deps: AppDeps, organizationId: string, programId: string, type: IntroOutroType, userId: string): Promise<void> {
  const version = await deps.store.tx(async (q) => {
    await q.query(`DELETE FROM program_intro_outro WHERE program_id = $1 AND type = $2`, [programId, type]);
    const program = await loadRow(q, 'program', organizationId, programId, { forUpdate: true });
    const shown = (program?.['IntroOutro'] as Record<string, unknown> | null | undefined)?.[INTRO_OUTRO_KEY[type]];
    if (!program || !shown) return null;
    return (await updateRow(q, 'program', program, { organizationId, userId, now: now(deps), clientId: null }, withIntroOutro(program, type, null))).Version;
  });
  if (version !== null) deps.bus.publish({ organizationId, version });
}

/** The program's episodes with audio (what "apply" remakes). */
const CLIPS_WITH_AUDIO = `FROM clips WHERE program_id = $1 AND organization_id = $2 AND NOT deleted AND data->'Urls'->>'AudioPrivateUrl' IS NOT NULL`;

/** Queues the remaking of the program's episodes with its current intro and outro; how many it will look at. */
export async function applyIntroOutro(deps: AppDeps, organizationId: string, programId: string, userId: string): Promise<number> {
  return deps.store.tx(async (q) => {
    const [count] = await q.query<{ n: number | string }>(`SELECT count(*) AS n ${CLIPS_WITH_AUDIO}`, [programId, organizationId]);
    await enqueueJob(q, APPLY_INTRO_OUTRO_JOB, { organizationId, programId, userId }, { singletonKey: `${APPLY_INTRO_OUTRO_JOB}:${programId}`, rerunIfRunning: true });
    return Number(count?.n ?? 0);
  });
}

/**
 * Queues, in the transaction that deletes the program, the removal of its intro and outro files
 * once the media grace period is over (a download or render under way finishes; a deletion undone
 * by then keeps them: the job looks again).
 */
export function enqueueIntroOutroSweep(q: Queryable, organizationId: string, programId: string): Promise<unknown> {
  return enqueueJob(q, INTRO_OUTRO_SWEEP_JOB, { organizationId, programId }, { runAt: new Date(Date.now() + DEFAULT_MEDIA_GRACE_MS), maxAttempts: 5 });
}

/** A deleted program's intro and outro gone: what names them first, then their files. */
async function sweepIntroOutro(deps: AppDeps, blobs: BlobStore, organizationId: string, programId: string): Promise<void> {
  const program = await loadRow(deps.store, 'program', organizationId, programId);
  if (program && program['Deleted'] !== true) return;
  await deps.store.query(`DELETE FROM program_intro_outro WHERE program_id = $1`, [programId]);
  await blobs.remove(introOutroKeys.dir(programId));
}

const ApplySchema = z.object({ organizationId: z.string(), programId: z.string(), userId: z.string().nullable() });
const SweepSchema = z.object({ organizationId: z.string(), programId: z.string() });
const ProcessSchema = z.object({ organizationId: z.string(), operationId: z.string() });

export function introOutroJobs(deps: AppDeps, blobs: BlobStore): JobHandlers {
  return {
    [INTRO_OUTRO_JOB]: defineJob({
      pool: 'audio',
      payload: ProcessSchema,
      run: (job) => processIntroOutro(deps, blobs, job),
      async giveUp(job) {
        const row = await loadOperation(deps.store, job.organizationId, job.operationId);
        if (row?.status === 'Busy') await fail(deps, blobs, row, IntroOutroFailure.Error, FAILURE_TEXT.Error);
      },
    }),
    // Each episode's own processing job decides whether its version is current (versions.ts): one
    // already made with this intro and outro is left alone, so applying twice does no work twice.
    [INTRO_OUTRO_SWEEP_JOB]: defineJob({
      payload: SweepSchema,
      run: (job) => sweepIntroOutro(deps, blobs, job.organizationId, job.programId),
    }),
    [APPLY_INTRO_OUTRO_JOB]: defineJob({
      payload: ApplySchema,
      async run(job) {
        const clips = await deps.store.query<{ id: string }>(`SELECT id ${CLIPS_WITH_AUDIO} ORDER BY created_at_utc`, [job.programId, job.organizationId]);
        await deps.store.tx(async (q) => {
          for (const { id } of clips) await enqueueClipAudio(q, { organizationId: job.organizationId, clipId: id, userId: job.userId });
        });
      },
    }),
  };
}
