// The playlist's directories (src/domain/directories.ts): per directory, what the studio recorded
// (from the playlist's row on this device, so a submission marked offline shows at once and is
// sent with playlist.setDirectories when online), what the directory asks of the feed (the
// server's checklist, read online: the artwork's size is known only there) with a link to where
// each missing thing is fixed, and the actions: copy the feed address, open the directory's site
// (the studio never calls it), mark submitted, paste the listing address, mark removed.
import { useEffect, useId, useRef, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { DIRECTORIES, directoriesOf, directoryState, listingUrlError, markRemoved, markSubmitted, type Directory, type DirectoryFix, type DirectoryState } from '../../domain/directories.ts';
import { playlistHasPublicFeed } from '../../domain/feed.ts';
import { formatFormError } from '../../domain/messages.ts';
import { absoluteUrl, publicPaths } from '../../domain/public-urls.ts';
import * as routes from '../../protocol/api/directories.ts';
import type { Playlist } from '../../protocol/entities.ts';
import { setPlaylistDirectories } from '../../db/writes.ts';
import { call } from '../../lib/api.ts';
import { copyText } from '../../lib/clipboard.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { useSession } from '../../lib/session.ts';
import { showSavedToast, showToast } from '../../lib/toast.ts';
import { Link } from '../../lib/router.ts';
import './directories.css';

type Checks = { kind: 'loading' } | { kind: 'failed' } | { kind: 'offline' } | { kind: 'ready'; data: routes.PlaylistDirectories };

const STATE_TEXT: Record<DirectoryState, () => string> = {
  NotSubmitted: m.directories_state_not_submitted,
  Submitted: m.directories_state_submitted,
  Listed: m.directories_state_listed,
  Removed: m.directories_state_removed,
};

const CHECK_TEXT: Record<string, () => string> = {
  PublicFeed: m.directories_check_public_feed,
  Description: m.directories_check_description,
  Artwork: m.directories_check_artwork,
  Category: m.directories_check_category,
  Language: m.directories_check_language,
  Explicit: m.directories_check_explicit,
  OwnerEmail: m.directories_check_owner_email,
  PublishedEpisode: m.directories_check_published_episode,
};

const FIX_TEXT: Record<DirectoryFix, () => string> = {
  Playlist: m.directories_fix_playlist,
  PlaylistArtwork: m.directories_fix_playlist_artwork,
  ProgramPodcast: m.directories_fix_program_podcast,
  PlaylistClips: m.directories_fix_playlist_clips,
};

/** The server's checklist of the playlist, read again when the playlist changes (online only). */
function useChecks(playlistId: string, version: string, online: boolean): Checks | null {
  const [checks, setChecks] = useState<Checks>({ kind: 'loading' });
  useEffect(() => {
    if (!online) return;
    const controller = new AbortController();
    void call(routes.getDirectories, { params: { playlistId }, signal: controller.signal }).then((res) => {
      if (controller.signal.aborted) return;
      // A call that never reached the server: offline, whatever the browser says.
      setChecks(res.kind === 'ok' ? { kind: 'ready', data: res.data } : res.kind === 'error' ? { kind: 'offline' } : { kind: 'failed' });
    });
    return () => controller.abort();
  }, [playlistId, version, online]);
  return online ? checks : null;
}

export function DirectoriesCard({ playlist, organizationId, programId, mayChange }: { playlist: Playlist; organizationId: string; programId: string; mayChange: boolean }) {
  const online = useOnline();
  const checks = useChecks(playlist.Id, playlist.ModifiedAtUtc, online);
  const feedRef = useRef<HTMLInputElement>(null);
  const hasFeed = playlistHasPublicFeed({ Visibility: playlist.Visibility });
  const feedUrl = absoluteUrl(publicPaths.feed(playlist.Id), location.origin);
  const copy = async () => {
    const done = await copyText(feedUrl, feedRef.current);
    showToast(done ? { type: 'success', title: m.directories_copied() } : { type: 'danger', title: m.directories_copy_failed() });
  };
  const fixHref = (fix: DirectoryFix) => (fix === 'ProgramPodcast' ? `/${organizationId}/programs/${programId}/settings#podcast-settings` : fix === 'PlaylistClips' ? '#playlist-clips' : '#playlist-details');
  return (
    <section className="card" aria-labelledby="playlist-directories">
      <h2 id="playlist-directories">{m.directories_title()}</h2>
      <p className="muted">{m.directories_intro()}</p>
      {!mayChange && <p className="muted">{m.directories_no_access()}</p>}
      {hasFeed ? (
        <>
          <label className="field-label" htmlFor="directories-feed-url">{m.directories_feed_url()}</label>
          <div className="copy-row">
            <input id="directories-feed-url" ref={feedRef} readOnly value={feedUrl} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="button" onClick={() => void copy()}>{m.directories_copy()}</button>
          </div>
        </>
      ) : (
        <p className="alert alert-info">{m.directories_no_public_feed()}</p>
      )}
      {(checks === null || checks.kind === 'offline') && <p className="muted" role="status">{m.directories_checklist_offline()}</p>}
      {checks?.kind === 'failed' && <p className="alert alert-warning" role="alert">{m.directories_checklist_failed()}</p>}
      <ul className="directory-list">
        {DIRECTORIES.map((d) => (
          <DirectoryRow key={d.id} directory={d} playlist={playlist} mayChange={mayChange} listing={checks?.kind === 'ready' ? checks.data.Items.find((i) => i.Directory === d.id) : undefined} fixHref={fixHref} />
        ))}
      </ul>
    </section>
  );
}

function DirectoryRow({ directory, playlist, mayChange, listing, fixHref }: { directory: Directory; playlist: Playlist; mayChange: boolean; listing: routes.PlaylistDirectories['Items'][number] | undefined; fixHref: (fix: DirectoryFix) => string }) {
  const record = directoriesOf(playlist);
  const own = record[directory.id];
  const state = directoryState(own);
  const userId = useSession()?.session?.User?.Id ?? null;
  const [url, setUrl] = useState(own?.ListingUrl ?? '');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setUrl(own?.ListingUrl ?? ''), [own?.ListingUrl]);
  const inputId = useId();
  const headingId = useId();
  const write = async (next: ReturnType<typeof markSubmitted>) => {
    if (await savedLocally(setPlaylistDirectories(playlist.Id, next))) showSavedToast(m.directories_saved());
  };
  const submit = () => void write(markSubmitted(record, directory.id, { at: new Date().toISOString(), userId }));
  const saveUrl = () => {
    const problem = listingUrlError(directory.id, url);
    if (problem) {
      setError(problem.reason === 'directoryHost' ? m.directories_listing_url_host({ hosts: directory.listingHosts.slice(0, 2).join(', ') }) : formatFormError(problem));
      document.getElementById(inputId)?.focus();
      return;
    }
    setError(null);
    void write(markSubmitted(record, directory.id, { at: new Date().toISOString(), userId, listingUrl: url }));
  };
  const remove = () => void write(markRemoved(record, directory.id, { at: new Date().toISOString(), userId }));
  const live = state === 'Submitted' || state === 'Listed';
  const missing = listing?.Checklist.filter((c) => !c.Ok) ?? [];
  return (
    <li className="directory" aria-labelledby={headingId}>
      <div className="card-heading">
        <h3 id={headingId}>{directory.name}</h3>
        <span className={`pill ${state === 'Listed' ? 'pill-ready' : state === 'Submitted' ? 'pill-pending' : state === 'Removed' ? 'pill-error' : 'pill-draft'}`}>{STATE_TEXT[state]()}</span>
      </div>
      {own?.SubmittedAtUtc && live && <p className="muted">{m.directories_submitted_on({ date: formatDateTime(own.SubmittedAtUtc) })}</p>}
      {own?.RemovedAtUtc && state === 'Removed' && <p className="muted">{m.directories_removed_on({ date: formatDateTime(own.RemovedAtUtc) })}</p>}
      {state === 'Listed' && own?.ListingUrl && (
        <p>
          <a href={own.ListingUrl} target="_blank" rel="noopener noreferrer">{own.ListingUrl}</a>
        </p>
      )}
      {listing && (
        <details className="directory-checklist">
          <summary>
            {m.directories_checklist({ name: directory.name })}: {listing.Ready ? m.directories_ready() : m.directories_missing_count({ count: missing.length })}
          </summary>
          <ul>
            {listing.Checklist.map((c) => (
              <li key={c.Check} className={c.Ok ? 'check-ok' : 'check-missing'}>
                <span aria-hidden="true">{c.Ok ? '✓ ' : '✗ '}</span>
                <span className="visually-hidden">{c.Ok ? m.directories_ok() : m.directories_missing()}: </span>
                {CHECK_TEXT[c.Check]!()}
                {c.Value !== null && c.Check !== 'PublicFeed' && <span className="muted"> ({m.directories_value({ value: c.Check === 'Explicit' ? (c.Value === 'true' ? m.directories_yes() : m.directories_no()) : c.Value })})</span>}
                {!c.Ok && (
                  <>
                    {' '}
                    {c.FixAt === 'ProgramPodcast' ? <Link href={fixHref(c.FixAt)}>{FIX_TEXT[c.FixAt]()}</Link> : <a href={fixHref(c.FixAt)}>{FIX_TEXT[c.FixAt]()}</a>}
                  </>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
      {!live && (
        <p className="field-hint">
          {m.directories_howto({ name: directory.name })}{' '}
          <a href={directory.submitUrl} target="_blank" rel="noopener noreferrer">{m.directories_open({ name: directory.name })}</a>
        </p>
      )}
      <fieldset className="plain-fieldset" disabled={!mayChange}>
        {live ? (
          <>
            <label className="field-label" htmlFor={inputId}>{m.directories_listing_url({ name: directory.name })}</label>
            <div className="copy-row">
              <input
                id={inputId}
                type="url"
                inputMode="url"
                value={url}
                placeholder={`https://${directory.listingHosts[0]}/…`}
                aria-invalid={error !== null}
                aria-describedby={`${inputId}-hint`}
                onChange={(e) => setUrl(e.target.value)}
              />
              <button type="button" className="button" onClick={saveUrl} disabled={url.trim() === (own?.ListingUrl ?? '')}>{m.directories_save_listing()}</button>
            </div>
            <p id={`${inputId}-hint`} className={error ? 'field-error' : 'field-hint'} role={error ? 'alert' : undefined}>{error ?? m.directories_listing_url_hint()}</p>
            <div className="form-actions">
              <button type="button" className="button danger-outline" onClick={remove}>{m.directories_remove()}</button>
            </div>
          </>
        ) : (
          <div className="form-actions">
            <button type="button" className="button primary" onClick={submit}>{m.directories_mark_submitted()}</button>
          </div>
        )}
      </fieldset>
    </li>
  );
}
