// Reading another host's feed: the Podcast Index's parser (podcast-partytime) turns the XML into
// a feed object; this maps it onto what the studio keeps: the program's podcast fields and, per
// episode, the clip's fields. podcast-partytime rather than rss-parser: it parses a string we
// fetched ourselves (rss-parser's own fetching would bypass the SSRF checks of net.ts), reads
// the iTunes tags (season, episode, episode type, explicit, owner, categories) and the
// Podcasting 2.0 namespace (podcast:chapters, podcast:guid, podcast:locked) without custom field
// lists, and is maintained by the Podcast Index.
import './parser-quiet.ts';
import { parseFeed, type Episode, type FeedObject } from 'podcast-partytime';
import { podcastGuid } from '../feeds/rss.ts';
import { DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, TITLE_MAX_LENGTH } from '../../src/domain/constants.ts';
import type { ClipPatch } from '../../src/protocol/entities.ts';
import type { Chapter } from '../../src/domain/chapters.ts';
import { validateUrl } from '../../src/domain/validators.ts';
import { LANGUAGES } from '../reference/languages.ts';
import { categorySlug, PODCAST_CATEGORIES } from '../reference/podcast-categories.ts';

export type FeedEpisode = {
  guid: string;
  title: string | null;
  audioUrl: string | null;
  audioType: string | null;
  artworkUrl: string | null;
  chaptersUrl: string | null;
  publishedUtc: string | null;
  /** The clip's editable fields from the item (Chapters are added once fetched). */
  fields: ClipPatch;
};

export type ImportedFeed = {
  title: string;
  /** The feed's own URL (atom:link rel=self, itunes:new-feed-url) or podcast:guid: what names
   * the same feed when its XML is uploaded. */
  selfKey: string | null;
  locked: boolean;
  /** The show's podcast:guid when the feed names one (a UUID), else the one of its own URL
   * (atom:link rel=self, itunes:new-feed-url), else null (the URL it was fetched from then). */
  podcastGuid: string | null;
  artworkUrl: string | null;
  /** The program's fields (Name, Description and the podcast fields). */
  program: Record<string, unknown>;
  episodes: FeedEpisode[];
};

const cut = (text: string | null | undefined, max: number): string | null => {
  const t = text?.trim();
  if (!t) return null;
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** HTML as plain text: paragraphs and breaks as new lines, tags dropped, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/\s*(p|div|li|h[1-6])\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
      }
      return ENTITIES[name.toLowerCase()] ?? all;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const looksLikeHtml = (text: string) => /<\/?[a-z][^>]*>/i.test(text);

const nonNegativeInt = (n: number | undefined): number | null => (n !== undefined && Number.isInteger(n) && n >= 0 && n <= 2147483647 ? n : null);

const EPISODE_TYPES = { full: 'Full', trailer: 'Trailer', bonus: 'Bonus' } as const;

function episodeOf(item: Episode): FeedEpisode | null {
  const audioUrl = item.enclosure?.url?.trim() || null;
  const guid = (item.guid?.trim() || audioUrl)?.slice(0, 1000);
  if (!guid) return null;
  const html = item.content?.trim() || item.description?.trim() || item.summary?.trim() || '';
  const text = looksLikeHtml(html) ? htmlToText(html) : html;
  const type = item.itunesEpisodeType ? EPISODE_TYPES[item.itunesEpisodeType as keyof typeof EPISODE_TYPES] : undefined;
  const title = cut(item.title, TITLE_MAX_LENGTH);
  const fields: ClipPatch = {
    Title: title,
    Description: cut(text, DESCRIPTION_MAX_LENGTH),
    DescriptionHtml: looksLikeHtml(html) ? cut(html, DESCRIPTION_MAX_LENGTH * 2) : null,
    Season: nonNegativeInt(item.itunesSeason ?? item.podcastSeason?.number),
    Episode: nonNegativeInt(item.itunesEpisode ?? item.podcastEpisode?.number),
    EpisodeType: type ?? null,
    ContentRating: item.explicit ? 'Explicit' : 'Clean',
    Tags: [...new Set((item.keywords ?? []).map((k) => k.trim()).filter((k) => k !== '' && k.length <= 100))].slice(0, 50),
  };
  const chapters = item.podcastChapters;
  return {
    guid,
    title,
    audioUrl,
    audioType: item.enclosure?.type ?? null,
    artworkUrl: item.itunesImage?.trim() || item.image?.trim() || null,
    chaptersUrl: chapters && /json/i.test(chapters.type) ? chapters.url : null,
    publishedUtc: item.pubDate && !Number.isNaN(item.pubDate.getTime()) ? item.pubDate.toISOString() : null,
    fields,
  };
}

