// Reading and writing the audio fields of a clip row. The clips table belongs to the server core;
// this writes the way the contract asks every write to (contracts.md "Server"): a new Version from
// the one sequence `row_version`, ModifiedAtUtc strictly increasing, the row appended to
// row_revisions (last 50 kept), and the change published on the bus AFTER commit.
// TODO(server-core): switch to the core's clip update function once it exists, same semantics.
import type { Queryable } from '../store/store.ts';
import type { AppDeps } from '../app.ts';

export type ClipRow = {
  id: string;
  organization_id: string;
  program_id: string;
  network_id: string | null;
  state: string;
  data: Record<string, unknown>;
  deleted: boolean;
};

export async function loadClip(q: Queryable, organizationId: string, clipId: string): Promise<ClipRow | null> {
  const rows = await q.query<ClipRow>(
    `SELECT c.id, c.organization_id, c.program_id, p.network_id, c.state, c.data, c.deleted
       FROM clips c LEFT JOIN programs p ON p.id = c.program_id
      WHERE c.id = $1 AND c.organization_id = $2`,
    [clipId, organizationId],
  );
  const row = rows[0];
  return row && !row.deleted ? row : null;
}

export type ClipAudioPatch = {
  State: 'AudioUploaded' | 'Processing' | 'Ready' | 'Warning' | 'Error';
  /** Wire fields merged into the row's data (Urls merged key by key). */
  fields?: Record<string, unknown>;
  urls?: Record<string, string | null>;
};

const REVISIONS_KEPT = 50;

export async function writeClipAudio(deps: AppDeps, organizationId: string, clipId: string, userId: string | null, patch: ClipAudioPatch): Promise<boolean> {
  const now = deps.clock ? deps.clock() : new Date();
  const written = await deps.store.tx(async (q) => {
    const rows = await q.query<{ data: Record<string, unknown>; modified_at_utc: Date | string; deleted: boolean }>(
      'SELECT data, modified_at_utc, deleted FROM clips WHERE id = $1 AND organization_id = $2 FOR UPDATE',
      [clipId, organizationId],
    );
    const row = rows[0];
    if (!row || row.deleted) return null;
    const prev = new Date(row.modified_at_utc).getTime();
    const modified = new Date(Math.max(now.getTime(), prev + 1));
    const urls = { ...((row.data.Urls as Record<string, unknown> | undefined) ?? {}), ...(patch.urls ?? {}) };
    const data = { ...row.data, ...(patch.fields ?? {}), ...(patch.urls ? { Urls: urls } : {}) };
    const [{ version }] = (await q.query<{ version: string }>("SELECT nextval('row_version')::text AS version")) as [{ version: string }];
    const updated = await q.query<Record<string, unknown>>(
      `UPDATE clips SET state = $3, data = $4::jsonb, modified_at_utc = $5, modified_by_id = $6, version = $7
        WHERE id = $1 AND organization_id = $2 RETURNING *`,
      [clipId, organizationId, patch.State, JSON.stringify(data), modified.toISOString(), userId, version],
    );
    await q.query(
      `INSERT INTO row_revisions (entity, id, version, modified_at_utc, row) VALUES ('clips', $1, $2, $3, $4::jsonb)`,
      [clipId, version, modified.toISOString(), JSON.stringify(updated[0])],
    );
    await q.query(
      `DELETE FROM row_revisions WHERE entity = 'clips' AND id = $1 AND version NOT IN
         (SELECT version FROM row_revisions WHERE entity = 'clips' AND id = $1 ORDER BY version DESC LIMIT ${REVISIONS_KEPT})`,
      [clipId],
    );
    return Number(version);
  });
  if (written === null) return false;
  deps.bus.publish({ organizationId, version: written });
  return true;
}
