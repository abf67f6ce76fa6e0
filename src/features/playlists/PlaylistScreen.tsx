// /{organizationId}/programs/{programId}/playlists/{playlistId} — the playlist: its public feed
// address (FeedCard), its clips in order, reordered by dragging a row's handle (pointer events:
// mouse, pen or touch) and by keyboard (focus a handle, ArrowUp / ArrowDown; Home / End), added
// from the program's clips (ClipPicker) and removed, each change written at once through
// setPlaylistClips and announced to screen readers; its details (Title, Slug, Description,
// Visibility) and its auto-add rule; Delete. Everything reads and writes the local store, so it
// all works offline; a change the server refused after sync is shown at its field.
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { clipLabel, seasonEpisodeLabel } from '../../domain/clip.ts';
import { m } from '../../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type LocalRow, type NeedsAttentionEntry } from '../../db/db.ts';
import { deletePlaylist, setPlaylistClips, updatePlaylist } from '../../db/writes.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { mutationDef } from '../../mutations/registry.ts';
import { asClip, asPlaylist, asProgram, hasSynced, useRow } from '../../lib/rows.ts';
import { visibilityLabel } from '../../lib/labels.ts';
import { Link, navigate } from '../../lib/router.ts';
import { localWriteFailureText, savedLocally } from '../../lib/local-write.ts';
import { useIdParams } from '../../lib/params.ts';
import { useProgramFlags, useSession } from '../../lib/session.ts';
import { conflictOrigin } from '../../lib/conflict-origin.ts';
import { useEditState } from '../../lib/form.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { withLoading } from '../../lib/loading.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { refusedFieldText } from '../../lib/sync-labels.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { useKeyboardInUse } from '../../ui/KeyboardHint.tsx';
import { ArtworkPicker } from '../../ui/ArtworkPicker.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import type { Clip, Playlist } from '../../protocol/entities.ts';
import { slideOf, usePointerReorder } from './usePointerReorder.ts';
import { FeedCard } from './FeedCard.tsx';
import { AutoAddCard } from './AutoAddCard.tsx';
import { DirectoriesCard } from './DirectoriesCard.tsx';
import { PremiumFeedsCard } from './PremiumFeedsCard.tsx';
import { PlaylistFields, type FieldNotes } from './PlaylistFields.tsx';
import { playlistFormErrors, playlistFormValues, playlistPatch, type PlaylistFormErrors, type PlaylistFormValues } from './playlist-form.ts';
import { RefusedChangeAlert } from '../../ui/RefusedChangeAlert.tsx';

