// The server runs of the playlist mutations of src/mutations/playlists.ts, and the applying of
// auto-add rules (src/domain/auto-add.ts): a new clip of a program joins every playlist of the
// program whose rule takes it, in the transaction that made the clip or published it.
//
//   clip.create (content.ts) ───────────┐
//                                       ├─> the program's live playlists with a rule that is on,
//   a clip becomes Published (a job) ───┘   each locked, its rule asked (autoAddMatches), the clip
//                                           appended to ClipIds unless it is there already
import { autoAddMatches, normaliseAutoAddRule } from '../../src/domain/auto-add.ts';
import type { AutoAddRule } from '../../src/protocol/entities.ts';
import { playlistSetAutoAdd } from '../../src/mutations/playlists.ts';
import { checkPrecondition } from '../http.ts';
import { loadRow, updateRow, type WireRow, type WriteContext } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { serverMutation } from './run.ts';
import { lockContent, requireFlags, type OpStore } from './store.ts';

export const PLAYLIST_RUNS = [
  serverMutation(playlistSetAutoAdd, async (s, a, expected) => {
    const { current, flags } = await lockContent(s, 'playlist', a.playlistId);
    // A rule is a setting of the playlist (section 6: managing settings needs content access).
    requireFlags(flags, 'HasContentAccess', 'HasManageSettingsAccess');
    checkPrecondition(expected, current);
    return s.update('playlist', current, { ...current, AutoAdd: a.AutoAdd === null ? null : normaliseAutoAddRule(a.AutoAdd) });
  }),
];

/** What adding a clip to playlists needs of storage: rule reads, and locked reads and writes of
 * playlists (an OpStore in a mutation's run, the transaction itself in a job). */
type PlaylistIo = {
  q: Queryable;
  lock(id: string): Promise<WireRow | null>;
  update(current: WireRow, next: Record<string, unknown>): Promise<WireRow>;
};

/** The Ids of the program's live playlists with a rule that is on, in id order (the order every
 * writer locks them in, so two never wait for each other). */
async function playlistsWithRules(q: Queryable, organizationId: string, programId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM playlists WHERE organization_id = $1 AND program_id = $2 AND NOT deleted AND data->'AutoAdd'->>'Enabled' = 'true' ORDER BY id`,
    [organizationId, programId],
  );
  return rows.map((r) => r.id);
}

async function addToMatching(io: PlaylistIo, clip: WireRow): Promise<WireRow[]> {
  if (clip.Deleted || typeof clip['ProgramId'] !== 'string') return [];
  const written: WireRow[] = [];
  for (const id of await playlistsWithRules(io.q, clip.OrganizationId, clip['ProgramId'])) {
    const playlist = await io.lock(id);
    if (!playlist || playlist.Deleted || playlist['ProgramId'] !== clip['ProgramId']) continue;
    if (!autoAddMatches(playlist['AutoAdd'] as AutoAddRule | null | undefined, clip as Parameters<typeof autoAddMatches>[1])) continue;
    const clipIds = (playlist['ClipIds'] as string[] | undefined) ?? [];
    if (clipIds.includes(clip.Id)) continue;
    written.push(await io.update(playlist, { ...playlist, ClipIds: [...clipIds, clip.Id] }));
  }
  return written;
}

/**
 * Appends the clip to every playlist of its program whose auto-add rule takes it, inside the
 * caller's transaction `q`; for the publishing job when a clip becomes Published. Returns the
 * playlists written (the caller pokes devices with their Versions after commit). `write` names the
 * writer; by default none (a job), dated now.
 */
export function applyAutoAdd(q: Queryable, clip: WireRow, write: WriteContext = { organizationId: clip.OrganizationId, userId: null, now: new Date(), clientId: null }): Promise<WireRow[]> {
  return addToMatching(
    {
      q,
      lock: (id) => loadRow(q, 'playlist', clip.OrganizationId, id, { forUpdate: true }),
      update: (current, next) => updateRow(q, 'playlist', current, write, next),
    },
    clip,
  );
}

/** The same inside a mutation's run (clip.create), through its store: a push's batch keeps the
 * playlists' writes with the clip's. */
export function applyAutoAddInRun(s: OpStore, clip: WireRow): Promise<WireRow[]> {
  return addToMatching({ q: s.q, lock: (id) => s.row('playlist', id), update: (current, next) => s.update('playlist', current, next) }, clip);
}
