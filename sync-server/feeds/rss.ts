// A playlist's podcast feed as RSS 2.0 text, with the iTunes tags Apple requires and the
// Podcasting 2.0 namespace. Plain string building, no DOM: a feed of 2,500 episodes is built in a
// few milliseconds (bench:publish). Everything here is already decided (which clips, in what
// order, absolute URLs): sync-server/feeds/feed-data.ts reads the rows and src/domain/feed.ts
// holds the rules; this module only writes XML, and escapes everything it writes.
//
// Escaping: text and attribute values go through `text`/`attr` (&, <, >, quotes), HTML
// descriptions through `cdata` (a "]]>" inside is split across two sections). Characters XML 1.0
// does not allow (C0 controls other than tab, newline and carriage return; U+FFFE, U+FFFF; half a
// surrogate pair) are removed from every value; everything else, emoji included, is kept.
import { createHash } from 'node:crypto';
import { PODCAST_GUID_NAMESPACE, podcastGuidName } from '../../src/domain/feed.ts';

export type FeedPerson = { name: string; role: string | null; href: string | null };

export type FeedChannel = {
  title: string;
  description: string;
  /** The show's website (absolute). */
  link: string;
  /** This feed's own URL (absolute): atom:link rel="self". */
  feedUrl: string;
  /** The show's podcast:guid (feed-data.ts showGuid): not made from a member's private URL. */
  guid: string;
  imageUrl: string | null;
  /** An RSS language code ('en', 'de-de'). */
  language: string;
  /** Apple category names (text of itunes:category), or null: no category tag. */
  category: { name: string; subcategory: string | null } | null;
  explicit: boolean;
  author: string;
  owner: { name: string | null; email: string | null };
  copyright: string | null;
  itunesType: 'episodic' | 'serial';
  locked: boolean;
  funding: { url: string; text: string } | null;
  persons: readonly FeedPerson[];
  /** Unlisted: reachable by its link, but directories are asked not to list it. */
  block: boolean;
  lastBuildDate: Date;
};

export type FeedItem = {
  /** Stable, never a URL: the clip's id (a drop's id for a feed drop). */
  guid: string;
  title: string;
  link: string | null;
  /** HTML (the clip's DescriptionHtml) or plain text; null: none. */
  descriptionHtml: string | null;
  /** A short plain summary (itunes:summary and the podcast apps' one-line text). */
  summary: string | null;
  pubDate: Date;
  enclosure: { url: string; length: number; type: string };
  durationSeconds: number | null;
  episode: number | null;
  season: number | null;
  episodeType: 'full' | 'trailer' | 'bonus';
  explicit: boolean;
  imageUrl: string | null;
  transcript: { url: string; type: string } | null;
  chaptersUrl: string | null;
};

// ── Escaping ────────────────────────────────────────────────────────────────────────────────

/** What XML 1.0 does not allow in a document (its Char production), and lone surrogates. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NEEDS_TEXT_ESCAPE = /[&<>]/;
const NEEDS_ATTR_ESCAPE = /[&<>"']/;

/** A value with the characters XML cannot carry removed (most values have none: tested first). */
export function xmlChars(value: string): string {
  NOT_XML.lastIndex = 0;
  return NOT_XML.test(value) ? value.replace(NOT_XML, '') : value;
}

export function text(value: string): string {
  const clean = xmlChars(value);
  return NEEDS_TEXT_ESCAPE.test(clean) ? clean.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : clean;
}

export function attr(value: string): string {
  const clean = xmlChars(value);
  return NEEDS_ATTR_ESCAPE.test(clean)
    ? clean.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
    : clean;
}

