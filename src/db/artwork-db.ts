// Artwork chosen (or removed) in the studio and not yet on the server, kept on the device the
// moment it is chosen, online or not, so that a reload or a dropped link loses nothing. Its own
// small database ('castaway-artwork', as the audio uploads have theirs: src/db/upload-db.ts): the
// synced store is rebuilt from pulls, and a chosen image must not be swept away by a rebuild.
//
// One record per owner (network, program, playlist or clip): a later choice replaces an earlier
// one that has not been sent, as the server would have replaced it anyway.
//
//   queued ──online──> sending ──204──> (record removed; the row's Urls.ImagePublicUrl follows by sync)
//     ▲                  │
//     └─offline, 5xx, link dropped (retried: src/lib/artwork-queue.ts)
//                        └─400 / 413 / 415 / 404 / 403──> failed (kept, with why, until chosen again or dismissed)
import { Dexie, type EntityTable } from 'dexie';
import type { ImageOwnerKind } from '../domain/artwork.ts';

export type ArtworkState = 'queued' | 'sending' | 'failed';

export type ArtworkRecord = {
  /** `${kind}:${ownerId}` */
  key: string;
  kind: ImageOwnerKind;
  ownerId: string;
  userId: string;
  organizationId: string;
  /** put: `blob` becomes the artwork; remove: the artwork is removed. */
  action: 'put' | 'remove';
  blob: Blob | null;
  fileName: string | null;
  state: ArtworkState;
  /** The server's refusal: its HTTP status (400, 403, 404, 413, 415). */
  refusedStatus: number | null;
  createdAt: number;
};

type ArtworkDb = Dexie & { pending: EntityTable<ArtworkRecord, 'key'> };

export const ARTWORK_DB_NAME = 'castaway-artwork';

function openArtworkDb(): ArtworkDb {
  const d = new Dexie(ARTWORK_DB_NAME) as ArtworkDb;
  d.version(1).stores({ pending: 'key, userId, state' });
  return d;
}

export const artworkDb: ArtworkDb = openArtworkDb();

export const artworkKey = (kind: ImageOwnerKind, ownerId: string) => `${kind}:${ownerId}`;
