// What a public page may show, read from the store without a session: a program, its clips that a
// listener may see, and its public feeds. Section 4's visibility decides:
//
//   clip ──deleted, not Ready/Warning, not Published, or waiting on a scheduled publication──> no page (404)
//        ──Public (now, or its ScheduledVisibility once VisibleAtUtc has passed)──> a page, listed on the program page
//        ──Unlisted──> a page reachable by its link, not listed, marked noindex
//        ──Private, Restricted──> no page (404)
import type { Queryable } from '../store/store.ts';
import { selectFrom, toWire, type DbRow, type WireRow } from '../rows.ts';
import { feedIncludes, type FeedClipFields } from '../../src/domain/feed.ts';

/** How a page shows a clip, or null: no page at all. */
export type ClipExposure = 'listed' | 'unlisted';

/** How the public pages show a clip at `now` (see the header): the feeds' own rule
 * (src/domain/feed.ts), with Unlisted clips reachable by link. */
export function clipExposure(clip: WireRow, now: Date): ClipExposure | null {
  // A clip's wire row carries the fields the rule reads (State, PublishState, Visibility, the schedule).
  const fields = clip as unknown as FeedClipFields;
  if (feedIncludes(fields, { now })) return 'listed';
  if (feedIncludes(fields, { now, unlisted: true })) return 'unlisted';
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
