// What a user agent says to the counting job (counting.ts): a bot (never counted), or a listener's
// app or player, device type and OS (the dimensions of counted_downloads, 0460).
//
// Bots: `isbot` (npm, Unlicense, kept up to date by its maintainers) plus the podcast-specific
// crawlers below, which it does not all know. isbot also matches some real podcast apps (anything
// with "+http://" in it, as Overcast says), so a known app (PODCAST_APPS) is a listener unless it
// is one of the podcast crawlers.
//
// Apps: no maintained list of podcast app user agents ships in a registry package; PODCAST_APPS is
// a small table after the Open Podcast Analytics Working Group's list (OPAWG, user-agents-v2 on
// GitHub, src/apps.json), most used apps first. Device type and OS: `ua-parser-js` 1.x (MIT; 2.x is
// AGPL), with the app's own device where the app says it (smart speakers, watches, cars).
import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';

export type AgentFacts = {
  /** Not a listener: a bot or crawler, or a pre-download the guidelines ask to filter. */
  excluded: boolean;
  app: string;
  device: string;
  os: string;
};

/**
 * Podcast crawlers and feed fetchers that fetch episodes without a listener. Sources: OPAWG
 * user-agents-v2 src/bots.json, and the hosts' own documentation of their fetchers.
 */
const PODCAST_CRAWLERS: RegExp[] = [
  /^Spotify\/1\.0$/, // Spotify's ingestion (the app says Spotify/<version> <platform>/…)
  /^iTMS$/, // Apple Podcasts' directory checks
  /Overcast\/1\.0 Podcast Sync/, // Overcast's server fetcher (the app says Overcast/3.0)
  /Podbean\/FeedUpdate/,
  /PodcastIndex|podcastindex\.org/i,
  /Podchaser|ListenNotes|Listen Notes|Podnews|Podscribe|Chartable|Podroll|PodcastRepublicBot|Castopod-Bot|Podkite/i,
  /Googlebot-Video|Google-Podcast/,
  /^Amazon Music Podcast$/,
];

/**
 * Apple Watch pre-download (IAB v2.1 onwards: "filtering guidance for Apple watchOS user
 * agents"): the Podcasts app on the watch fetches episodes the paired phone also fetches, so one
 * listener appears as two. As we read the guidance, the watch's own fetcher (`atc/… watchOS/…`) is
 * the one to filter; a player on the watch streaming through AppleCoreMedia is a listener.
 */
const APPLE_WATCH_PRE_DOWNLOAD = /^atc\/.*watchOS\//;

type App = { pattern: RegExp; name: string; device?: string };

/** Podcast apps and players (after OPAWG src/apps.json). First match wins. */
const PODCAST_APPS: App[] = [
  { pattern: /^(Podcasts|Balados|Podcasti|Podcast)\/\d|^iTunes\/|^atc\/|AppleCoreMedia\/|com\.apple\.podcasts/, name: 'Apple Podcasts' },
  { pattern: /Spotify\//, name: 'Spotify' },
  { pattern: /^Overcast\//, name: 'Overcast' },
  { pattern: /Pocket ?Casts/i, name: 'Pocket Casts' },
  { pattern: /PodcastAddict/, name: 'Podcast Addict' },
  { pattern: /CastBox/i, name: 'Castbox' },
  { pattern: /^Castro /, name: 'Castro' },
  { pattern: /AntennaPod/, name: 'AntennaPod' },
  { pattern: /Podbean\//, name: 'Podbean' },
  { pattern: /Podcast ?Republic/i, name: 'Podcast Republic' },
  { pattern: /Player ?FM/i, name: 'Player FM' },
  { pattern: /Stitcher/, name: 'Stitcher' },
  { pattern: /iHeartRadio/, name: 'iHeartRadio' },
  { pattern: /Deezer/, name: 'Deezer' },
  { pattern: /AmazonMusic|Amazon Music/, name: 'Amazon Music' },
  { pattern: /Audible/, name: 'Audible' },
  { pattern: /YouTubeMusic|youtube\.music/, name: 'YouTube Music' },
  { pattern: /Fountain/, name: 'Fountain' },
  { pattern: /Podverse/, name: 'Podverse' },
  { pattern: /Goodpods/, name: 'Goodpods' },
  { pattern: /AlexaMediaPlayer|Alexa|Echo\//, name: 'Alexa', device: 'Smart speaker' },
  { pattern: /Sonos/, name: 'Sonos', device: 'Smart speaker' },
  { pattern: /CarPlay/, name: 'Apple Podcasts', device: 'Car' },
  { pattern: /Android ?Auto/, name: 'Android Auto', device: 'Car' },
];

const DEVICE: Record<string, string> = {
  mobile: 'Mobile',
  tablet: 'Tablet',
  wearable: 'Watch',
  smarttv: 'TV',
  console: 'TV',
  embedded: 'Smart speaker',
};

const OS_NAMES: Record<string, string> = { 'Mac OS': 'macOS', 'Chromium OS': 'ChromeOS' };
const DESKTOP_OS = new Set(['Windows', 'macOS', 'Linux', 'Ubuntu', 'Debian', 'Fedora', 'ChromeOS']);

/** The facts of one user agent (the job keeps them by user agent: a run sees few distinct ones). */
export function agentFacts(userAgent: string | null): AgentFacts {
  const ua = (userAgent ?? '').trim();
  if (ua === '') return { excluded: false, app: 'Unknown', device: 'Unknown', os: 'Unknown' };
  const crawler = PODCAST_CRAWLERS.some((p) => p.test(ua));
  const app = PODCAST_APPS.find((a) => a.pattern.test(ua));
  const excluded = crawler || APPLE_WATCH_PRE_DOWNLOAD.test(ua) || (!app && isbot(ua));
  const parsed = new UAParser(ua).getResult();
  let os = parsed.os.name ? (OS_NAMES[parsed.os.name] ?? parsed.os.name) : 'Unknown';
  // Apple's frameworks without a platform token (Podcasts/… CFNetwork/… Darwin/…): an iPhone or iPad.
  if (os === 'Unknown' && (/CFNetwork\/.*Darwin\//.test(ua) || /\biOS\b/.test(ua))) os = 'iOS';
  let device = app?.device ?? (parsed.device.type ? (DEVICE[parsed.device.type] ?? 'Unknown') : 'Unknown');
  if (device === 'Unknown') {
    if (os === 'watchOS') device = 'Watch';
    else if (os === 'iOS' || os === 'Android') device = /iPad|Tablet/.test(ua) ? 'Tablet' : 'Mobile';
    else if (DESKTOP_OS.has(os)) device = 'Desktop';
  }
  const name = app?.name ?? (parsed.browser.name ? 'Web browser' : 'Unknown');
  return { excluded, app: name, device, os };
}
