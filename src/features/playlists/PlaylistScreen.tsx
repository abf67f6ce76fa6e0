// /{organizationId}/programs/{programId}/playlists/{playlistId} — its clips in order, reordered by
// dragging a row's handle (pointer events: mouse, pen or touch) and by keyboard (focus a handle,
// ArrowUp / ArrowDown; Home / End), each move written at once through setPlaylistClips and
// announced to screen readers.
import { useEffect, useRef, useState } from 'react';
import { clipLabel, seasonEpisodeLabel } from '../../domain/clip.ts';
import { m } from '../../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type LocalRow } from '../../db/db.ts';
import { setPlaylistClips } from '../../db/writes.ts';
import { asClip, asPlaylist, hasSynced, useRow } from '../../lib/rows.ts';
import { visibilityLabel } from '../../lib/labels.ts';
import { Link } from '../../lib/router.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { useIdParams } from '../../lib/params.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import type { Clip } from '../../protocol/entities.ts';
import { slideOf, usePointerReorder } from './usePointerReorder.ts';

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  const [item] = out.splice(from, 1);
  if (item === undefined) return out;
  out.splice(Math.max(0, Math.min(to, out.length)), 0, item);
  return out;
}

export function PlaylistScreen() {
  const { organizationId, programId, playlistId } = useIdParams('organizationId', 'programId', 'playlistId');
  const row = useRow('playlists', playlistId);
  const stored = row.state === 'ok' ? asPlaylist(row.row).ClipIds : [];
  // A drop shows its new order at once, before the local write comes back through the live query.
  const [dropped, setDropped] = useState<{ from: string; order: string[] } | null>(null);
  const storedKey = stored.join(',');
  const ids = dropped && dropped.from === storedKey ? dropped.order : stored;
  useEffect(() => setDropped(null), [storedKey]);
  const local = useLiveQuery(async () => {
    const rows = await db.clips.bulkGet(stored);
    const byId = new Map(rows.filter((r): r is LocalRow => r !== undefined && !r['Deleted']).map((r) => [r.Id as string, asClip(r)]));
    return { byId, synced: await hasSynced() };
  }, [storedKey]);
  const clips = local?.byId;
  // A clip deleted after it was added stays in the playlist's ClipIds until the next reorder (the
  // server's list of the playlist's clips leaves it out, and refuses an order that names it): once
  // the store has synced, a clip it does not hold is not shown. Before that, a clip not yet pulled
  // shows as its id.
  const shown = local?.synced ? ids.filter((id) => local.byId.has(id)) : ids;
  const [announce, setAnnounce] = useState('');
  const listRef = useRef<HTMLOListElement>(null);

  const move = async (from: number, to: number, focus: boolean) => {
    if (to < 0 || to >= shown.length || from === to) return;
    // The server keeps a playlist to live clips: the order sent is the one shown.
    const next = moveItem(shown, from, to);
    const clip = clips?.get(shown[from] ?? '');
    setDropped({ from: storedKey, order: next });
    if (!(await savedLocally(setPlaylistClips(playlistId, next), m.app_playlist_move_failed()))) {
      setDropped(null); // the list goes back to the stored order
      return;
    }
    setAnnounce(m.app_playlist_moved({ title: clip ? clipLabel(clip) : '', position: to + 1, count: shown.length }));
    if (focus) requestAnimationFrame(() => document.getElementById(`handle-${shown[from]}`)?.focus());
  };
  const { view, handleProps } = usePointerReorder(listRef, (from, to) => void move(from, to, false));

  if (row.state === 'missing') return <NotFoundPage kind="playlist" />;
  if (row.state === 'loading') return <p className="muted">{m.app_loading()}</p>;
  const playlist = asPlaylist(row.row);
  if (playlist.ProgramId !== programId) return <NotFoundPage kind="playlist" />;
  const base = `/${organizationId}/programs/${programId}`;

  return (
    <>
      <PageHeader eyebrow={visibilityLabel(playlist.Visibility)} title={playlist.Title} link={<Link href={`${base}?tab=playlists`}>{m.app_back()}</Link>} />
      <section className="card" aria-labelledby="playlist-clips">
        <h2 id="playlist-clips">{m.app_playlist_clips()}</h2>
        <p className="muted" id="reorder-hint">{m.app_playlist_reorder_hint()}</p>
        {shown.length === 0 ? (
          <p className="empty">{m.app_playlist_empty()}</p>
        ) : (
          <ol className={`reorder-list${view ? ' reordering' : ''}`} ref={listRef}>
            {shown.map((id, index) => {
              const clip: Clip | undefined = clips?.get(id);
              const label = clip ? clipLabel(clip) : id;
              const handle = handleProps(index);
              const dragged = view?.from === index;
              const offset = view ? (dragged ? view.dy : slideOf(index, view.from, view.to, view.step)) : 0;
              return (
                <li key={id} className={`reorder-item${dragged ? ' dragging' : ''}`} style={offset ? { transform: `translateY(${offset}px)` } : undefined}>
                  <button
                    type="button"
                    id={`handle-${id}`}
                    className="drag-handle"
                    aria-label={m.app_playlist_move_handle({ title: label })}
                    aria-describedby="reorder-hint"
                    onPointerDown={handle.onPointerDown}
                    onPointerMove={handle.onPointerMove}
                    onPointerUp={handle.onPointerUp}
                    onPointerCancel={handle.onPointerCancel}
                    onLostPointerCapture={handle.onLostPointerCapture}
                    onKeyDown={(e) => {
                      if (handle.cancelOnEscape(e)) return;
                      const to = e.key === 'ArrowUp' ? index - 1 : e.key === 'ArrowDown' ? index + 1 : e.key === 'Home' ? 0 : e.key === 'End' ? shown.length - 1 : null;
                      if (to === null) return;
                      e.preventDefault();
                      void move(index, to, true);
                    }}
                  >
                    <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path d="M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01" stroke="currentColor" strokeWidth="3" strokeLinecap="round" /></svg>
                  </button>
                  <span className="reorder-pos" aria-hidden="true">{index + 1}</span>
                  <Link href={`${base}/clips/${id}`} className="reorder-title">{label}</Link>
                  {clip && seasonEpisodeLabel(clip) && <span className="muted">{seasonEpisodeLabel(clip)}</span>}
                </li>
              );
            })}
          </ol>
        )}
        <p className="visually-hidden" role="status" aria-live="polite">{announce}</p>
      </section>
    </>
  );
}
