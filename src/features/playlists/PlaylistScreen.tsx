// /{organizationId}/programs/{programId}/playlists/{playlistId} — its clips in order, reordered by
// drag (pointer) and by keyboard (focus a handle, ArrowUp / ArrowDown; Home / End), each move
// written at once through setPlaylistClips.
import { useState, type DragEvent } from 'react';
import { clipLabel, seasonEpisodeLabel } from '../../domain/clip.ts';
import { m } from '../../paraglide/messages.js';
import { db, useLiveQuery } from '../../db/db.ts';
import { setPlaylistClips } from '../../db/writes.ts';
import { asClip, asPlaylist, useRow } from '../../lib/rows.ts';
import { visibilityLabel } from '../../lib/labels.ts';
import { Link } from '../../lib/router.ts';
import { useIdParams } from '../../app/params.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { NotFoundPage } from '../errors/ErrorPage.tsx';
import type { Clip } from '../../protocol/entities.ts';

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
  const ids = row.state === 'ok' ? asPlaylist(row.row).ClipIds : [];
  const clips = useLiveQuery(async () => {
    const rows = await db.clips.bulkGet(ids);
    const byId = new Map(rows.filter((r) => r !== undefined).map((r) => [r.Id as string, asClip(r)]));
    return byId;
  }, [ids.join(',')]);
  const [announce, setAnnounce] = useState('');
  const [dragIndex, setDragIndex] = useState<number | null>(null);
  const [overIndex, setOverIndex] = useState<number | null>(null);
  if (row.state === 'missing') return <NotFoundPage kind="playlist" />;
  if (row.state === 'loading') return <p className="muted">{m.app_loading()}</p>;
  const playlist = asPlaylist(row.row);
  if (playlist.ProgramId !== programId) return <NotFoundPage kind="playlist" />;
  const base = `/${organizationId}/programs/${programId}`;

  const move = async (from: number, to: number, focus: boolean) => {
    if (to < 0 || to >= ids.length || from === to) return;
    const next = moveItem(ids, from, to);
    await setPlaylistClips(playlistId, next);
    const clip = clips?.get(ids[from] ?? '');
    setAnnounce(m.app_playlist_moved({ title: clip ? clipLabel(clip) : '', position: to + 1, count: ids.length }));
    if (focus) requestAnimationFrame(() => document.getElementById(`handle-${ids[from]}`)?.focus());
  };

  return (
    <>
      <PageHeader eyebrow={visibilityLabel(playlist.Visibility)} title={playlist.Title} link={<Link href={`${base}?tab=playlists`}>{m.app_back()}</Link>} />
      <section className="card" aria-labelledby="playlist-clips">
        <h2 id="playlist-clips">{m.app_playlist_clips()}</h2>
        <p className="muted" id="reorder-hint">{m.app_playlist_reorder_hint()}</p>
        {ids.length === 0 ? (
          <p className="empty">{m.app_playlist_empty()}</p>
        ) : (
          <ol className="reorder-list">
            {ids.map((id, index) => {
              const clip: Clip | undefined = clips?.get(id);
              const label = clip ? clipLabel(clip) : id;
              return (
                <li
                  key={id}
                  className={`reorder-item${dragIndex === index ? ' dragging' : ''}${overIndex === index && dragIndex !== index ? ' drop-target' : ''}`}
                  draggable
                  onDragStart={(e: DragEvent) => {
                    setDragIndex(index);
                    e.dataTransfer.effectAllowed = 'move';
                    e.dataTransfer.setData('text/plain', id);
                  }}
                  onDragOver={(e) => {
                    e.preventDefault();
                    setOverIndex(index);
                  }}
                  onDragEnd={() => {
                    setDragIndex(null);
                    setOverIndex(null);
                  }}
                  onDrop={(e) => {
                    e.preventDefault();
                    const from = ids.indexOf(e.dataTransfer.getData('text/plain'));
                    setDragIndex(null);
                    setOverIndex(null);
                    if (from >= 0) void move(from, index, false);
                  }}
                >
                  <button
                    type="button"
                    id={`handle-${id}`}
                    className="drag-handle"
                    aria-label={m.app_playlist_move_handle({ title: label })}
                    aria-describedby="reorder-hint"
                    onKeyDown={(e) => {
                      const to = e.key === 'ArrowUp' ? index - 1 : e.key === 'ArrowDown' ? index + 1 : e.key === 'Home' ? 0 : e.key === 'End' ? ids.length - 1 : null;
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
