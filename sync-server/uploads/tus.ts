// Resumable clip audio uploads: tus 1.0 (src/protocol/uploads.ts) with @tus/server and its file
// store under <data dir>/uploads. The routes (sync-server/api/uploads.ts) guard each call (session
// + XSRF as every API call; content access on the clip; an upload answers only its owner) and
// check the section-5 file rules and the per-user limit BEFORE @tus/server sees a creation; the
// last byte hands the file to the same pipeline as PUT /v1/clips/{clipId}/audio.
//
//   POST ──rules ok──> created (offset 0) ──PATCH…──> offset grows (bytes kept across dropped
//     │                   │                            connections; HEAD tells the client where)
//     └─400/404/429       ├─DELETE──────────> gone      │
//                         └─24 h unfinished─> expired   └─offset = length──> blob store ──> acceptAudio
//                           (the sweep: a recurring job)                       (AudioUploaded → Processing → …)
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import type { Context } from 'hono';
import { Server as TusServer, Metadata, type Upload } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { MAX_OPEN_UPLOADS_PER_USER, UPLOAD_EXPIRES_MS, UPLOADS_PATH, UploadMetadataKey } from '../../src/protocol/uploads.ts';
import type { AppDeps } from '../app.ts';
import type { Auth } from '../auth.ts';
import { AppError, assertValid, badRequest, fieldError } from '../errors.ts';
import { loadClip } from '../audio/clip-rows.ts';
import { mediaFiles } from '../audio/media-paths.ts';
import type { AudioService } from '../audio/service.ts';
import { audioUploadErrors } from '../audio/upload-rules.ts';
import { formError } from '../../src/domain/form-errors.ts';
import * as z from 'zod';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { dbUploadLocker, dbUploadRecords, withUploadLock, type UploadLockOptions } from './shared-state.ts';
import { BlobUploadStore } from './blob-upload-store.ts';

export type UploadRouteOptions = {
  /** Where partial uploads live: this folder; else $CASTAWAY_UPLOAD_DIR; else the S3 bucket when
   *  the blob store is one; else <CASTAWAY_DATA_DIR|.data>/uploads. */
  uploadDir?: string;
  expiresMs?: number;
  maxOpenPerUser?: number;
  /** The write locks' lease and timings (tests shorten them). */
  locks?: UploadLockOptions;
};

export function defaultUploadDir(): string {
  return process.env.CASTAWAY_UPLOAD_DIR ?? join(process.env.CASTAWAY_DATA_DIR ?? '.data', 'uploads');
}

/** Server-side metadata keys, set from the session (a client's own values are overwritten). */
const OWNER_USER = 'userId';
const OWNER_ORGANIZATION = 'organizationId';
/** Set (epoch ms) once the file is in the audio pipeline. */
const HANDED_OVER_AT = 'handedOverAt';
/** How long a handed-over upload still answers HEAD with "complete". */
const HANDED_OVER_KEEP_MS = 60 * 60 * 1000;
const HAND_OVER_WAIT_MS = 10 * 60 * 1000;

type TusFailure = { status_code: number; body: string };

export const UPLOAD_SWEEP_JOB = 'uploads.sweep';

/** The Upload-Metadata of a request (a 400 naming it when it is not tus metadata). */
export function uploadMetadata(c: Context): Record<string, string | null> {
  try {
    return Metadata.parse(c.req.header('upload-metadata') ?? undefined) ?? {};
  } catch {
    throw badRequest([fieldError('Upload-Metadata', formError('invalid'))]);
  }
}

/** Who made an upload, and for which clip (set from the session at its creation). */
export type UploadOwner = { userId: string; organizationId: string; clipId: string };

export type TusUploads = ReturnType<typeof tusUploads>;

