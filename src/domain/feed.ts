// Which clips a playlist's feed lists, and in what order (sections 3 and 4): the one rule the feed
// builder (sync-server/feeds), the member feeds and any screen that previews a feed share.
//
//   clip ──deleted?──────────────────────────────> not listed
//        ──State not Ready / Warning?─────────────> not listed (nothing to play yet)
//        ──PublishState not Published?────────────> not listed (Publishing, Unpublishing pending)
//        ──waiting on a scheduled visibility?─────> not listed until VisibleAtUtc
//        ──visibility: Public ────────────────────> listed
//                      Restricted ────────────────> listed in member feeds only
//                      Unlisted, Private ─────────> never listed (Unlisted is reachable by link)
//
// Scheduled visibility: ScheduledVisibility replaces Visibility at VisibleAtUtc (a durable job
// writes it then). Once VisibleAtUtc has passed, the feed reads the scheduled value at once, so a
// feed never waits for the job. Before it, a clip whose scheduled visibility is one this feed
// lists is waiting (a scheduled publication): not listed, whatever Visibility says now. A clip
// scheduled to leave the feed later (Public now, Private at VisibleAtUtc) stays listed until then.
//
// Order: the playlist's ClipIds order. The playlist screen always shows and reorders a playlist by
// hand (there is no other order to fall back to), so the feed lists exactly that order; feed drops
// (clips of another program dropped into the feed) are not the playlist's own and follow its
// clips, newest drop first.
import type { Visibility } from './clip.ts';

/** The clip fields the rule reads (the wire's Clip row is assignable). */
export type FeedClipFields = {
  Deleted?: boolean | null | undefined;
  State: string;
  PublishState?: string | null | undefined;
  Visibility: string;
  ScheduledVisibility?: string | null | undefined;
  VisibleAtUtc?: string | null | undefined;
};

export type FeedOptions = {
  /** The time the feed is made at. */
  now: Date;
  /** A member's private feed: Restricted clips are listed too. */
  member?: boolean | undefined;
  /** Reachable by link rather than listed (a show page, a clip's chapters): Unlisted clips too. */
  unlisted?: boolean | undefined;
};

const PLAYABLE_STATES: ReadonlySet<string> = new Set(['Ready', 'Warning']);

/** Whether a feed lists clips of this visibility: Public always, Restricted in member feeds. */
export function feedListsVisibility(visibility: string | null | undefined, options: Pick<FeedOptions, 'member' | 'unlisted'> = {}): boolean {
  if (visibility === ('Public' satisfies Visibility)) return true;
  if (visibility === ('Restricted' satisfies Visibility)) return options.member === true;
  return visibility === ('Unlisted' satisfies Visibility) && options.unlisted === true;
}

/** The visibility a clip has at `now`: its scheduled one once VisibleAtUtc has passed. */
export function visibilityAt(clip: FeedClipFields, now: Date): { visibility: string; waitingFor: string | null } {
  const scheduled = clip.ScheduledVisibility ?? null;
  const at = clip.VisibleAtUtc ? Date.parse(clip.VisibleAtUtc) : Number.NaN;
  if (scheduled === null || Number.isNaN(at)) return { visibility: clip.Visibility, waitingFor: null };
  if (at <= now.getTime()) return { visibility: scheduled, waitingFor: null };
  return { visibility: clip.Visibility, waitingFor: scheduled };
}

/** Whether a playlist's feed lists the clip at `options.now` (see the header). */
export function feedIncludes(clip: FeedClipFields, options: FeedOptions): boolean {
  if (clip.Deleted === true) return false;
  if (!PLAYABLE_STATES.has(clip.State)) return false;
  if (clip.PublishState !== 'Published') return false;
  const { visibility, waitingFor } = visibilityAt(clip, options.now);
  if (waitingFor !== null && feedListsVisibility(waitingFor, options)) return false;
  return feedListsVisibility(visibility, options);
}

/** Whether a playlist serves a public feed at all: Public and Unlisted playlists do (an Unlisted
 * feed asks directories not to list it); a Private or Restricted one answers as if absent. */
export function playlistHasPublicFeed(playlist: { Deleted?: boolean | null | undefined; Visibility: string }): boolean {
  return playlist.Deleted !== true && (playlist.Visibility === 'Public' || playlist.Visibility === 'Unlisted');
}

/**
 * The feed's items in order: the playlist's own clips in ClipIds order (ids it does not list, or
 * clips the feed does not include, left out), then its drops newest first.
 */
export function feedOrder<C, D extends { at: number }>(clipIds: readonly string[], clips: ReadonlyMap<string, C>, drops: readonly D[]): { clips: C[]; drops: D[] } {
  const seen = new Set<string>();
  const ordered: C[] = [];
  for (const id of clipIds) {
    const clip = clips.get(id);
    if (clip && !seen.has(id)) {
      seen.add(id);
      ordered.push(clip);
    }
  }
  return { clips: ordered, drops: [...drops].sort((a, b) => b.at - a.at) };
}

/** The MIME type of a published media file, by its extension (Apple's supported types first). */
export function enclosureType(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return ENCLOSURE_TYPES[ext] ?? 'audio/mpeg';
}

const ENCLOSURE_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/x-m4a',
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  aac: 'audio/aac',
  wav: 'audio/wav',
  flac: 'audio/flac',
  aif: 'audio/aiff',
  aiff: 'audio/aiff',
  ogg: 'audio/ogg',
  opus: 'audio/opus',
};

/** A transcript's MIME type by extension (the Podcasting 2.0 <podcast:transcript> types). */
export function transcriptType(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return { vtt: 'text/vtt', srt: 'application/x-subrip', json: 'application/json', html: 'text/html', txt: 'text/plain' }[ext] ?? 'text/plain';
}

/**
 * The text a feed's podcast:guid is made from (Podcasting 2.0, <podcast:guid>): the feed URL with
 * its scheme ("https://") and trailing slashes removed.
 */
export function podcastGuidName(feedUrl: string): string {
  return feedUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '');
}

/** The Podcasting 2.0 namespace's own UUID, under which podcast:guid is a UUIDv5. */
export const PODCAST_GUID_NAMESPACE = 'ead4c236-bf58-58c6-a2c6-a6b28d128cb6';
