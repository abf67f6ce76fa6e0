// Where a playlist's public feed is listed (issue 33, "playlist … directories"; specification
// section 7 GET /internal/playlists/{playlistId}/directories, POST and DELETE …/{directory}). The
// studio never talks to a directory: the user submits the feed URL at the directory's own site,
// and records here what happened there. Rules shared by the playlist screen and the server.
//
//   NotSubmitted ──mark submitted──> Submitted ──paste listing URL──> Listed
//        ▲                              │                              │
//        └──────────── (never) ◄──      └────────remove───────┬────────┘
//                                                              ▼
//                                      Removed ──mark submitted again──> Submitted
//
// The submissions are kept on the playlist's row (Playlist.Directories, one record by directory)
// and written through the named mutation playlist.setDirectories, so they are edited offline and a
// concurrent edit of them is a conflict shown on the field Directories, like any field of the row.
//
// What a directory needs before a feed is submitted is read from the studio's own data by the
// rules that make the feed (feed.ts, program-rules.ts): nothing here re-states them.
import { applePremiumDeliveryErrors, type ApplePremiumValues } from './apple-premium.ts';
import { feedIncludes, playlistHasPublicFeed, type FeedClipFields } from './feed.ts';
import { formError, type FormError } from './form-errors.ts';
import { programPodcast } from './program-rules.ts';
import { validateEmail, validateUrl } from './validators.ts';

export const DIRECTORY_IDS = ['apple-podcasts', 'spotify', 'amazon-music', 'youtube-music', 'pocket-casts', 'podcast-index'] as const;
export type DirectoryId = (typeof DIRECTORY_IDS)[number];

export const isDirectoryId = (value: string): value is DirectoryId => (DIRECTORY_IDS as readonly string[]).includes(value);

/** What the studio can check of a feed before it is submitted. */
export const DIRECTORY_CHECKS = ['PublicFeed', 'Description', 'Artwork', 'Category', 'Language', 'Explicit', 'OwnerEmail', 'PublishedEpisode'] as const;
export type DirectoryCheck = (typeof DIRECTORY_CHECKS)[number];

/** Where in the studio a check is put right. */
export type DirectoryFix = 'Playlist' | 'PlaylistArtwork' | 'ProgramPodcast' | 'PlaylistClips';

const FIX_AT: Record<DirectoryCheck, DirectoryFix> = {
  PublicFeed: 'Playlist',
  Description: 'Playlist',
  Artwork: 'PlaylistArtwork',
  Category: 'ProgramPodcast',
  Language: 'ProgramPodcast',
  Explicit: 'ProgramPodcast',
  OwnerEmail: 'ProgramPodcast',
  PublishedEpisode: 'PlaylistClips',
};

export type Directory = {
  id: DirectoryId;
  /** The directory's name (a brand: not translated). */
  name: string;
  /** Where the user submits the feed (the directory's own site, opened in a new tab). */
  submitUrl: string;
  /** Host names a listing URL of the directory has (the address of the show there). */
  listingHosts: readonly string[];
  /** What the directory refuses a feed without. */
  needs: readonly DirectoryCheck[];
};

/**
 * The directories the studio keeps a record for, each with what it asks of a feed: Apple and
 * Spotify review a show by hand and refuse one without artwork, category, language, an owner they
 * can verify by e-mail or an episode; Amazon and YouTube import an RSS feed and verify its owner
 * by the e-mail address in it; Pocket Casts and Podcast Index take any public feed with an episode.
 */