// The picker's dialog (Ark) loads when it is first opened.
const ClipPicker = lazy(() => import('./ClipPicker.tsx').then((mod) => ({ default: mod.ClipPicker })));

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
  const program = useRow('programs', programId);
  const flags = useProgramFlags(organizationId, program.state === 'ok' ? asProgram(program.row) : null);
  const refused = useLiveQuery(() => db.needsAttention.where('entityId').equals(playlistId).sortBy('createdAt'), [playlistId]) ?? [];
  // Whose edit the playlist's open conflicts are against: the user's own on another device is worded so.
  const userId = useSession()?.session?.User?.Id;
  const conflictWith = useLiveQuery(async () => conflictOrigin(await db.conflicts.where('entityId').equals(playlistId).toArray(), userId), [playlistId, userId]) ?? 'none';
  const inConflict = conflictWith !== 'none';
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [picking, setPicking] = useState(false);
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
  const keyboard = useKeyboardInUse();
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
  /** A new membership: what is shown, with clips removed or added (the server keeps a playlist to
   * live clips of its program, so the list sent is the one shown). */
  const setMembers = async (next: string[], said: string) => {
    setDropped({ from: storedKey, order: next });
    if (!(await savedLocally(setPlaylistClips(playlistId, next), m.playlists_membership_failed()))) {
      setDropped(null);
      return false;
    }
    setAnnounce(said);
    return true;
  };
  const remove = async (index: number) => {
    const id = shown[index];
    if (id === undefined) return;
    const clip = clips?.get(id);
    const title = clip ? clipLabel(clip) : id;
    if (!(await setMembers(shown.filter((x) => x !== id), m.playlists_clip_removed({ title })))) return;
    showSavedToast(m.playlists_clip_removed({ title }));
    // Focus stays in the list: on the row that took the removed one's place, else the one above.
    requestAnimationFrame(() => document.getElementById(`remove-${shown[index + 1] ?? shown[index - 1]}`)?.focus());
  };
  const add = async (ids: string[]) => {
    setPicking(false);
    if (await setMembers([...shown, ...ids.filter((id) => !shown.includes(id))], m.playlists_clips_added())) showSavedToast(m.playlists_clips_added());
  };
  const { view, handleProps } = usePointerReorder(listRef, (from, to) => void move(from, to, false));

  if (row.state === 'missing') return <NotFoundPage kind="playlist" />;
  if (row.state === 'loading') return <p className="muted">{m.app_loading()}</p>;
  const playlist = asPlaylist(row.row);
  if (playlist.ProgramId !== programId) return <NotFoundPage kind="playlist" />;
  const base = `/${organizationId}/programs/${programId}`;
  const refusedAutoAdd = refused.filter((item) => item.mutation.name === 'playlist.setAutoAdd').flatMap((item) => item.errors.map((e) => refusedFieldText(e, 'playlists')));

  return (
    <>
      <PageHeader
        eyebrow={visibilityLabel(playlist.Visibility)}
        title={playlist.Title}
        documentTitle={[playlist.Title, m.app_program_playlists()]}
        link={<Link href={`${base}?tab=playlists`}>{m.app_back()}</Link>}
        actions={
          <button type="button" className="button danger-outline" onClick={() => setConfirmDelete(true)}>
            {m.playlists_delete()}
          </button>
        }
      />
      {inConflict && (
        <p role="alert" className="alert alert-warning">
          {conflictWith === 'own' ? m.conflicts_playlist_own_edit() : m.playlists_in_conflict()} <Link href={`/${organizationId}/sync`}>{m.app_clip_resolve_conflict()}</Link>
        </p>
      )}
      {/* Each change the server refused (its field errors also stand under the form's fields). */}
      {refused.map((item) => (
        <RefusedChangeAlert key={item.id} item={item} title={m.playlists_refused()} />
      ))}
      <FeedCard playlistId={playlist.Id} visibility={playlist.Visibility} />
      <section className="card" aria-labelledby="playlist-clips">
        <div className="card-heading">
          <h2 id="playlist-clips">{m.app_playlist_clips()}</h2>
          <button type="button" className="button" onClick={() => setPicking(true)}>{m.playlists_add_clips()}</button>
        </div>
        {/* The arrow keys only where a keyboard is used (issue 36). */}
        <p className="muted" id="reorder-hint">{keyboard ? m.app_playlist_reorder_hint() : m.shell_hint_reorder_touch()}</p>
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
                  {clip && seasonEpisodeLabel(clip) && <span className="muted reorder-meta">{seasonEpisodeLabel(clip)}</span>}
                  <button type="button" id={`remove-${id}`} className="button small" aria-label={m.playlists_remove_clip({ title: label })} onClick={() => void remove(index)}>
                    {m.playlists_remove()}
                  </button>
                </li>
              );
            })}
          </ol>
        )}
        <p className="visually-hidden" role="status" aria-live="polite">{announce}</p>
      </section>
      <DetailsForm key={playlist.Id} playlist={playlist} organizationId={organizationId} refused={refused} />
      <section className="card">
        <ArtworkPicker kind="playlist" ownerId={playlist.Id} organizationId={organizationId} imageUrl={playlist.Urls?.ImagePublicUrl} />
      </section>
      <AutoAddCard playlist={playlist} mayChange={flags === null || (flags.HasContentAccess === true && flags.HasManageSettingsAccess === true)} refusal={refusedAutoAdd[0]} />
      <DirectoriesCard playlist={playlist} organizationId={organizationId} programId={programId} mayChange={flags === null || (flags.HasContentAccess === true && flags.HasManageSettingsAccess === true)} />
      <PremiumFeedsCard playlist={playlist} organizationId={organizationId} programId={programId} mayManage={flags === null || (flags.HasContentAccess === true && flags.HasManageSettingsAccess === true)} />
      {picking && (
        <Suspense fallback={null}>
          <ClipPicker open title={playlist.Title} programId={programId} inPlaylist={shown} onClose={() => setPicking(false)} onAdd={(ids) => void add(ids)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        danger
        prompt
        title={m.playlists_delete_title()}
        description={m.playlists_delete_text({ title: playlist.Title })}
        actionLabel={m.app_dialog_delete()}
        onConfirm={() => deletePlaylist(playlist.Id)}
        successToast={m.playlists_deleted()}
        failureDescription={m.playlists_delete_failed()}
        failureReason={localWriteFailureText}
        onDone={() => navigate(`${base}?tab=playlists`, { replace: true })}
      />
    </>
  );
}

/** The fields a refused change of this playlist tried to set (an update's, a create's). */
function refusedFields(item: NeedsAttentionEntry): Record<string, unknown> {
  const def = mutationDef(item.mutation.name);
  if (def === undefined || def.entity !== 'playlists') return {};
  if (def.kind === 'update') return def.fields(item.mutation.args);
  const fields = def.kind === 'create' ? item.mutation.args['fields'] : undefined;
  return typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {};
}

const FORM_FIELDS: ReadonlyArray<keyof PlaylistFormValues> = ['Title', 'Slug', 'Description', 'Visibility'];
const isFormField = (f: string): f is keyof PlaylistFormValues => (FORM_FIELDS as readonly string[]).includes(f);

/** The playlist's details: Title, Slug, Description and Visibility, validated with section 5's
 * rules before anything is queued; 'Reset' and 'Apply' once something changed. The server's reason
 * for refusing a field after sync stands under it until the user types another value there. */
function DetailsForm({ playlist, organizationId, refused }: { playlist: Playlist; organizationId: string; refused: readonly NeedsAttentionEntry[] }) {
  // A new baseline only when one of the form's four fields changes, not on every sync of the row
  // (a new baseline would reset what the user is typing).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the four fields are what playlistFormValues reads
  const baseline = useMemo(() => playlistFormValues(playlist), [playlist.Title, playlist.Slug, playlist.Description, playlist.Visibility]);
  const form = useEditState(baseline);
  const [errors, setErrors] = useState<PlaylistFormErrors>({});
  useUnsavedGuard('form', form.dirty);
  const notes: FieldNotes = {};
  for (const item of refused) {
    const tried = refusedFields(item);
    for (const fe of item.errors) {
      if (isFormField(fe.Field) && !(fe.Field in form.changed)) {
        const value = tried[fe.Field];
        notes[fe.Field] = {
          error: refusedFieldText(fe, 'playlists'),
          hint: typeof value === 'string' && value !== '' ? m.app_clip_refused_value({ value }) : m.app_clip_refused_value_empty(),
        };
      }
    }
  }
  const apply = async () => {
    const found = await playlistFormErrors(form.changed, { organizationId, selfId: playlist.Id, savedSlug: playlist.Slug });
    setErrors(found);
    if (Object.keys(found).length > 0) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    if (!(await withLoading(savedLocally(updatePlaylist(playlist.Id, playlistPatch(form.changed)))))) return;
    // A refused change whose every field this one sets again is answered by it.
    for (const item of refused) {
      const fields = [...Object.keys(refusedFields(item)), ...item.errors.map((fe) => fe.Field)];
      if (fields.length > 0 && fields.every((f) => f in form.changed)) void savedLocally(dismissNeedsAttention(item.id));
    }
    form.reset();
    showSavedToast(m.app_form_saved());
  };
  return (
    <form
      className="card form"
      noValidate
      aria-labelledby="playlist-details"
      onSubmit={(e) => {
        e.preventDefault();
        void apply();
      }}
    >
      <h2 id="playlist-details">{m.playlists_details()}</h2>
      <PlaylistFields
        values={form.values}
        errors={errors}
        notes={notes}
        onChange={(k, value) => {
          form.set(k, value);
          if (errors[k] !== undefined) setErrors(({ [k]: _gone, ...rest }) => rest);
        }}
      />
      {form.dirty && (
        <div className="form-actions">
          <button type="button" className="button" onClick={form.reset}>{m.app_form_reset()}</button>
          <button type="submit" className="button primary">{m.app_form_apply()}</button>
        </div>
      )}
    </form>
  );
}
