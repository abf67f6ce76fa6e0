// Where the studio publishes things for listeners: feeds, public audio, show pages, the embed
// player and artwork. One place for every public path, used by the server (which writes them into
// rows and serves them) and by screens (which show and copy them).
//
// Rows hold site-relative paths ("/feeds/…"), never an origin: the same store is served on
// whatever host and port the studio runs on (a test's random port, several instances behind one
// name). Whatever leaves the studio for another program (a feed's enclosure, an OpenGraph tag, the
// copy button on the playlist screen) is made absolute with `absoluteUrl`, against the configured
// public origin (PUBLIC_URL) or the origin the request arrived on.

/** Program slugs are unique per organization only (section 5), so public paths name a program by
 * its id; a clip's slug is unique in its program and reads well in a show page's address. */
export const publicPaths = {
  /** The RSS feed of a playlist (one feed per playlist). */
  feed: (playlistId: string) => `/feeds/${playlistId}.xml`,
  /** A member's private feed of a playlist; the token is the member's, revocable. */
  memberFeed: (playlistId: string, token: string) => `/feeds/${playlistId}/members/${token}.xml`,
  /** A published clip's chapters as Podcasting 2.0 JSON chapters (its feed items' podcast:chapters). */
  chapters: (clipId: string) => `/feeds/chapters/${clipId}.json`,
  /** A published clip's transcript (its feed items' podcast:transcript): vtt, srt or json. */
  transcript: (clipId: string, ext: 'vtt' | 'srt' | 'json') => `/feeds/transcripts/${clipId}.${ext}`,
  /** The published audio of a clip; `ext` is the published file's extension (mp3, m4a, …). */
  audio: (clipId: string, ext: string) => `/audio/${clipId}.${ext}`,
  /** The same audio without ad insertions (MemberDownloadsAdFree). */
  audioAdFree: (clipId: string, ext: string) => `/audio/${clipId}/ad-free.${ext}`,
  /** The player small enough for an iframe. */
  embed: (clipId: string) => `/embed/${clipId}`,
  /** The show page of a program, and of one of its clips. */
  programPage: (programId: string) => `/shows/${programId}`,
  clipPage: (programId: string, clipSlug: string) => `/shows/${programId}/${clipSlug}`,
  /** Artwork of a network, program, playlist or clip, or a user's picture; `version` changes with every new image so
   * caches never hold an old one. Sizes are asked for with `imageUrlForSize` (src/domain/image.ts). */
  image: (kind: 'network' | 'program' | 'playlist' | 'clip' | 'user', id: string, version: string) => `/images/${kind}/${id}/${version}`,
} as const;

/** Path prefixes served publicly (no session), so the SPA fallback and the service worker leave them alone. */
export const PUBLIC_PREFIXES = ['/feeds/', '/audio/', '/embed/', '/shows/', '/images/'] as const;

/** A row's site-relative path made absolute against an origin ("https://listen.example.com").
 * Values that are already absolute (an RssLinkOverride, an imported URL) are returned as they are. */
export function absoluteUrl(pathOrUrl: string, origin: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) return pathOrUrl;
  return new URL(pathOrUrl, origin.endsWith('/') ? origin : `${origin}/`).toString();
}
