// Recording audio: the spec gives recordings Urls (AudioUrl, WaveformHighResUrl, WaveformLowResUrl)
// but no upload route (audio comes from recording agents), so agents ingest through an internal
// route that runs the clips' pipeline (analyzeStoredAudio: the worker's decode and peaks code).
//
//   PUT audio ──> stored as a new upload ──> row Processing ──(job)──┬─> Finalized  DurationSeconds, Urls → this upload
//   (400: file rules)    (no links, section 4)  + the job, one       │               (previous upload removed after commit)
//                                               transaction          └─> the row as it was before the ingest
//                                                                        (the upload removed; ingest says Failed + why;
//                                                                        also when the job gives up after its attempts)
//
// Each ingest is its own folder (recordings/{id}/{uploadId}/…) and current.json names the one the
// media URLs serve, so a failed ingest never replaces working audio. (A demo recording's
// current.json names a shared demo folder instead: media-paths.ts.)
//
// The routes (PUT …/audio, GET …/audio/ingest, the media files) are sync-server/api/media.ts's.
import { logOf } from '../observability/log.ts';
import * as z from 'zod';
import { isLiveAudioUrl } from '../../src/protocol/api/live-recordings.ts';
import { RecordingAudioIngestSchema, type RecordingAudioIngest } from '../../src/protocol/media.ts';
import type { AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { loadRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { readJsonBlob, type BlobStore } from './blob-store.ts';
import { writeAudioRow, type AudioRowPatch } from './clip-rows.ts';
import { removeLivePeaks } from './live-ingest.ts';
import { MediaErrorCode } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import { analyzeStoredAudio, type StoredAudioAnalysis } from './process.ts';
import { recordingKeys, recordingUrls, type CurrentAudio } from './media-paths.ts';
import { audioContentType } from './upload-rules.ts';

/** The ingest record, plus the row's audio fields from before it (restored if it fails). */
export type IngestRecord = RecordingAudioIngest & { uploadId: string; before: AudioRowPatch };

/** Finalized with links to the upload (section 4: audio, both waveforms and a duration). */
function finalizedPatch(id: string, durationSeconds: number): AudioRowPatch {
  return {
    State: 'Finalized',
    fields: { DurationSeconds: durationSeconds },
    urls: { AudioUrl: recordingUrls.audio(id), WaveformHighResUrl: recordingUrls.waveform(id, 'high'), WaveformLowResUrl: recordingUrls.waveform(id, 'low') },
  };
}

/**
 * Turns a stored ingest (recordingKeys.audio(id, ingest.uploadId)) into the recording's audio:
 * Finalized with it, or the recording as it was (see the header). The route's job runs it; run
 * again after a crash it does the same (the upload is still there, or the ingest fails again).
 */
export async function processRecordingIngest(deps: AppDeps, blobs: BlobStore, organizationId: string, userId: string | null, recordingId: string, ingest: IngestRecord): Promise<void> {
  const { uploadId } = ingest;
  let a: StoredAudioAnalysis;
  try {
    a = await analyzeStoredAudio(blobs, recordingKeys.audio(recordingId, uploadId), (res, ext) => recordingKeys.waveform(recordingId, uploadId, res, ext));
  } catch (e) {
    // Not bad media (analyzeStoredAudio reports that) but a failure around it, e.g. the disk.
    logOf(deps).error({ err: e, recordingId }, 'audio processing failed for recording');
    a = { info: null, waveforms: false, durationSeconds: null, problem: mediaProblemText({ code: MediaErrorCode.DecodeFailed }, 'en-US'), failed: true };
  }
  // A recording cannot be Finalized without both waveforms, so "no decoder here" fails it too.
  if (a.waveforms && a.durationSeconds !== null) {
    const current: CurrentAudio = { uploadId, contentType: audioContentType(ingest.UploadedAudioFileName), durationSeconds: a.durationSeconds, fileName: ingest.UploadedAudioFileName };
    // (Declared so: set in the transaction's callback, which the compiler does not follow.)
    let previous = null as CurrentAudio | null;
    const finalized = await underNewestIngest(deps, blobs, organizationId, userId, recordingId, uploadId, finalizedPatch(recordingId, a.durationSeconds), async (q) => {
      previous = await readJsonBlob<CurrentAudio>(blobs, recordingKeys.current(recordingId));
      await blobs.putBytes(recordingKeys.current(recordingId), JSON.stringify(current));
      await blobs.putBytes(recordingKeys.ingest(recordingId), JSON.stringify({ ...ingest, State: 'Finalized', AudioProcessingProblem: a.problem }));
      // A live recording's peaks rows (live-ingest.ts) go with the commit that gives it its waveforms.
      await removeLivePeaks(q, recordingId);
    });
    if (finalized && previous && !previous.media && previous.uploadId !== uploadId) await blobs.remove(recordingKeys.upload(recordingId, previous.uploadId));
    return;
  }
  await failRecordingIngest(deps, blobs, organizationId, userId, recordingId, ingest, a.problem);
}

/**
 * Writes the recording's row (`patch`, then `alsoInTransaction`) if this ingest is still the
 * newest, checked under the row's lock: ingest.json is written under it too (by the start, the
 * finalization and the failure), so an older ingest that finishes after a newer one started (a
 * retry after its backoff, another instance) neither makes its audio current nor rewrites the
 * newer one's record. A superseded ingest's file is removed, and so is one whose recording was
 * deleted while it ran, unless it is the audio the recording serves (an earlier attempt of it
 * finalized). Returns whether the row was written.
 */
async function underNewestIngest(
  deps: AppDeps, blobs: BlobStore, organizationId: string, userId: string | null, recordingId: string, uploadId: string,
  patch: AudioRowPatch, alsoInTransaction: (q: Queryable) => Promise<unknown>,
): Promise<boolean> {
  const written = await writeAudioRow(deps, { entity: 'recording', organizationId, id: recordingId }, patch, { userId }, {
    stands: async () => (await readJsonBlob<IngestRecord>(blobs, recordingKeys.ingest(recordingId)))?.uploadId === uploadId,
    alsoInTransaction,
  });
  // Superseded, or the recording deleted meanwhile (nothing will serve or finish this ingest then).
  if (written !== 'written' && (await readJsonBlob<CurrentAudio>(blobs, recordingKeys.current(recordingId)))?.uploadId !== uploadId) await blobs.remove(recordingKeys.upload(recordingId, uploadId));
  return written === 'written';
}

/** The ingest failed: the recording back to what it was (the audio it served, if an earlier ingest
 *  succeeded, or its fields before this ingest), the ingest Failed with why, the upload removed. */
async function failRecordingIngest(deps: AppDeps, blobs: BlobStore, organizationId: string, userId: string | null, recordingId: string, ingest: IngestRecord, problem: string | null): Promise<void> {
  // Only the newest ingest switches current.json, and this is it if it writes: read before the lock, it stands.
  const current = await readJsonBlob<CurrentAudio>(blobs, recordingKeys.current(recordingId));
  const written = await underNewestIngest(deps, blobs, organizationId, userId, recordingId, ingest.uploadId, current ? finalizedPatch(recordingId, current.durationSeconds) : ingest.before, async (q) => {
    if (current) await removeLivePeaks(q, recordingId);
    await blobs.putBytes(recordingKeys.ingest(recordingId), JSON.stringify({ ...ingest, State: 'Failed', AudioProcessingProblem: problem }));
  });
  if (written && current?.uploadId !== ingest.uploadId) await blobs.remove(recordingKeys.upload(recordingId, ingest.uploadId));
}

export const RECORDING_INGEST_JOB = 'recording.processIngest';

const IngestRecordSchema = RecordingAudioIngestSchema.extend({
  uploadId: z.string(),
  before: z.object({ State: z.string(), fields: z.record(z.string(), z.unknown()).optional(), urls: z.record(z.string(), z.string().nullable()).optional() }),
});
const RecordingIngestJobSchema = z.object({
  organizationId: z.string(),
  userId: z.string().nullable(),
  recordingId: z.string(),
  ingest: z.custom<IngestRecord>((v) => IngestRecordSchema.safeParse(v).success),
});
type RecordingIngestJob = z.infer<typeof RecordingIngestJobSchema>;

/** The ingest processing job. Bad media is a result (processRecordingIngest); an attempt that throws
 *  (the disk, the database) is tried again, and after the last one the ingest fails as bad media does. */
export function recordingIngestJobs(deps: AppDeps, blobs: BlobStore): JobHandlers {
  return {
    [RECORDING_INGEST_JOB]: defineJob({
      pool: 'audio',
      payload: RecordingIngestJobSchema,
      run: (job) => processRecordingIngest(deps, blobs, job.organizationId, job.userId, job.recordingId, job.ingest),
      giveUp: (job) =>
        failRecordingIngest(deps, blobs, job.organizationId, job.userId, job.recordingId, job.ingest, mediaProblemText({ code: MediaErrorCode.DecodeFailed }, 'en-US')),
    }),
  };
}

/**
 * Records an ingest whose file is stored at recordingKeys.audio(id, uploadId) and makes the row
 * Processing, queueing in the same transaction the job (processRecordingIngest) that finishes it.
 */
export async function startRecordingIngest(deps: AppDeps, blobs: BlobStore, organizationId: string, userId: string | null, recordingId: string, upload: { uploadId: string; fileName: string; size: number }): Promise<IngestRecord> {
  // What the row had before: kept from an ingest still in flight, so two quick ingests that
  // both fail still restore the recording's own fields.
  const pending = await readJsonBlob<IngestRecord>(blobs, recordingKeys.ingest(recordingId));
  const row = await loadRow(deps.store, 'recording', organizationId, recordingId);
  const urls = (row?.Urls as Record<string, string | null> | undefined) ?? {};
  const before: AudioRowPatch = pending?.State === 'Processing'
    ? pending.before
    : isLiveAudioUrl(urls['AudioUrl'] ?? null)
      // A live stream's audio that fails: back to Live would be a stream nobody sends, Live for
      // ever; it ends without audio instead (section 4's zero-duration case) and says it is torn.
      ? { State: 'Finalized', fields: { DurationSeconds: 0, HasTornAudio: true }, urls: { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null } }
      : { State: String(row?.State), fields: { DurationSeconds: row?.DurationSeconds ?? null }, urls };
  const ingest: IngestRecord = {
    RecordingId: recordingId, State: 'Processing', UploadedAudioFileName: upload.fileName, SizeInBytes: upload.size, AudioProcessingProblem: null, uploadId: upload.uploadId, before,
  };
  // Section 4: a Processing recording has no duration and no links. Its record is written under
  // the row's lock, where the jobs read it (underNewestIngest).
  await writeAudioRow(
    deps,
    { entity: 'recording', organizationId, id: recordingId },
    { State: 'Processing', fields: { DurationSeconds: null }, urls: { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null } },
    { userId },
    {
      alsoInTransaction: async (q) => {
        await blobs.putBytes(recordingKeys.ingest(recordingId), JSON.stringify(ingest));
        await enqueueJob(q, RECORDING_INGEST_JOB, { organizationId, userId, recordingId, ingest } satisfies RecordingIngestJob, { maxAttempts: 3 });
      },
    },
  );
  return ingest;
}
