// The playlist's feed on its screen: the public feed address (derived from the playlist's Id, so it
// is shown and copied offline too, before the playlist has ever synced) with a Copy button, or,
// for a playlist whose visibility gives it no public feed, why there is none instead of a link
// that would answer 404.
import { useRef } from 'react';
import { playlistHasPublicFeed } from '../../domain/feed.ts';
import { absoluteUrl, publicPaths } from '../../domain/public-urls.ts';
import { m } from '../../paraglide/messages.js';
import { showToast } from '../../lib/toast.ts';
import { copyText } from '../../lib/clipboard.ts';

/** What the playlist's visibility means for its feed (src/domain/feed.ts): Public and Unlisted
 * playlists serve a public one; Private and Restricted ones do not (a Restricted playlist reaches
 * members through their own private feeds). */
function feedKind(visibility: string): 'public' | 'unlisted' | 'private' | 'restricted' {
  if (!playlistHasPublicFeed({ Visibility: visibility })) return visibility === 'Restricted' ? 'restricted' : 'private';
  return visibility === 'Unlisted' ? 'unlisted' : 'public';
}

export function FeedCard({ playlistId, visibility }: { playlistId: string; visibility: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const kind = feedKind(visibility);
  const url = absoluteUrl(publicPaths.feed(playlistId), location.origin);
  const copy = async () => {
    const done = await copyText(url, inputRef.current);
    showToast(done ? { type: 'success', title: m.playlists_copied() } : { type: 'danger', title: m.playlists_copy_failed() });
  };
  return (
    <section className="card" aria-labelledby="playlist-feed">
      <h2 id="playlist-feed">{m.playlists_feed()}</h2>
      {kind === 'private' || kind === 'restricted' ? (
        <p className="muted">{kind === 'private' ? m.playlists_feed_private() : m.playlists_feed_restricted()}</p>
      ) : (
        <>
          <label className="field-label" htmlFor="playlist-feed-url">{m.playlists_feed_url()}</label>
          <div className="copy-row">
            <input id="playlist-feed-url" ref={inputRef} readOnly value={url} aria-describedby="playlist-feed-hint" onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="button" onClick={() => void copy()}>{m.playlists_copy()}</button>
          </div>
          <p id="playlist-feed-hint" className="field-hint">{kind === 'public' ? m.playlists_feed_public_hint() : m.playlists_feed_unlisted_hint()}</p>
        </>
      )}
    </section>
  );
}
