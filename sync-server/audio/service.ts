// Audio routes, mounted by the app with `.route('/api', audioRoutes(deps))`.
// See src/protocol/media.ts for the list; process.ts for the processing state machine.
//
// PUT /v1/clips/{clipId}/audio takes the audio as a file body (query fileName), or, with the query
// audioUrl (section 7), from audio this server already serves: a recording's or another clip's
// (/api/media/{recordings|clips}/{id}/audio). A queued mutation cannot carry a query string, so
// the outbox sends the same parameters as a JSON body { audioUrl, fileName? }. The file is copied
// (hard-linked) into the clip and processed like an upload; a clip made from a recording records
// it in RecordingMetadata.RecordingId (GET /v1/recordings/{recordingId}/clips lists them).
import { Hono, type Context } from 'hono';
import { join } from 'node:path';
import { AUDIO_FILE_MAX_BYTES } from '../../src/domain/constants.ts';
import { permissionsFor } from '../../src/domain/permissions.ts';
import { isMediaError, type MediaError } from '../../src/media/errors.ts';
import { mediaProblemText } from '../../src/media/messages.ts';
import type { FieldError } from '../../src/protocol/errors.ts';
import { AudioFromUrlSchema, CutEditSchema, type AudioUploadAccepted, type CutEdit } from '../../src/protocol/media.ts';
import { syncClientOf, type AppDeps } from '../app.ts';
import { getAuth, requireSession } from '../auth.ts';
import { AppError, badRequest } from '../errors.ts';
import { pathId, readJson } from '../http.ts';
import { fsBlobStore, readJsonBlob, type BlobStore } from './blob-store.ts';
import { loadClip, writeAudioRow } from './clip-rows.ts';
import { clipKeys, clipMediaFolder, mediaFiles, type UploadMeta } from './media-paths.ts';
import { clipAudioJobs, enqueueClipAudio } from './process.ts';
import { rangedBlobResponse } from './range.ts';
import { recordingAudioRoutes, recordingIngestJobs } from './recording-routes.ts';
import { audioContentType, receiveAudioUpload } from './upload-rules.ts';
import { renderCutWav } from './render-cut.ts';
import { runRest } from '../mutations/rest.ts';
import { clipSaveCut, clipSetAudioFromUrl } from '../../src/mutations/content.ts';

export type AudioRouteOptions = {
  /** Where uploads and waveform files live; default $CASTAWAY_BLOB_DIR or <CASTAWAY_DATA_DIR|.data>/blobs. */
  blobDir?: string;
  blobs?: BlobStore;
  maxUploadBytes?: number;
};


export function defaultBlobDir(): string {
  return process.env.CASTAWAY_BLOB_DIR ?? join(process.env.CASTAWAY_DATA_DIR ?? '.data', 'blobs');
}