export const DIRECTORIES: readonly Directory[] = [
  {
    id: 'apple-podcasts',
    name: 'Apple Podcasts',
    submitUrl: 'https://podcastsconnect.apple.com/',
    listingHosts: ['podcasts.apple.com', 'itunes.apple.com'],
    needs: ['PublicFeed', 'Description', 'Artwork', 'Category', 'Language', 'Explicit', 'OwnerEmail', 'PublishedEpisode'],
  },
  {
    id: 'spotify',
    name: 'Spotify',
    submitUrl: 'https://creators.spotify.com/',
    listingHosts: ['open.spotify.com', 'spotify.com'],
    needs: ['PublicFeed', 'Description', 'Artwork', 'Category', 'Language', 'OwnerEmail', 'PublishedEpisode'],
  },
  {
    id: 'amazon-music',
    name: 'Amazon Music',
    submitUrl: 'https://podcasters.amazon.com/',
    listingHosts: ['music.amazon.com', 'music.amazon.de', 'music.amazon.co.uk', 'music.amazon.fr', 'music.amazon.it', 'music.amazon.es', 'music.amazon.com.br', 'music.amazon.com.mx', 'music.amazon.ca'],
    needs: ['PublicFeed', 'Artwork', 'Category', 'Language', 'OwnerEmail', 'PublishedEpisode'],
  },
  {
    id: 'youtube-music',
    name: 'YouTube Music',
    submitUrl: 'https://studio.youtube.com/',
    listingHosts: ['music.youtube.com', 'www.youtube.com', 'youtube.com'],
    needs: ['PublicFeed', 'Artwork', 'OwnerEmail', 'PublishedEpisode'],
  },
  {
    id: 'pocket-casts',
    name: 'Pocket Casts',
    submitUrl: 'https://pocketcasts.com/submit/',
    listingHosts: ['pca.st', 'pocketcasts.com', 'play.pocketcasts.com'],
    needs: ['PublicFeed', 'Artwork', 'PublishedEpisode'],
  },
  {
    id: 'podcast-index',
    name: 'Podcast Index',
    submitUrl: 'https://podcastindex.org/add',
    listingHosts: ['podcastindex.org'],
    needs: ['PublicFeed', 'PublishedEpisode'],
  },
];

export function directoryById(id: DirectoryId): Directory {
  const found = DIRECTORIES.find((d) => d.id === id);
  if (!found) throw new Error(`unknown directory ${id}`);
  return found;
}

/** Apple's artwork rule, which the others share or ask less than: square, 1400 to 3000 pixels. */
export const DIRECTORY_ARTWORK_MIN_PX = 1400;
export const DIRECTORY_ARTWORK_MAX_PX = 3000;

/** What the studio records of one directory (absent from the record: never submitted). */
export type DirectorySubmission = {
  SubmittedAtUtc: string | null;
  SubmittedById: string | null;
  /** The show's address at the directory, as the user pasted it. */
  ListingUrl: string | null;
  RemovedAtUtc: string | null;
  RemovedById: string | null;
};

export type DirectorySubmissions = Partial<Record<DirectoryId, DirectorySubmission>>;

export type DirectoryState = 'NotSubmitted' | 'Submitted' | 'Listed' | 'Removed';

export function directoryState(s: DirectorySubmission | null | undefined): DirectoryState {
  if (!s || s.SubmittedAtUtc === null) return 'NotSubmitted';
  if (s.RemovedAtUtc !== null) return 'Removed';
  return s.ListingUrl !== null ? 'Listed' : 'Submitted';
}

/** The record as a row holds it (rows made before directories have none). */
export function directoriesOf(row: Readonly<Record<string, unknown>>): DirectorySubmissions {
  const value = row['Directories'];
  return value !== null && typeof value === 'object' ? (value as DirectorySubmissions) : {};
}

const trimmedOrNull = (v: string | null | undefined) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/**
 * Marks the feed submitted to the directory (again, after a removal) at `at` by `userId`; the
 * listing URL given replaces the one kept (undefined: kept as it is). Submitted already and not
 * removed: the date stays the first one.
 */
