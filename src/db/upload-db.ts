// Picked audio files waiting to reach the server, kept on the device the moment they are picked
// (online or not) so a reload, a restart or a dropped link loses nothing. Its own small database
// ('castaway-uploads', like src/db/users-cache.ts): the synced store (src/db/db.ts) is rebuilt
// from pulls, and these blobs must never be swept away by such a rebuild.
import { Dexie, type EntityTable } from 'dexie';
import type { FieldError } from '../protocol/errors.ts';

/**
 *   queued ──start (online)──> uploading ──last byte accepted──> done (blob removed; the row then
 *     ▲                           │                              follows the clip's State: processing,
 *     │                           │                              ready, ready with a warning, error)
 *     ▲                           │
 *     └──link dropped / offline / 5xx, backoff ≤ 30 s
 *                                 └──400 / 404 (refused), 403 with the server's reason (the ExtraStorage cap,
 *                                    an account not activated…)──> failed (blob kept until dismissed)
 *   cancel (any state): DELETE on the server, record removed.
 */
export type UploadState = 'queued' | 'uploading' | 'done' | 'failed';

/** Why an upload was refused, shown through the media_ messages; storageCap: the month's
 * ExtraStorage cap is reached (its figures in `cap`, shown through the plans_ messages); refused:
 * another 403 the server explained (its field error in `refusal`, e.g. an account not activated). */
export type UploadProblem = 'rejected' | 'clipGone' | 'storageCap' | 'refused';

export type UploadRecord = {
  id: string;
  /** The signed-in user who picked the file: only their queue sends it. */
  userId: string;
  organizationId: string;
  clipId: string;
  fileName: string;
  size: number;
  /** The file itself until the server has it all; null once done. */
  blob: Blob | null;
  /** The tus upload URL once created: a restart resumes from the server's offset there. */
  tusUrl: string | null;
  /** Bytes the server has confirmed (or the client has sent, while uploading). */
  offset: number;
  state: UploadState;
  problem: UploadProblem | null;
  /** The cap and the usage the server named with a storageCap refusal (absent otherwise). */
  cap?: { cap: number; used: number } | null;
  /** The server's reason with a `refused` problem (absent otherwise). */
  refusal?: FieldError | null;
  createdAt: number;
  /**
   * The local clip row's ModifiedAtUtc when the file was picked, before the server had any of it
   * (records from before this was kept at pick time take it when done). The server marks the clip
   * AudioUploaded on the last byte, so once done a clip row with another ModifiedAtUtc tells how
   * the processing of THIS file went (the row from before tells nothing): for a clip without audio
   * (one with audio: clipServedAudio).
   */
  clipModifiedAtUtc?: string | null;
  /**
   * What the clip served when the file was picked (src/lib/upload-queue.ts servedAudioOf), for a
   * clip that served audio: it keeps State Ready or Warning while a new file processes
   * (sync-server/audio/versions.ts), so its ModifiedAtUtc, which any field edit changes, cannot
   * tell when the new file is done; what it serves can. Not an index: no new database version.
   * Undefined in records kept before this was.
   */
  clipServedAudio?: ServedAudio | null;
};

/**
 * What identifies the audio a clip row serves: its State (Ready or Warning), its AudioPrivateUrl,
 * which names the published version (?v=, new with every processed file or cut), and its
 * AudioProcessingProblem (set when a new file could not be used and the clip kept its audio). A
 * field edit (the title, a dismissed problem) changes none of these.
 */
export type ServedAudio = { state: string; audioUrl: string; problem: string | null };

type UploadsDb = Dexie & { uploads: EntityTable<UploadRecord, 'id'> };

export const UPLOADS_DB_NAME = 'castaway-uploads';

function openUploadsDb(): UploadsDb {
  const d = new Dexie(UPLOADS_DB_NAME) as UploadsDb;
  d.version(1).stores({ uploads: 'id, clipId, userId, state' });
  return d;
}

export const uploadsDb: UploadsDb = openUploadsDb();
