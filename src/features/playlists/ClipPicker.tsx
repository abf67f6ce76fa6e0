// "Add clips": the program's clips on this device that are not in the playlist yet, newest first,
// searched by title and chosen with checkboxes; the choice is added at the end of the playlist in
// the order listed. Reads the local store only, so it works offline.
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { clipLabel, seasonEpisodeLabel } from '../../domain/clip.ts';
import { m } from '../../paraglide/messages.js';
import { db } from '../../db/db.ts';
import { asClip, live } from '../../lib/rows.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import type { Clip } from '../../protocol/entities.ts';

/** Rows shown at once: a search narrows a program of thousands of clips. */
const SHOWN_MAX = 200;

export function ClipPicker({ open, title, programId, inPlaylist, onClose, onAdd }: { open: boolean; title: string; programId: string; inPlaylist: readonly string[]; onClose: () => void; onAdd: (clipIds: string[]) => void }) {
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const inKey = inPlaylist.join(',');
  const clips = useLiveQuery(async () => {
    const have = new Set(inPlaylist);
    const rows = live((await db.clips.where('ProgramId').equals(programId).toArray()).map(asClip)).filter((c) => !have.has(c.Id));
    return rows.sort((a, b) => b.CreatedAtUtc.localeCompare(a.CreatedAtUtc) || a.Id.localeCompare(b.Id));
  }, [programId, inKey]);
  const matches = useMemo(() => {
    const q = query.trim().toLocaleLowerCase();
    return q ? (clips ?? []).filter((c) => clipLabel(c).toLocaleLowerCase().includes(q)) : (clips ?? []);
  }, [clips, query]);
  const shown = matches.slice(0, SHOWN_MAX);
  const toggle = (id: string, on: boolean) =>
    setChosen((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const add = () => {
    // In the order the program lists them (newest first), whatever order they were ticked in.
    const order = (clips ?? []).map((c) => c.Id).filter((id) => chosen.has(id));
    if (order.length > 0) onAdd(order);
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      width="compactMedium"
      title={m.playlists_add_clips_title({ title })}
      footer={
        <>
          <span className="muted picker-count" aria-live="polite">{m.playlists_selected({ count: chosen.size })}</span>
          <button type="button" className="button" onClick={onClose}>{m.app_dialog_cancel()}</button>
          <button type="button" className="button primary" disabled={chosen.size === 0} onClick={add}>{m.playlists_add_selected()}</button>
        </>
      }
    >
      <div className="toolbar">
        <label className="visually-hidden" htmlFor="clip-picker-search">{m.playlists_search_clips()}</label>
        <input id="clip-picker-search" type="search" placeholder={m.playlists_search_clips()} value={query} onChange={(e) => setQuery(e.target.value)} autoFocus />
      </div>
      {clips !== undefined && clips.length === 0 ? (
        <p className="empty">{m.playlists_all_clips_in()}</p>
      ) : clips !== undefined && matches.length === 0 ? (
        <p className="empty">{m.playlists_no_clips_match()}</p>
      ) : (
        <ul className="picker-list" aria-label={m.playlists_add_clips()}>
          {shown.map((c: Clip) => (
            <li key={c.Id}>
              <label className="choice">
                <input type="checkbox" checked={chosen.has(c.Id)} onChange={(e) => toggle(c.Id, e.target.checked)} />
                <span className="choice-label">{clipLabel(c)}</span>
                {seasonEpisodeLabel(c) && <span className="muted">{seasonEpisodeLabel(c)}</span>}
              </label>
            </li>
          ))}
        </ul>
      )}
      {matches.length > shown.length && <p className="muted">{m.playlists_more_matches({ count: matches.length - shown.length })}</p>}
    </Dialog>
  );
}