export function markSubmitted(record: DirectorySubmissions, id: DirectoryId, change: { listingUrl?: string | null | undefined; at: string; userId: string | null }): DirectorySubmissions {
  const current = record[id];
  const live = current && directoryState(current) !== 'NotSubmitted' && directoryState(current) !== 'Removed';
  const listingUrl = change.listingUrl === undefined ? (live ? current.ListingUrl : null) : trimmedOrNull(change.listingUrl);
  const next: DirectorySubmission = live
    ? { ...current, ListingUrl: listingUrl }
    : { SubmittedAtUtc: change.at, SubmittedById: change.userId, ListingUrl: listingUrl, RemovedAtUtc: null, RemovedById: null };
  return { ...record, [id]: next };
}

/** Marks the show removed from the directory (what was recorded is kept beside it). Never
 * submitted, or removed already: as it is. */
export function markRemoved(record: DirectorySubmissions, id: DirectoryId, change: { at: string; userId: string | null }): DirectorySubmissions {
  const current = record[id];
  if (!current || directoryState(current) === 'NotSubmitted' || directoryState(current) === 'Removed') return record;
  return { ...record, [id]: { ...current, RemovedAtUtc: change.at, RemovedById: change.userId } };
}

/** A listing URL's problem: an http(s) address (section 5's URL rule) of the directory's own site. */
export function listingUrlError(id: DirectoryId, url: string | null | undefined): FormError | null {
  const text = trimmedOrNull(url);
  if (text === null) return null;
  const error = validateUrl(text, { schemes: ['https', 'http'] });
  if (error) return error;
  const host = new URL(text).hostname.toLowerCase();
  const hosts = directoryById(id).listingHosts;
  return hosts.some((h) => host === h || host.endsWith(`.${h}`)) ? null : formError('urlInvalid', 'domain_url_invalid', { hosts: hosts.join(', ') }, 'directoryHost');
}

/** Each problem of a whole record, at its field ('Directories.spotify.ListingUrl'). */
export function directoriesErrors(record: DirectorySubmissions): { field: string; error: FormError }[] {
  const errors: { field: string; error: FormError }[] = [];
  for (const [id, s] of Object.entries(record)) {
    if (!isDirectoryId(id)) {
      errors.push({ field: `Directories.${id}`, error: formError('invalid') });
      continue;
    }
    if (!s) continue;
    const error = listingUrlError(id, s.ListingUrl);
    if (error) errors.push({ field: `Directories.${id}.ListingUrl`, error });
    if (s.SubmittedAtUtc === null && (s.ListingUrl !== null || s.RemovedAtUtc !== null)) errors.push({ field: `Directories.${id}.SubmittedAtUtc`, error: formError('required') });
  }
  return errors;
}

/** What the checks read: the playlist, its program, the organization, the feed's artwork and
 * the playlist's clips. */
export type DirectoryFacts = {
  playlist: Readonly<Record<string, unknown>> & { Visibility: string };
  program: Readonly<Record<string, unknown>>;
  organization: Readonly<Record<string, unknown>> | null;
  /** The size of the feed's artwork (the playlist's, else the program's); null: none. */
  artwork: { width: number; height: number } | null;
  clips: readonly FeedClipFields[];
  now: Date;
};

