// The audio of clips and recordings as the API's media routes (sync-server/api/media.ts) and the
// resumable uploads (sync-server/uploads) use it: one blob store, the file-size limit, the audio
// jobs, and the steps every way in shares. Access is not decided here: every route that reaches
// these has passed its guard (sync-server/api/guard.ts), which loaded the clip or recording the
// caller may read.
//
//   a file stored in a new upload folder (newUpload) ──acceptAudio──> pending + the processing job
//                                   (versions.ts); AudioUploaded unless the clip serves good audio
//   a recording agent's file        ──ingestRecordingAudio──> Processing + the ingest job (recording-ingest.ts)
//   a saved cut                     ──the clip.saveCut run──> the processing job: a new version (versions.ts)
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { AUDIO_FILE_MAX_BYTES } from '../../src/domain/constants.ts';
import { isMediaError, type MediaError } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import type { FieldError } from '../../src/protocol/errors.ts';
import type { AudioUploadAccepted, CutEdit, RecordingAudioAccepted, RecordingAudioIngest } from '../../src/protocol/media.ts';
import type { WaveformFile } from '../../src/protocol/api/media.ts';
import type { AppDeps } from '../app.ts';
import { badRequest, notFound } from '../errors.ts';
import { fsBlobStore, readJsonBlob, type BlobStore } from './blob-store.ts';
import { s3BlobStoreFromEnv } from './s3-blob-store.ts';
import { writeAudioRow } from './clip-rows.ts';
import { loadClipCut } from './cut-render.ts';
import { clipKeys, clipMediaFolder, mediaFiles, recordingKeys, recordingMediaFolder, type CurrentAudio, type UploadMeta } from './media-paths.ts';
import { publishedAudio, readPublishedVersion, type PublishedVersion } from './published-media.ts';
import { rangedBlobResponse } from './range.ts';
import { recordingIngestJobs, startRecordingIngest, type IngestRecord } from './recording-ingest.ts';
import { liveSweepJobs } from './live-end.ts';
import { renderCutWav } from './render-cut.ts';
import { acceptClipUpload, newClipUpload, uploadRowPatch } from './mutations.ts';
import { clipAudioJobs, DEFAULT_MEDIA_GRACE_MS } from './versions.ts';
import { clipLoudnessJobs } from './loudness-job.ts';
import { audioContentType } from './upload-rules.ts';

export type AudioServiceOptions = {
  /** Where uploads and waveform files live; default $CASTAWAY_BLOB_DIR or <CASTAWAY_DATA_DIR|.data>/blobs. */
  blobDir?: string;
  blobs?: BlobStore;
  maxUploadBytes?: number;
  /** How long superseded versions and uploads are kept (a listener may be mid-download); default 24 h. */
  mediaGraceMs?: number;
};

export function defaultBlobDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CASTAWAY_BLOB_DIR ?? join(env.CASTAWAY_DATA_DIR ?? '.data', 'blobs');
}

/**
 * The blob store the environment configures: an S3-compatible bucket when CASTAWAY_S3_BUCKET is
 * set (what several instances on several machines share), else the folder of defaultBlobDir().
 * Make one per process: an S3 store's local read cache belongs to the store that made it.
 */
export function configuredBlobStore(env: NodeJS.ProcessEnv = process.env): BlobStore {
  return s3BlobStoreFromEnv(env) ?? fsBlobStore(defaultBlobDir(env));
}

/** The file a waveform file name of the API names. */
function waveformKey(folder: string, file: WaveformFile): string {
  const [, res, ext] = /^waveform-(high|low)\.(dat|json)$/.exec(file) as unknown as [string, 'high' | 'low', 'dat' | 'json'];
  return mediaFiles.waveform(folder, res, ext);
}
const waveformType = (file: WaveformFile) => (file.endsWith('.dat') ? 'application/octet-stream' : 'application/json');

/**
 * The clip's stored audio cannot be rendered (not audio, an encoding we do not read, …): a 400
 * whose one error names the problem in the words of AudioProcessingProblem. Field '' as for a
 * malformed body: the problem is the clip's audio, not a field of the request.
 */