export function tusUploads(deps: AppDeps, audio: AudioService, options: UploadRouteOptions = {}) {
  // What tus knows of each upload and who is writing to it are in the database (shared-state.ts).
  // The bytes go to the upload folder, which every instance must share, or, with blobs in an S3
  // bucket and no folder named, to the bucket (blob-upload-store.ts): then instances share only
  // the database and the bucket.
  const records = dbUploadRecords(deps.store);
  const expiresMs = options.expiresMs ?? UPLOAD_EXPIRES_MS;
  const folder = options.uploadDir ?? process.env.CASTAWAY_UPLOAD_DIR;
  const store =
    folder === undefined && audio.blobs.kind === 's3'
      ? new BlobUploadStore({ blobs: audio.blobs, records, expirationPeriodInMilliseconds: expiresMs, maxBytes: audio.maxUploadBytes })
      : new FileStore({ directory: folder ?? defaultUploadDir(), configstore: records, expirationPeriodInMilliseconds: expiresMs });
  const locker = dbUploadLocker(deps.store, options.locks);
  const maxOpen = options.maxOpenPerUser ?? MAX_OPEN_UPLOADS_PER_USER;
  // The Hono middleware has authenticated the request that @tus/server hands back to its hooks.
  const callers = new WeakMap<Request, Auth>();

  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore: store,
    locker,
    relativeLocation: true,
    maxSize: audio.maxUploadBytes,
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(req, upload) {
      const auth = callers.get(req as Request);
      if (!auth) throw { status_code: 401, body: '' } satisfies TusFailure;
      const clipId = (upload.metadata?.[UploadMetadataKey.ClipId] ?? '').toLowerCase();
      return { metadata: { ...upload.metadata, [UploadMetadataKey.ClipId]: clipId, [OWNER_USER]: auth.user.Id, [OWNER_ORGANIZATION]: auth.organizationId } };
    },
    async onUploadFinish(_req, upload) {
      await handOverOnce(upload);
      return {};
    },
  });

  /**
   * The complete file goes to the blob store and the audio pipeline, once, whichever instances see
   * it complete: a HEAD that arrives while it runs (the link dropped during the last PATCH), here or
   * on another instance, waits for it (the map within this process, a lock across instances, and
   * the record's mark read again under that lock). A handed-over upload is kept,
   * marked, so a client that missed the last response still reads "complete" (and does not send the
   * file again); the sweep deletes it an hour later. A failed hand-over deletes the upload: the
   * client's next HEAD is 404, its new creation then gets the reason (404 clip gone).
   */
  const handOvers = new Map<string, Promise<void>>();
  function handOverOnce(upload: Upload): Promise<void> {
    let running = handOvers.get(upload.id);
    if (!running) {
      running = handOver(upload).finally(() => handOvers.delete(upload.id));
      handOvers.set(upload.id, running);
    }
    return running;
  }

  function handOver(upload: Upload): Promise<void> {
    // A hand-over copies the whole file to the blob store: an instance waiting on another's waits long.
    return withUploadLock(locker, `hand-over:${upload.id}`, HAND_OVER_WAIT_MS, async () => {
      const now = await records.get(upload.id);
      // Gone: a failed hand-over on another instance deleted it (its client's next HEAD is 404).
      if (!now) throw { status_code: 404, body: '' } satisfies TusFailure;
      if (!now.metadata?.[HANDED_OVER_AT]) await handOverNow(now);
    });
  }

  async function handOverNow(upload: Upload): Promise<void> {
    const meta = upload.metadata ?? {};
    const clipId = meta[UploadMetadataKey.ClipId] ?? '';
    const organizationId = meta[OWNER_ORGANIZATION] ?? '';
    const userId = meta[OWNER_USER] ?? '';
    try {
      if (!(await loadClip(deps.store, organizationId, clipId))) throw { status_code: 404, body: '' } satisfies TusFailure;
      const folder = audio.newUpload(clipId);
      const { size } = await audio.blobs.put(mediaFiles.audio(folder.folder), Readable.toWeb(store.read(upload.id)) as ReadableStream<Uint8Array>, audio.maxUploadBytes);
      await audio.acceptAudio({ organizationId, userId, clipId, ...folder, fileName: meta[UploadMetadataKey.FileName] ?? '', size });
    } catch (e) {
      await removeUpload(upload.id);
      throw e;
    }
    await records.set(upload.id, Object.assign(upload, { metadata: { ...upload.metadata, [HANDED_OVER_AT]: String(Date.now()) } }));
  }

  const isComplete = (u: Upload) => u.size !== undefined && u.offset === u.size;

  async function openUploadsOf(userId: string): Promise<number> {
    const [row] = await deps.store.query<{ open: number }>(
      // The keys written out (OWNER_USER, HANDED_OVER_AT) so the expression index tus_uploads_owner serves it.
      `SELECT count(*)::int AS open FROM tus_uploads WHERE info -> 'metadata' ->> 'userId' = $1 AND info -> 'metadata' ->> 'handedOverAt' IS NULL`,
      [userId],
    );
    return row?.open ?? 0;
  }

  /** Section-5 file rules and the per-user limit, before anything is stored (the route's guard has
   * found the clip the metadata names, one the caller has content access to). */
  async function checkCreation(c: Context, auth: Auth): Promise<void> {
    const lengthHeader = c.req.header('upload-length');
    const size = lengthHeader !== undefined && /^\d+$/.test(lengthHeader.trim()) ? Number(lengthHeader) : NaN;
    assertValid([['Upload-Length', Number.isFinite(size) ? null : formError('required')]]);
    assertValid(audioUploadErrors(uploadMetadata(c)[UploadMetadataKey.FileName] ?? undefined, size, audio.maxUploadBytes));
    if ((await openUploadsOf(auth.user.Id)) >= maxOpen) throw new AppError(429);
  }

  /** The upload and who made it; null when the store has none (@tus/server answers 404 or 410). */
  async function find(id: string): Promise<{ upload: Upload; owner: UploadOwner } | null> {
    const upload = await store.getUpload(id).catch(() => null);
    if (!upload) return null;
    const meta = upload.metadata ?? {};
    return { upload, owner: { userId: meta[OWNER_USER] ?? '', organizationId: meta[OWNER_ORGANIZATION] ?? '', clipId: meta[UploadMetadataKey.ClipId] ?? '' } };
  }

  /** A HEAD on a complete upload waits for its hand-over (and starts it, if the server stopped before it ran). */
  async function settle(upload: Upload): Promise<void> {
    if (isComplete(upload) && !upload.metadata?.[HANDED_OVER_AT]) await handOverOnce(upload).catch(() => undefined);
  }

  /** Hands the guarded request to @tus/server. */
  function handle(c: Context, auth: Auth): Promise<Response> {
    callers.set(c.req.raw, auth);
    // Over @hono/node-server, hand @tus/server the Node request too: when the link drops it then
    // ends the write gracefully, keeping every byte received (the web stream alone would discard them).
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (incoming) Object.assign(c.req.raw, { runtime: { node: { req: incoming, res: (c.env as { outgoing?: ServerResponse }).outgoing } } });
    return tus.handleWeb(c.req.raw);
  }

  /** Deletes an upload's bytes and its record; the record goes even when its file is already gone
   *  (an instance that died between the two, a folder emptied by hand), or it would count forever. */
  async function removeUpload(id: string): Promise<void> {
    await store.remove(id).catch(() => records.delete(id));
  }

  /** Deletes unfinished uploads past their expiry (from their creation, as @tus/server counts it,
   *  which also answers Upload-Expires) and handed-over ones past their keep time; returns how many. */
  async function cleanUpExpired(now = Date.now()): Promise<number> {
    let removed = 0;
    for (const info of await records.all()) {
      const id = info.id;
      const handedOverAt = Number(info.metadata?.[HANDED_OVER_AT] ?? NaN);
      const createdAt = info.creation_date ? Date.parse(info.creation_date) : NaN;
      const handedOverLongAgo = now - handedOverAt > HANDED_OVER_KEEP_MS && !handOvers.has(id);
      const expiredUnfinished = Number.isNaN(handedOverAt) && info.size !== info.offset && now > createdAt + expiresMs;
      if (handedOverLongAgo || expiredUnfinished) {
        await removeUpload(id);
        removed++;
      }
    }
    return removed;
  }

  /** The sweep, every 10 minutes on one instance: the upload folder is shared by every instance
   *  (a PATCH resumes an upload on whichever instance it reaches), so one sweep serves all. */
  const jobHandlers: JobHandlers = {
    [UPLOAD_SWEEP_JOB]: defineJob({ payload: z.object({}), everyMs: 10 * 60 * 1000, run: async () => void (await cleanUpExpired()) }),
  };

  return { checkCreation, find, settle, handle, cleanUpExpired, jobHandlers };
}