export function audioRoutes(deps: AppDeps, options: AudioRouteOptions = {}) {
  const blobs = options.blobs ?? fsBlobStore(options.blobDir ?? defaultBlobDir());
  const maxBytes = options.maxUploadBytes ?? AUDIO_FILE_MAX_BYTES;
  /** The audio jobs: the app's job runner runs them (sync-server/jobs). */
  const jobHandlers = { ...clipAudioJobs(deps, blobs), ...recordingIngestJobs(deps, blobs) };

  /** The clip, if the caller may see it (content access on its program); 404 otherwise. */
  async function clipFor(c: Context, needContent: boolean, clipId = pathId(c, 'clipId')) {
    const auth = getAuth(c);
    const clip = await loadClip(deps.store, auth.organizationId, clipId);
    if (!clip) throw new AppError(404);
    const flags = permissionsFor(auth.permissions, { kind: 'program', programId: clip.program_id, networkId: clip.network_id });
    if (needContent && !flags.HasContentAccess) throw new AppError(404);
    return { auth, clipId, clip };
  }

  /**
   * The file is in the blob store at clipKeys.audio(clipId): State AudioUploaded and, in the same
   * transaction, the processing job. Shared by PUT audio and the resumable uploads (sync-server/uploads).
   */
  async function acceptAudio(upload: {
    organizationId: string; userId: string; clipId: string; fileName: string; size: number;
    /** The sync client whose push sends the audio (null: an HTTP request). */
    clientId?: string | null;
    /** Default: from the file name's extension. */
    contentType?: string;
    /** More fields of the clip row to set with State AudioUploaded. */
    fields?: Record<string, unknown>;
  }): Promise<AudioUploadAccepted> {
    const { organizationId, userId, clipId, size, clientId = null } = upload;
    const name = upload.fileName.trim();
    const meta: UploadMeta = { fileName: name, contentType: upload.contentType ?? audioContentType(name), size };
    await blobs.putBytes(clipKeys.meta(clipId), JSON.stringify(meta));
    await writeAudioRow(
      deps,
      { entity: 'clip', organizationId, id: clipId },
      {
        State: 'AudioUploaded',
        fields: { ...upload.fields, UploadedAudioFileName: name, DurationSeconds: null, AudioProcessingProblem: null },
        urls: { AudioPrivateUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null },
      },
      { userId, clientId },
      (q) => enqueueClipAudio(q, { organizationId, clipId, userId }),
    );
    return { ClipId: clipId, State: 'AudioUploaded', UploadedAudioFileName: name, SizeInBytes: size };
  }

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

  async function sendBlob(c: Context, key: string, contentType: string) {
    const res = await rangedBlobResponse(blobs, key, contentType, c.req.raw);
    if (!res) throw new AppError(404);
    return res;
  }

  /** The media folder serving a clip's audio (its own, or shared demo media) and its upload, or null. */
  async function clipMedia(clipId: string): Promise<{ folder: string; meta: UploadMeta } | null> {
    const meta = await readJsonBlob<UploadMeta>(blobs, clipKeys.meta(clipId));
    return meta && { folder: clipMediaFolder(clipId, meta), meta };
  }

  /** The audioUrl form of PUT audio: query audioUrl (and fileName), or the outbox's JSON body; null for a file body. */
  async function audioUrlRequest(c: Context): Promise<{ audioUrl: string; fileName?: string | undefined } | null> {
    const audioUrl = c.req.query('audioUrl');
    if (audioUrl !== undefined) return { audioUrl, fileName: c.req.query('fileName') };
    if (!(c.req.header('content-type') ?? '').includes('json')) return null;
    return readJson(c, AudioFromUrlSchema);
  }

  const app = new Hono()
    .use('/v1/clips/:clipId/audio', requireSession)
    .use('/media/clips/*', requireSession)
    .use('/internal/clips/:clipId/cut', requireSession)
    .use('/internal/clips/:clipId/cut/*', requireSession)
    .put('/v1/clips/:clipId/audio', async (c) => {
      const { auth, clipId } = await clipFor(c, true);
      const organizationId = auth.organizationId;
      const byUrl = await audioUrlRequest(c);
      if (byUrl) {
        // The named mutation clip.setAudioFromUrl, as a sync push runs it.
        const row = await runRest(c, clipSetAudioFromUrl, { clipId, ...byUrl }, null);
        const meta = await readJsonBlob<UploadMeta>(blobs, clipKeys.meta(clipId));
        const accepted: AudioUploadAccepted = { ClipId: clipId, State: 'AudioUploaded', UploadedAudioFileName: String(row['UploadedAudioFileName']), SizeInBytes: meta?.size ?? 0 };
        return c.json(accepted, 202);
      }
      const { fileName, size } = await receiveAudioUpload(c, blobs, clipKeys.audio(clipId), maxBytes);
      return c.json(await acceptAudio({ organizationId, userId: auth.user.Id, clientId: syncClientOf(c), clipId, fileName, size }), 202);
    })
    .on(['GET', 'HEAD'], '/media/clips/:clipId/audio', async (c) => {
      const { clipId } = await clipFor(c, false);
      const media = await clipMedia(clipId);
      if (!media) throw new AppError(404);
      return sendBlob(c, mediaFiles.audio(media.folder), media.meta.contentType);
    })
    .on(['GET', 'HEAD'], '/media/clips/:clipId/:file{waveform-(high|low)\\.(dat|json)}', async (c) => {
      const { clipId } = await clipFor(c, false);
      const file = c.req.param('file');
      const res = file.includes('high') ? 'high' : 'low';
      const ext = file.endsWith('.dat') ? 'dat' : 'json';
      const media = await clipMedia(clipId);
      if (!media) throw new AppError(404);
      return sendBlob(c, mediaFiles.waveform(media.folder, res, ext), ext === 'dat' ? 'application/octet-stream' : 'application/json');
    })
    .put('/internal/clips/:clipId/cut', async (c) => {
      const { clipId } = await clipFor(c, true);
      const edit = await readJson(c, CutEditSchema);
      await runRest(c, clipSaveCut, { clipId, cut: edit }, null);
      return c.json(edit, 200);
    })
    .get('/internal/clips/:clipId/cut', async (c) => {
      const { clipId } = await clipFor(c, false);
      const edit = await readJsonBlob<CutEdit>(blobs, clipKeys.cut(clipId));
      // A clip with no cut saved is not missing: 204, so opening any clip does not log a 404.
      if (!edit) return c.body(null, 204);
      return c.json(edit, 200);
    })
    .post('/internal/clips/:clipId/cut/audio-preview', async (c) => {
      const { clipId } = await clipFor(c, false);
      const edit = await readJson(c, CutEditSchema);
      const media = await clipMedia(clipId);
      if (!media) throw new AppError(404);
      try {
        const wav = await renderCutWav(await blobs.blob(mediaFiles.audio(media.folder)), edit);
        return new Response(wav, { status: 200, headers: { 'content-type': 'audio/wav' } });
      } catch (e) {
        if (isMediaError(e)) throw mediaBadRequest(e);
        throw e;
      }
    })
    .route('/', recordingAudioRoutes(deps, { blobs, maxUploadBytes: maxBytes }));

  return Object.assign(app, { jobHandlers, blobs, acceptAudio, clipFor, maxUploadBytes: maxBytes });
}
