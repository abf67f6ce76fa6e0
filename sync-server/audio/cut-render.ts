// The clip's saved cut and its render. The cut is a row of clip_cuts (migrations/0430), written by
// the clip.saveCut run in the same transaction that queues the clip's processing job
// (versions.ts), which renders the cut of the clip's ORIGINAL upload into a new published
// version (MP3) and switches the clip to it in one row write:
//
//   clip.saveCut ──clip_cuts row + the job, one transaction──> (job) the cut of the original ──> version
//        └── saved again while it runs: it runs once more (it may have read the cut the save replaced)
//
// Cuts saved before clip_cuts existed are in the blob store (clips/{id}/cut.json) and read from
// there until the cut is saved again.
import { CutEditSchema, type CutEdit } from '../../src/protocol/media.ts';
import type { Queryable } from '../store/store.ts';
import { readJsonBlob, type BlobStore } from './blob-store.ts';
import { clipKeys } from './media-paths.ts';

/** Saves the clip's cut, in the transaction that queues its render (enqueueClipAudio). */
export async function saveClipCut(q: Queryable, organizationId: string, clipId: string, cut: CutEdit, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO clip_cuts (clip_id, organization_id, cut, saved_at_utc) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (clip_id) DO UPDATE SET cut = EXCLUDED.cut, saved_at_utc = EXCLUDED.saved_at_utc`,
    [clipId, organizationId, JSON.stringify(cut), at],
  );
}

/** The clip's saved cut, or null (the whole audio is kept). */
export async function loadClipCut(q: Queryable, blobs: BlobStore, clipId: string): Promise<CutEdit | null> {
  const rows = await q.query<{ cut: unknown }>('SELECT cut FROM clip_cuts WHERE clip_id = $1', [clipId]);
  if (rows[0]) return CutEditSchema.parse(typeof rows[0].cut === 'string' ? JSON.parse(rows[0].cut) : rows[0].cut);
  return readJsonBlob<CutEdit>(blobs, clipKeys.cut(clipId));
}