function mediaBadRequest(e: MediaError) {
  const error: FieldError = { Field: '', Code: e.code, Message: mediaProblemText({ code: e.code, details: e.details }, 'en-US') };
  if (Object.keys(e.details).length > 0) error.Params = e.details;
  return badRequest([error]);
}

export type AudioService = ReturnType<typeof audioService>;

export function audioService(deps: AppDeps, options: AudioServiceOptions = {}) {
  const blobs = options.blobs ?? (options.blobDir ? fsBlobStore(options.blobDir) : configuredBlobStore());
  const maxUploadBytes = options.maxUploadBytes ?? AUDIO_FILE_MAX_BYTES;
  const mediaGraceMs = options.mediaGraceMs ?? DEFAULT_MEDIA_GRACE_MS;
  /** The audio jobs: the app's job runner runs them (sync-server/jobs). */
  const jobHandlers = { ...clipAudioJobs(deps, blobs, mediaGraceMs), ...clipLoudnessJobs(deps, blobs, mediaGraceMs), ...recordingIngestJobs(deps, blobs), ...liveSweepJobs(deps, { blobs, maxUploadBytes }) };

  /**
   * The file is in the blob store at mediaFiles.audio(folder) of a newUpload: the clip's pending
   * upload and, in the same transaction, the processing job; AudioUploaded unless the clip serves
   * good audio, which it keeps serving until the new file has processed. Shared by PUT audio and
   * the resumable uploads.
   */
  async function acceptAudio(upload: {
    organizationId: string;
    userId: string;
    clipId: string;
    uploadId: string;
    folder: string;
    fileName: string;
    size: number;
  }): Promise<AudioUploadAccepted> {
    const { organizationId, userId, clipId, size, uploadId, folder } = upload;
    const name = upload.fileName.trim();
    const meta: UploadMeta = { fileName: name, contentType: audioContentType(name), size, uploadId, media: folder };
    await writeAudioRow(deps, { entity: 'clip', organizationId, id: clipId }, (row) => uploadRowPatch(row, name), { userId }, {
      alsoInTransaction: (q) => acceptClipUpload(q, blobs, { organizationId, id: clipId, userId }, meta, mediaGraceMs),
    });
    return { ClipId: clipId, State: 'AudioUploaded', UploadedAudioFileName: name, SizeInBytes: size };
  }

  /** The media folder serving a clip's original upload (its own, or shared demo media) and the upload, or null. */
  async function clipMedia(clipId: string): Promise<{ folder: string; meta: UploadMeta } | null> {
    const meta = await readJsonBlob<UploadMeta>(blobs, clipKeys.meta(clipId));
    return meta && { folder: clipMediaFolder(clipId, meta), meta };
  }

  /**
   * The folder and type a clip's media URL serves: the version `v` names (the current one, or an
   * earlier one until it is swept: a cache never gets another version's bytes under its URL), or
   * for a clip without versions its upload.
   */
  async function servedMedia(clipId: string, v: string | undefined): Promise<{ folder: string; contentType: string }> {
    const published = await readPublishedVersion(blobs, clipId);
    if (published && (!v || v === published.version)) return published;
    if (v) {
      const earlier = /^[0-9a-f-]{36}$/.test(v) ? await readJsonBlob<PublishedVersion>(blobs, clipKeys.versionMeta(clipId, v)) : null;
      if (!earlier) throw notFound();
      return earlier;
    }
    const media = await clipMedia(clipId);
    if (!media) throw notFound();
    return { folder: media.folder, contentType: media.meta.contentType };
  }

  async function send(req: Request, key: string, contentType: string): Promise<Response> {
    const res = await rangedBlobResponse(blobs, key, contentType, req);
    if (!res) throw notFound();
    return res;
  }

  async function sendRecording(req: Request, recordingId: string, file: (folder: string) => string, contentType: (current: CurrentAudio) => string) {
    const current = await readJsonBlob<CurrentAudio>(blobs, recordingKeys.current(recordingId));
    if (!current) throw notFound();
    return send(req, file(recordingMediaFolder(recordingId, current)), contentType(current));
  }

  const versionOf = (req: Request) => new URL(req.url).searchParams.get('v') ?? undefined;

  return {
    blobs,
    maxUploadBytes,
    mediaGraceMs,
    jobHandlers,
    acceptAudio,
    /** A new upload's id and the folder its file goes to (then acceptAudio). */
    newUpload: newClipUpload,

    /** The clip's published audio (?v= a version), GET or HEAD, with HTTP Range; 404 when it has none. */
    async clipAudio(req: Request, clipId: string): Promise<Response> {
      const media = await servedMedia(clipId, versionOf(req));
      return send(req, mediaFiles.audio(media.folder), media.contentType);
    },

    async clipWaveform(req: Request, clipId: string, file: WaveformFile): Promise<Response> {
      const media = await servedMedia(clipId, versionOf(req));
      return send(req, waveformKey(media.folder, file), waveformType(file));
    },

    /** The clip's original upload (what its cut is made of), with HTTP Range; 404 when it has none. */
    async clipOriginalAudio(req: Request, clipId: string): Promise<Response> {
      const media = await clipMedia(clipId);
      if (!media) throw notFound();
      return send(req, mediaFiles.audio(media.folder), media.meta.contentType);
    },

    /** The file the clip serves publicly (published-media.ts), or null. */
    publishedAudio: (clipId: string) => publishedAudio(blobs, clipId),

    /** The clip's newest stored upload, pending or published (a copy by audioUrl reports its size). */
    uploadOf: async (clipId: string) => (await readJsonBlob<UploadMeta>(blobs, clipKeys.pending(clipId))) ?? readJsonBlob<UploadMeta>(blobs, clipKeys.meta(clipId)),

    /** The cut saved for the clip, or null. */
    savedCut: (clipId: string) => loadClipCut(deps.store, blobs, clipId),

    /** A cut of the clip's audio rendered now as WAV (the preview); a 400 naming the problem for
     * audio that cannot be decoded, 404 for a clip without audio. */
    async previewCut(clipId: string, edit: CutEdit): Promise<Response> {
      const media = await clipMedia(clipId);
      if (!media) throw notFound();
      try {
        const wav = await renderCutWav(await blobs.blob(mediaFiles.audio(media.folder)), edit);
        return new Response(wav, { status: 200, headers: { 'content-type': 'audio/wav' } });
      } catch (e) {
        if (isMediaError(e)) throw mediaBadRequest(e);
        throw e;
      }
    },

    /** A recording agent's file in the request body: stored as a new ingest, the recording
     * Processing, the ingest job queued (recording-ingest.ts). */
    async ingestRecordingAudio(
      organizationId: string,
      userId: string,
      recordingId: string,
      receive: (key: string) => Promise<{ fileName: string; size: number }>,
    ): Promise<RecordingAudioAccepted> {
      const uploadId = randomUUID();
      const { fileName, size } = await receive(recordingKeys.audio(recordingId, uploadId));
      await startRecordingIngest(deps, blobs, organizationId, userId, recordingId, { uploadId, fileName, size });
      return { RecordingId: recordingId, State: 'Processing', UploadedAudioFileName: fileName, SizeInBytes: size };
    },

    /** The recording's last ingest as the API shows it, or null before any. */
    async recordingIngest(recordingId: string): Promise<RecordingAudioIngest | null> {
      const ingest = await readJsonBlob<IngestRecord>(blobs, recordingKeys.ingest(recordingId));
      if (!ingest) return null;
      const { uploadId: _u, before: _b, ...wire } = ingest;
      return wire;
    },

    recordingAudio: (req: Request, recordingId: string) => sendRecording(req, recordingId, mediaFiles.audio, (current) => current.contentType),

    recordingWaveform: (req: Request, recordingId: string, file: WaveformFile) =>
      sendRecording(req, recordingId, (folder) => waveformKey(folder, file), () => waveformType(file)),
  };
}
