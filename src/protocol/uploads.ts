// Resumable uploads of clip audio: the tus 1.0 protocol (https://tus.io/protocols/resumable-upload)
// under one path, served by @tus/server (sync-server/uploads) and spoken by tus-js-client
// (src/lib/upload-queue.ts). Extensions: creation, termination, expiration.
//
//   POST   /api/internal/uploads          Upload-Length, Upload-Metadata: filename, clipId
//                                         → 201 Location /api/internal/uploads/{id}
//                                         → 400 { Errors } the file rules of section 5 (as PUT audio)
//                                         → 404 clip unknown or no content access; 429 too many open uploads
//   HEAD   /api/internal/uploads/{id}     → 200 Upload-Offset (resume from here)
//   PATCH  /api/internal/uploads/{id}     Upload-Offset, application/offset+octet-stream body → 204 Upload-Offset;
//                                         the last byte hands the file to the PUT audio pipeline
//                                         (State AudioUploaded → Processing → Ready / Warning / Error)
//   DELETE /api/internal/uploads/{id}     → 204 (cancel)
// Every call is a session call (cookie + x-xsrf-token on writes, x-organization-id); an upload
// is visible only to the user and organization that created it (404 otherwise).

export const UPLOADS_PATH = '/api/internal/uploads';

/** Upload-Metadata keys sent by the client. */
export const UploadMetadataKey = { FileName: 'filename', ClipId: 'clipId' } as const;

/** Unfinished uploads one user may hold at once; the next creation is 429. */
export const MAX_OPEN_UPLOADS_PER_USER = 10;

/** An upload not finished this long after its creation is deleted (410/404 afterwards). */
export const UPLOAD_EXPIRES_MS = 24 * 60 * 60 * 1000;

/** The app's PATCH size: a dropped link costs at most one chunk in flight (the server keeps what arrived). */
export const UPLOAD_CHUNK_BYTES = 8 * 1024 * 1024;
