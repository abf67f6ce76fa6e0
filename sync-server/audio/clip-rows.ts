// Reading and writing the audio fields of a clip or recording row through the server core's row functions
// (sync-server/rows.ts): each write takes a new Version, a strictly later ModifiedAtUtc and a
// row_revisions entry there; the change is published on the bus AFTER commit here.
import type { Queryable } from '../store/store.ts';
import { now, type AppDeps } from '../app.ts';
import { plainTransaction, type InTransaction } from '../jobs/runner.ts';
import { loadRow, updateRow } from '../rows.ts';

export type ClipRow = { id: string; program_id: string; network_id: string | null };

/** The live clip or recording of the organization with its program's network, or null. */
export async function loadAudioOwner(q: Queryable, entity: 'clip' | 'recording', organizationId: string, id: string): Promise<ClipRow | null> {
  const table = entity === 'clip' ? 'clips' : 'recordings';
  const rows = await q.query<ClipRow>(
    `SELECT c.id, c.program_id, p.network_id
       FROM ${table} c LEFT JOIN programs p ON p.id = c.program_id
      WHERE c.id = $1 AND c.organization_id = $2 AND NOT c.deleted`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

export const loadClip = (q: Queryable, organizationId: string, clipId: string) => loadAudioOwner(q, 'clip', organizationId, clipId);

export type AudioRowPatch = {
  /** Clip: AudioUploaded | Processing | Ready | Warning | Error. Recording: Processing | Live | Finalized. */
  State: string;
  /** Wire fields set on the row. */
  fields?: Record<string, unknown>;
  /** Urls set key by key (the others are kept). */
  urls?: Record<string, string | null>;
};

/** The row an audio write changes. */
export type AudioRowRef = { entity: 'clip' | 'recording'; organizationId: string; id: string };

/** Who makes an audio write: the user (null: none, e.g. a job whose user is gone). A sync push's
 * audio writes are named mutations (mutations.ts), which record their client themselves. */
export type AudioAuthor = { userId: string | null };

/** The row with an audio patch applied (its Urls key by key). */
export function audioPatched(current: Record<string, unknown>, patch: AudioRowPatch): Record<string, unknown> {
  const urls = { ...((current['Urls'] as Record<string, unknown> | null | undefined) ?? {}), ...(patch.urls ?? {}) };
  return { ...current, ...(patch.fields ?? {}), State: patch.State, ...(patch.urls ? { Urls: urls } : {}) };
}

/** What a write under the row's lock may also do. */
export type AudioWriteSteps = {
  /**
   * Checked under the row's lock, before anything is written: false when the request this write
   * answers was replaced meanwhile (a newer upload, ingest or normalization, whose own job writes
   * next), and then nothing is written.
   */
  stands?: (q: Queryable, current: Record<string, unknown>) => Promise<boolean>;
  /** Runs in the write's transaction once the row is written: the job it causes (sync-server/jobs). */
  alsoInTransaction?: (q: Queryable) => Promise<unknown>;
  /**
   * The transaction the write runs in, the row locked first (default a plain one). A job's give-up
   * passes its unlessRerun: a request that asked for another run meanwhile (a new upload) is that
   * run's to answer, and nothing is written ('superseded').
   */
  inTransaction?: InTransaction;
};

/** 'written': the row is there and the request stands (a patch function may still have left the row as it was). */
export type AudioWrite = 'written' | 'gone' | 'superseded';

/**
 * Applies the patch, unless the row is gone (deleted while processing) or the request no longer
 * stands. A patch given as a function is made from the row as locked (null: leave it as it is).
 */
export async function writeAudioRow(
  deps: AppDeps,
  row: AudioRowRef,
  patch: AudioRowPatch | ((current: Record<string, unknown>) => AudioRowPatch | null),
  author: AudioAuthor,
  steps: AudioWriteSteps = {},
): Promise<AudioWrite> {
  const { entity, organizationId, id } = row;
  const at = now(deps);
  const inTransaction = steps.inTransaction ?? plainTransaction(deps.store);
  const written = await inTransaction(
    (q) => loadRow(q, entity, organizationId, id, { forUpdate: true }),
    async (q, current) => {
      if (!current || current.Deleted) return 'gone' as const;
      if (steps.stands && !(await steps.stands(q, current))) return 'superseded' as const;
      const change = typeof patch === 'function' ? patch(current) : patch;
      const updated = change ? await updateRow(q, entity, current, { organizationId, userId: author.userId, now: at, clientId: null }, audioPatched(current, change)) : null;
      await steps.alsoInTransaction?.(q);
      return { updated };
    },
  );
  if (written === null) return 'superseded';
  if (typeof written === 'string') return written;
  if (written.updated) deps.bus.publish({ organizationId, version: written.updated.Version });
  return 'written';
}
