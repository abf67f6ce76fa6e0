// The last saved cut of each clip, kept on the device so the cut editor opens with it offline.
// The server keeps a clip's cut beside its audio (GET /internal/clips/{clipId}/cut), not in the
// synced row, so the pull never brings it: this copy is written whenever the studio fetches a cut
// or the user saves one, and read when the server cannot be asked. Its own small database
// ('castaway-cuts', like src/db/artwork-db.ts): the synced store is rebuilt from pulls, and a
// log-out clears it with every other 'castaway…' database (src/db/reset.ts).
//
//   fetched (a cut, or 204: none) ──> put      saved in the editor ──> put
//   offline open ──> read (no record: not known here; the clip opens uncut, and the screen says so)
import { Dexie, type EntityTable } from 'dexie';
import { CutEditSchema, type CutEdit } from '../protocol/media.ts';

export type CachedCut = {
  clipId: string;
  /** null: the server has none (the clip opens uncut, and that is known). */
  cut: CutEdit | null;
  /** When this device last learnt it (ms since the epoch). */
  savedAt: number;
};

type CutCacheDb = Dexie & { cuts: EntityTable<CachedCut, 'clipId'> };

export const CUT_CACHE_DB_NAME = 'castaway-cuts';

function openCutCacheDb(): CutCacheDb {
  const d = new Dexie(CUT_CACHE_DB_NAME) as CutCacheDb;
  d.version(1).stores({ cuts: 'clipId' });
  return d;
}

export const cutCacheDb: CutCacheDb = openCutCacheDb();

const idOf = (clipId: string) => clipId.toLowerCase();

/** The clip's cut as this device last knew it: a cut, null for "none saved", undefined for "not known here". */
export async function cachedCut(clipId: string): Promise<CutEdit | null | undefined> {
  const record = await cutCacheDb.cuts.get(idOf(clipId));
  if (!record) return undefined;
  if (record.cut === null) return null;
  // A record written by an older build that no longer parses is as good as none.
  const parsed = CutEditSchema.safeParse(record.cut);
  return parsed.success ? parsed.data : undefined;
}

/** Keeps the clip's cut (null: the server has none). */
export async function rememberCut(clipId: string, cut: CutEdit | null, now = Date.now()): Promise<void> {
  await cutCacheDb.cuts.put({ clipId: idOf(clipId), cut, savedAt: now });
}