/** HTML kept as it is inside CDATA; a "]]>" in it ends one section and starts the next. */
export function cdata(value: string): string {
  return `<![CDATA[${xmlChars(value).replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

// ── podcast:guid ────────────────────────────────────────────────────────────────────────────

/** A UUIDv5 (RFC 9562 §5.5: SHA-1 of the namespace's bytes and the name's UTF-8). */
export function uuidV5(name: string, namespace: string): string {
  const hash = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The feed's podcast:guid: UUIDv5 of its URL without scheme and trailing slashes (Podcasting 2.0). */
export function podcastGuid(feedUrl: string): string {
  return uuidV5(podcastGuidName(feedUrl), PODCAST_GUID_NAMESPACE);
}

// ── The document ────────────────────────────────────────────────────────────────────────────

const NAMESPACES =
  'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" ' +
  'xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/"';

const el = (name: string, value: string) => `<${name}>${text(value)}</${name}>`;

function channelHead(ch: FeedChannel): string {
  const out: string[] = [
    el('title', ch.title),
    `<link>${text(ch.link)}</link>`,
    `<atom:link href="${attr(ch.feedUrl)}" rel="self" type="application/rss+xml"/>`,
    `<description>${cdata(ch.description)}</description>`,
    el('language', ch.language),
    el('lastBuildDate', ch.lastBuildDate.toUTCString()),
    el('generator', 'Castaway Studio'),
    el('itunes:author', ch.author),
    `<itunes:explicit>${ch.explicit ? 'true' : 'false'}</itunes:explicit>`,
    `<itunes:type>${ch.itunesType}</itunes:type>`,
  ];
  if (ch.imageUrl) {
    out.push(`<itunes:image href="${attr(ch.imageUrl)}"/>`);
    out.push(`<image><url>${text(ch.imageUrl)}</url>${el('title', ch.title)}<link>${text(ch.link)}</link></image>`);
  }
  if (ch.category) {
    const sub = ch.category.subcategory ? `<itunes:category text="${attr(ch.category.subcategory)}"/>` : '';
    out.push(sub ? `<itunes:category text="${attr(ch.category.name)}">${sub}</itunes:category>` : `<itunes:category text="${attr(ch.category.name)}"/>`);
  }
  if (ch.owner.name || ch.owner.email) {
    out.push(`<itunes:owner>${ch.owner.name ? el('itunes:name', ch.owner.name) : ''}${ch.owner.email ? el('itunes:email', ch.owner.email) : ''}</itunes:owner>`);
  }
  if (ch.copyright) out.push(el('copyright', ch.copyright));
  if (ch.block) out.push('<itunes:block>Yes</itunes:block>', '<podcast:block>yes</podcast:block>');
  out.push(`<podcast:guid>${text(ch.guid)}</podcast:guid>`);
  out.push(ch.owner.email ? `<podcast:locked owner="${attr(ch.owner.email)}">${ch.locked ? 'yes' : 'no'}</podcast:locked>` : `<podcast:locked>${ch.locked ? 'yes' : 'no'}</podcast:locked>`);
  if (ch.funding) out.push(`<podcast:funding url="${attr(ch.funding.url)}">${text(ch.funding.text)}</podcast:funding>`);
  for (const p of ch.persons) {
    const role = p.role ? ` role="${attr(p.role)}"` : '';
    const href = p.href ? ` href="${attr(p.href)}"` : '';
    out.push(`<podcast:person${role}${href}>${text(p.name)}</podcast:person>`);
  }
  return out.join('\n');
}

/** A positive whole number for itunes:episode / itunes:season (Apple takes nothing else). */
const wholeNumber = (n: number | null): number | null => (n !== null && Number.isInteger(n) && n > 0 ? n : null);

/** One item's XML (kept per clip by feed-data.ts feedXml). */
export function itemXml(it: FeedItem): string {
  const parts: string[] = [
    '<item>',
    el('title', it.title),
    el('itunes:title', it.title),
    `<guid isPermaLink="false">${text(it.guid)}</guid>`,
    `<pubDate>${it.pubDate.toUTCString()}</pubDate>`,
    `<enclosure url="${attr(it.enclosure.url)}" length="${Math.max(0, Math.round(it.enclosure.length))}" type="${attr(it.enclosure.type)}"/>`,
  ];
  if (it.link) parts.push(`<link>${text(it.link)}</link>`);
  if (it.descriptionHtml) {
    const html = cdata(it.descriptionHtml);
    parts.push(`<description>${html}</description>`, `<content:encoded>${html}</content:encoded>`);
  }
  if (it.summary) parts.push(el('itunes:summary', it.summary));
  if (it.durationSeconds !== null) parts.push(`<itunes:duration>${Math.round(it.durationSeconds)}</itunes:duration>`);
  const episode = wholeNumber(it.episode);
  const season = wholeNumber(it.season);
  if (episode !== null) parts.push(`<itunes:episode>${episode}</itunes:episode>`, `<podcast:episode>${episode}</podcast:episode>`);
  if (season !== null) parts.push(`<itunes:season>${season}</itunes:season>`, `<podcast:season>${season}</podcast:season>`);
  parts.push(`<itunes:episodeType>${it.episodeType}</itunes:episodeType>`, `<itunes:explicit>${it.explicit ? 'true' : 'false'}</itunes:explicit>`);
  if (it.imageUrl) parts.push(`<itunes:image href="${attr(it.imageUrl)}"/>`);
  if (it.transcript) parts.push(`<podcast:transcript url="${attr(it.transcript.url)}" type="${attr(it.transcript.type)}"/>`);
  if (it.chaptersUrl) parts.push(`<podcast:chapters url="${attr(it.chaptersUrl)}" type="application/json+chapters"/>`);
  parts.push('</item>');
  return parts.join('');
}

/** The whole feed document. */
export function buildRss(channel: FeedChannel, items: readonly FeedItem[]): string {
  return rssDocument(channel, items.map(itemXml));
}

/** The whole feed document of its items' XML (itemXml). */
export function rssDocument(channel: FeedChannel, itemTexts: readonly string[]): string {
  return `${documentHead(channel)}${itemTexts.map((t) => `${t}\n`).join('')}${DOCUMENT_TAIL}`;
}

/** The same document as UTF-8 bytes, of its items' XML as UTF-8 bytes. */
export function rssDocumentBytes(channel: FeedChannel, items: readonly Uint8Array[]): Buffer {
  const head = Buffer.from(documentHead(channel), 'utf8');
  const parts: Uint8Array[] = [head];
  let length = head.byteLength + DOCUMENT_TAIL.length;
  for (const it of items) {
    parts.push(it, NEWLINE);
    length += it.byteLength + 1;
  }
  parts.push(TAIL_BYTES);
  return Buffer.concat(parts, length);
}

const documentHead = (channel: FeedChannel) => `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" ${NAMESPACES}>\n<channel>\n${channelHead(channel)}\n`;
const DOCUMENT_TAIL = '</channel>\n</rss>\n';
const TAIL_BYTES = Buffer.from(DOCUMENT_TAIL, 'utf8');
const NEWLINE = Buffer.from('\n', 'utf8');