export type DirectoryCheckResult = {
  Check: DirectoryCheck;
  Ok: boolean;
  /** What the feed says now (the language, the explicit flag, the artwork's size, the count of
   * episodes), for the screen to show beside the check. */
  Value: string | null;
  FixAt: DirectoryFix;
};

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** Every check, in DIRECTORY_CHECKS order, from the feed's own rules. */
export function directoryChecks(f: DirectoryFacts): DirectoryCheckResult[] {
  const podcast = programPodcast(f.program);
  const published = f.clips.filter((c) => feedIncludes(c, { now: f.now })).length;
  const art = f.artwork;
  const language = podcast.Language ?? text(f.organization?.['Language']);
  const results: Record<DirectoryCheck, { Ok: boolean; Value: string | null }> = {
    // Unlisted feeds ask directories not to list them (feed.ts): only a Public one may be submitted.
    PublicFeed: { Ok: playlistHasPublicFeed(f.playlist) && f.playlist.Visibility === 'Public', Value: f.playlist.Visibility },
    Description: { Ok: text(f.playlist['Description']) !== null || text(f.program['Description']) !== null, Value: null },
    Artwork: {
      Ok: art !== null && art.width === art.height && art.width >= DIRECTORY_ARTWORK_MIN_PX && art.width <= DIRECTORY_ARTWORK_MAX_PX,
      Value: art ? `${art.width}×${art.height}` : null,
    },
    Category: { Ok: podcast.Category !== null, Value: podcast.Category },
    Language: { Ok: language !== null, Value: language },
    // Always in the feed (itunes:explicit): shown so the user confirms it before a review does.
    Explicit: { Ok: true, Value: podcast.Explicit ? 'true' : 'false' },
    OwnerEmail: { Ok: validateEmail(podcast.OwnerEmail, { required: true }) === null, Value: podcast.OwnerEmail },
    PublishedEpisode: { Ok: published > 0, Value: String(published) },
  };
  return DIRECTORY_CHECKS.map((check) => ({ Check: check, ...results[check], FixAt: FIX_AT[check] }));
}

/** The checks a directory asks for, and whether all of them pass. */
export function directoryChecklist(id: DirectoryId, checks: readonly DirectoryCheckResult[]): { checklist: DirectoryCheckResult[]; ready: boolean } {
  const needs = directoryById(id).needs;
  const checklist = checks.filter((c) => needs.includes(c.Check));
  return { checklist, ready: checklist.every((c) => c.Ok) };
}

// ── Apple Podcasts Subscriptions, per playlist ──────────────────────────────────────────────
//
// A playlist is linked to the Apple Podcasts Subscriptions settings in effect for its program
// (apple-premium.ts: the program's own, else its network's, else the organization's). Linked, it
// is delivered when those settings let delivery happen; the resync asks that again.
//
//   NotLinked ──link──> Linked ──settings in effect stop allowing delivery──> SettingsIncomplete
//       ▲                 │ ▲                                                      │
//       └────unlink───────┘ └──────────────settings complete again (resync)───────┘

export type ApplePremiumLinkState = 'NotLinked' | 'Linked' | 'SettingsIncomplete';

/** The settings in effect that delivery lacks: Enabled off, no ProviderId, no ShowId. */
export function applePremiumMissing(effective: ApplePremiumValues): ('Enabled' | 'ProviderId' | 'ShowId')[] {
  const missing: ('Enabled' | 'ProviderId' | 'ShowId')[] = effective.Enabled === true ? [] : ['Enabled'];
  for (const e of applePremiumDeliveryErrors('Program', { ...effective, Enabled: true })) if (e.field === 'ProviderId' || e.field === 'ShowId') missing.push(e.field);
  return missing;
}

export function applePremiumLinkState(linked: boolean, effective: ApplePremiumValues): ApplePremiumLinkState {
  if (!linked) return 'NotLinked';
  return applePremiumMissing(effective).length === 0 ? 'Linked' : 'SettingsIncomplete';
}

/** A premium (Restricted) clip's linking state in the linking report. */
export type PremiumClipLinking = 'Delivered' | 'NotPublished' | 'PlaylistNotLinked' | 'SettingsIncomplete';

/** Whether a clip is premium: Restricted now, or scheduled to be (subscribers' episodes). */
export const isPremiumClip = (clip: FeedClipFields) => clip.Visibility === 'Restricted' || clip.ScheduledVisibility === 'Restricted';

/** Where a premium clip stands with Apple: delivered when the playlist is linked, the settings
 * allow delivery and subscribers' feeds list it now (feed.ts, as a member feed). */
export function premiumClipLinking(clip: FeedClipFields, link: ApplePremiumLinkState, now: Date): PremiumClipLinking {
  if (link === 'NotLinked') return 'PlaylistNotLinked';
  if (link === 'SettingsIncomplete') return 'SettingsIncomplete';
  return feedIncludes(clip, { now, member: true }) ? 'Delivered' : 'NotPublished';
}
