// What a public page may show, read from the store without a session: a program, its clips that a
// listener may see, and its public feeds. Section 4's visibility decides:
//
//   clip ──deleted, not Ready/Warning, not Published, or waiting on a scheduled publication──> no page (404)
//        ──Public (now, or its ScheduledVisibility once VisibleAtUtc has passed)──> a page, listed on the program page
//        ──Unlisted──> a page reachable by its link, not listed, marked noindex
//        ──Private, Restricted──> no page (404)
import type { Queryable } from '../store/store.ts';
import { selectFrom, toWire, type DbRow, type WireRow } from '../rows.ts';

/** How a page shows a clip, or null: no page at all. */
export type ClipExposure = 'listed' | 'unlisted';

/** The clip fields the rule reads (a wire clip row is assignable). */
type VisibilityFields = {
  Deleted?: unknown;
  State?: unknown;
  PublishState?: unknown;
  Visibility?: unknown;
  ScheduledVisibility?: unknown;
  VisibleAtUtc?: unknown;
};

const PAGE_VISIBILITIES = new Set(['Public', 'Unlisted']);

// TODO(issue 29): the same rule as src/domain/feed.ts (feedIncludes, visibilityAt) once that
// module is on main; written here meanwhile with the same meaning.
function visibilityNow(clip: VisibilityFields, now: Date): { visibility: unknown; waitingFor: unknown } {
  const scheduled = clip.ScheduledVisibility ?? null;
  const at = typeof clip.VisibleAtUtc === 'string' ? Date.parse(clip.VisibleAtUtc) : Number.NaN;
  if (scheduled === null || Number.isNaN(at)) return { visibility: clip.Visibility, waitingFor: null };
  if (at <= now.getTime()) return { visibility: scheduled, waitingFor: null };
  return { visibility: clip.Visibility, waitingFor: scheduled };
}

/** How the public pages show a clip at `now` (see the header). */
export function clipExposure(clip: VisibilityFields, now: Date): ClipExposure | null {
  if (clip.Deleted === true) return null;
  if (clip.State !== 'Ready' && clip.State !== 'Warning') return null;
  if (clip.PublishState !== 'Published') return null;
  const { visibility, waitingFor } = visibilityNow(clip, now);
  // A scheduled publication: nothing public until VisibleAtUtc.
  if (typeof waitingFor === 'string' && PAGE_VISIBILITIES.has(waitingFor)) return null;
  if (visibility === 'Public') return 'listed';
  if (visibility === 'Unlisted') return 'unlisted';
  return null;
}

/** The most episodes a program page lists (newest first); the feeds hold them all. */
export const PROGRAM_PAGE_EPISODES = 100;

export async function loadProgram(q: Queryable, programId: string): Promise<WireRow | null> {
  const [row] = await q.query<DbRow>(`SELECT t.* FROM programs t WHERE t.id = $1 AND NOT t.deleted`, [programId]);
  return row ? toWire('program', row) : null;
}

export async function loadClip(q: Queryable, clipId: string): Promise<WireRow | null> {
  const [row] = await q.query<DbRow>(`${selectFrom('clip')} WHERE t.id = $1 AND NOT t.deleted`, [clipId]);
  return row ? toWire('clip', row) : null;
}

export async function loadClipBySlug(q: Queryable, programId: string, slug: string): Promise<WireRow | null> {
  const [row] = await q.query<DbRow>(`${selectFrom('clip')} WHERE t.program_id = $1 AND t.slug = $2 AND NOT t.deleted`, [programId, slug]);
  return row ? toWire('clip', row) : null;
}

/** The program's clips listed on its page at `now`, newest published first. The columns narrow
 * the rows; clipExposure decides (a scheduled visibility, in the row's data, may have made a
 * Private clip Public already). */
export async function listedClips(q: Queryable, programId: string, now: Date): Promise<WireRow[]> {
  const rows = await q.query<DbRow>(
    `SELECT t.* FROM clips t
     WHERE t.program_id = $1 AND NOT t.deleted AND t.publish_state = 'Published' AND t.state IN ('Ready', 'Warning')
     ORDER BY t.data->>'PublishedUtc' DESC NULLS LAST, t.id
     LIMIT ${PROGRAM_PAGE_EPISODES * 4}`,
    [programId],
  );
  return rows.map((r) => toWire('clip', r)).filter((clip) => clipExposure(clip, now) === 'listed').slice(0, PROGRAM_PAGE_EPISODES);
}

/** The program's playlists whose feed is public and listed (Visibility Public), by title. */
export async function publicPlaylists(q: Queryable, programId: string): Promise<WireRow[]> {
  const rows = await q.query<DbRow>(`SELECT t.* FROM playlists t WHERE t.program_id = $1 AND NOT t.deleted AND t.visibility = 'Public' ORDER BY t.title, t.id`, [programId]);
  return rows.map((r) => toWire('playlist', r));
}