/** The program's podcast fields the feed gives, in the studio's reference values. */
function programFields(feed: FeedObject): Record<string, unknown> {
  const language = feed.language?.trim().toLowerCase().slice(0, 2);
  const [topName, subName] = (feed.itunesCategory?.[0] ?? '').split('>').map((s) => s.trim());
  const top = topName ? PODCAST_CATEGORIES.find((c) => c.Id === categorySlug(topName)) : undefined;
  const sub = top && subName ? top.Subcategories.find((s) => s.Name.toLowerCase() === subName.toLowerCase()) : undefined;
  const description = feed.description?.trim() || feed.summary?.trim() || '';
  return {
    Name: cut(feed.title, NAME_MAX_LENGTH) ?? 'Imported podcast',
    Description: cut(looksLikeHtml(description) ? htmlToText(description) : description, DESCRIPTION_MAX_LENGTH),
    Author: cut(feed.author, NAME_MAX_LENGTH),
    OwnerName: cut(feed.owner?.name, NAME_MAX_LENGTH),
    OwnerEmail: cut(feed.owner?.email, 254),
    Language: language && LANGUAGES.some((l) => l.Code === language) ? language : null,
    Category: top?.Id ?? null,
    Subcategory: sub?.Id ?? null,
    Explicit: feed.explicit,
    Copyright: cut(feed.copyright, TITLE_MAX_LENGTH),
    ItunesType: feed.itunesType ?? null,
    Link: /^https?:\/\//i.test(feed.link ?? '') ? cut(feed.link, 2000) : null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The feed read, or null when the text is not an RSS feed the parser reads. */
export function readFeed(xml: string): ImportedFeed | null {
  let feed: FeedObject | null;
  try {
    feed = parseFeed(xml);
  } catch {
    return null;
  }
  if (!feed || !feed.title) return null;
  const seen = new Set<string>();
  const episodes: FeedEpisode[] = [];
  for (const item of feed.items ?? []) {
    const episode = episodeOf(item);
    // A guid twice in one feed is one episode (the first, as a podcast app would show it).
    if (episode && !seen.has(episode.guid)) {
      seen.add(episode.guid);
      episodes.push(episode);
    }
  }
  const self = feed.itunesNewFeedUrl?.trim() || feed.pubsub?.self?.trim() || null;
  return {
    title: feed.title,
    selfKey: self ? `url:${self}` : feed.guid ? `guid:${feed.guid}` : null,
    locked: feed.locked === true,
    podcastGuid: UUID.test(feed.guid?.trim() ?? '') ? feed.guid!.trim().toLowerCase() : self && /^https?:\/\//i.test(self) ? podcastGuid(self) : null,
    artworkUrl: feed.itunesImage?.trim() || feed.image?.url?.trim() || null,
    program: programFields(feed),
    episodes,
  };
}

/** A podcast:chapters JSON file (https://github.com/Podcastindex-org/podcast-namespace/blob/main/chapters/jsonChapters.md) as the clip's Chapters:
 *  its url and img kept as Url and ImageUrl where they are http(s) links (src/domain/chapters.ts's rule). */
export function readChapters(json: string): Chapter[] {
  const parsed = JSON.parse(json) as { chapters?: Array<{ startTime?: unknown; title?: unknown; toc?: unknown; url?: unknown; img?: unknown }> };
  if (!Array.isArray(parsed.chapters)) return [];
  const link = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && validateUrl(v.trim()) === null ? v.trim() : null);
  return parsed.chapters
    .filter((c) => typeof c.startTime === 'number' && c.startTime >= 0 && c.toc !== false)
    .map((c) => {
      const chapter: Chapter = { StartSeconds: c.startTime as number, Title: (typeof c.title === 'string' ? c.title.trim() : '').slice(0, TITLE_MAX_LENGTH) };
      const url = link(c.url);
      const img = link(c.img);
      if (url) chapter.Url = url;
      if (img) chapter.ImageUrl = img;
      return chapter;
    })
    .slice(0, 500);
}
