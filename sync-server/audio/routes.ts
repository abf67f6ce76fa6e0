// Audio routes, mounted by the app with `.route('/api', audioRoutes(deps))`.
// See src/protocol/media.ts for the list; process.ts for the processing state machine.
import { Hono, type Context } from 'hono';
import { join } from 'node:path';
import { AUDIO_FILE_MAX_BYTES } from '../../src/domain/constants.ts';
import { permissionsFor } from '../../src/domain/permissions.ts';
import { CutEditSchema, type AudioUploadAccepted, type CutEdit } from '../../src/protocol/media.ts';
import type { AppDeps } from '../app.ts';
import { getAuth, requireSession } from '../auth.ts';
import { AppError } from '../errors.ts';
import { pathId, readJson } from '../http.ts';
import { fsBlobStore, type BlobStore } from './blob-store.ts';
import { loadClip, writeAudioRow } from './clip-rows.ts';
import { clipKeys, createAudioQueue, type UploadMeta } from './process.ts';
import { rangedBlobResponse } from './range.ts';
import { recordingAudioRoutes } from './recording-routes.ts';
import { audioContentType, receiveAudioUpload } from './upload-rules.ts';
import { renderCutWav } from './render-cut.ts';

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
  const queue = createAudioQueue(deps, blobs);

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
   * The file is in the blob store at clipKeys.audio(clipId): State AudioUploaded, then the
   * processing queue. Shared by PUT audio and the resumable uploads (sync-server/uploads).
   */
  async function acceptAudio(upload: { organizationId: string; userId: string; clipId: string; fileName: string; size: number }): Promise<AudioUploadAccepted> {
    const { organizationId, userId, clipId, size } = upload;
    const name = upload.fileName.trim();
    const meta: UploadMeta = { fileName: name, contentType: audioContentType(name), size };
    await blobs.putBytes(clipKeys.meta(clipId), JSON.stringify(meta));
    await writeAudioRow(deps, 'clip', organizationId, clipId, userId, {
      State: 'AudioUploaded',
      fields: { UploadedAudioFileName: name, DurationSeconds: null, AudioProcessingProblem: null },
      urls: { AudioPrivateUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null },
    });
    queue.enqueue({ organizationId, clipId, userId });
    return { ClipId: clipId, State: 'AudioUploaded', UploadedAudioFileName: name, SizeInBytes: size };
  }

  async function sendBlob(c: Context, key: string, contentType: string) {
    const res = await rangedBlobResponse(blobs, key, contentType, c.req.raw);
    if (!res) throw new AppError(404);
    return res;
  }

  const app = new Hono()
    .use('/v1/clips/:clipId/audio', requireSession)
    .use('/media/clips/*', requireSession)
    .use('/internal/clips/:clipId/cut', requireSession)
    .use('/internal/clips/:clipId/cut/*', requireSession)
    .put('/v1/clips/:clipId/audio', async (c) => {
      const { auth, clipId } = await clipFor(c, true);
      const { fileName, size } = await receiveAudioUpload(c, blobs, clipKeys.audio(clipId), maxBytes);
      return c.json(await acceptAudio({ organizationId: auth.organizationId, userId: auth.user.Id, clipId, fileName, size }), 202);
    })
    .on(['GET', 'HEAD'], '/media/clips/:clipId/audio', async (c) => {
      const { clipId } = await clipFor(c, false);
      const metaSize = await blobs.size(clipKeys.meta(clipId));
      if (metaSize === null) throw new AppError(404);
      const meta = JSON.parse(await (await blobs.blob(clipKeys.meta(clipId))).text()) as UploadMeta;
      return sendBlob(c, clipKeys.audio(clipId), meta.contentType);
    })
    .on(['GET', 'HEAD'], '/media/clips/:clipId/:file{waveform-(high|low)\\.(dat|json)}', async (c) => {
      const { clipId } = await clipFor(c, false);
      const file = c.req.param('file');
      const res = file.includes('high') ? 'high' : 'low';
      const ext = file.endsWith('.dat') ? 'dat' : 'json';
      return sendBlob(c, clipKeys.waveform(clipId, res, ext), ext === 'dat' ? 'application/octet-stream' : 'application/json');
    })
    .put('/internal/clips/:clipId/cut', async (c) => {
      const { clipId } = await clipFor(c, true);
      const edit = await readJson(c, CutEditSchema);
      await blobs.putBytes(clipKeys.cut(clipId), JSON.stringify(edit));
      return c.json(edit, 200);
    })
    .get('/internal/clips/:clipId/cut', async (c) => {
      const { clipId } = await clipFor(c, false);
      if ((await blobs.size(clipKeys.cut(clipId))) === null) throw new AppError(404);
      const edit = JSON.parse(await (await blobs.blob(clipKeys.cut(clipId))).text()) as CutEdit;
      return c.json(edit, 200);
    })
    .post('/internal/clips/:clipId/cut/audio-preview', async (c) => {
      const { clipId } = await clipFor(c, false);
      const edit = await readJson(c, CutEditSchema);
      if ((await blobs.size(clipKeys.audio(clipId))) === null) throw new AppError(404);
      const wav = await renderCutWav(await blobs.blob(clipKeys.audio(clipId)), edit);
      return new Response(wav, { status: 200, headers: { 'content-type': 'audio/wav' } });
    })
    .route('/', recordingAudioRoutes(deps, { blobs, queue, maxUploadBytes: maxBytes }));

  return Object.assign(app, { audioQueue: queue, blobs, acceptAudio, clipFor, maxUploadBytes: maxBytes });
}
