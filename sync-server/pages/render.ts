// The public pages' markup: a program's show page, a clip's show page and the embed player. Every
// value of a row goes through `html` (escaped) or sanitizeShowNotes; every URL that leaves the
// page for another program (OpenGraph, Twitter card, canonical, the feed) is absolute against the
// public origin. The words of the pages are in the program's language (src/domain/page-words.ts).
import { absoluteUrl, publicPaths } from '../../src/domain/public-urls.ts';
import { imageUrlForSize } from '../../src/domain/image.ts';
import { formatDuration } from '../../src/domain/time.ts';
import { pageWords, type PageWords } from '../../src/domain/page-words.ts';
import { programPodcast } from '../../src/domain/program-rules.ts';
import { html, raw, type Html } from './html.ts';
import { safeLinkTarget, sanitizeShowNotes } from './sanitize.ts';
import { EMBED_STYLE, PAGE_STYLE } from './style.ts';
import type { WireRow } from '../rows.ts';

/** The page's words, in its program's language (src/domain/page-words.ts). */
const wordsOf = (program: WireRow): PageWords => pageWords(programPodcast(program).Language);

/** The embed's size for an iframe (and the Twitter player card). */
export const EMBED_SIZE = { width: 480, height: 150 } as const;

type Urls = Record<string, string | null | undefined>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const urlsOf = (row: WireRow): Urls => (row['Urls'] ?? {}) as Urls;

export const clipTitle = (clip: WireRow, w: PageWords) => str(clip['Title'])?.trim() ?? w.untitled;
const programName = (program: WireRow, w: PageWords) => str(program['Name']) ?? w.podcast;
const clipDuration = (clip: WireRow) => num(clip['PublishedDurationSeconds']) ?? num(clip['DurationSeconds']);

/** A size variant of an image (section 3), or null when there is none (or its URL is malformed). */
function artwork(url: string | null | undefined, px: number): string | null {
  if (!url) return null;
  const sized = imageUrlForSize(url, px, px);
  return sized.ok ? sized.url : null;
}

/** The clip's artwork, else its program's. */
const clipArtwork = (clip: WireRow, program: WireRow) => urlsOf(clip)['ImagePublicUrl'] ?? urlsOf(program)['ImagePublicUrl'] ?? null;

/** The published audio with the place it is played from (`src`), for the download counts. */
export function audioWithSource(clip: WireRow, src: 'page' | 'embed'): string | null {
  const url = urlsOf(clip)['AudioPublicUrl'];
  if (!url) return null;
  return `${url}${url.includes('?') ? '&' : '?'}src=${src}`;
}

function dateOf(iso: unknown, w: PageWords): Html | null {
  const text = str(iso);
  const ms = text ? Date.parse(text) : Number.NaN;
  return Number.isNaN(ms) ? null : html`<time datetime="${new Date(ms).toISOString()}">${w.date.format(ms)}</time>`;
}

/** A description as plain text for meta tags: one line, at most ~200 characters. */
function summaryText(...candidates: unknown[]): string | null {
  for (const c of candidates) {
    const text = str(c);
    if (!text) continue;
    const line = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
    if (line) return line.length > 200 ? `${line.slice(0, 197).trimEnd()}…` : line;
  }
  return null;
}

function art(url: string | null, name: string, size: number, className = 'art'): Html {
  if (url) return html`<img class="${className}" src="${url}" alt="" width="${size}" height="${size}" loading="lazy" decoding="async">`;
  // No artwork yet: the first letter of the name, for sighted readers only (the name is beside it).
  return html`<div class="${className} placeholder" aria-hidden="true">${[...name.trim()][0]?.toUpperCase() ?? '♪'}</div>`;
}

const RSS_ICON = raw(
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6.2 15.6a2.2 2.2 0 1 1 0 4.4 2.2 2.2 0 0 1 0-4.4zM4 10.1a9.9 9.9 0 0 1 9.9 9.9h-2.9A7 7 0 0 0 4 13zm0-5.6A15.5 15.5 0 0 1 19.5 20h-2.9A12.6 12.6 0 0 0 4 7.4z"/></svg>',
);

type Head = {
  title: string;
  description: string | null;
  canonical: string;
  image: string | null;
  type: 'website' | 'music.song';
  noindex: boolean;
  feeds: Array<{ title: string; href: string }>;
  audio?: string | null;
  player?: string | null;
  style: string;
  siteName: string;
};

function head(h: Head): Html {
  return html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h.title}</title>
${h.description ? html`<meta name="description" content="${h.description}">` : null}
${h.noindex ? html`<meta name="robots" content="noindex">` : null}
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<link rel="canonical" href="${h.canonical}">
${h.feeds.map((f) => html`<link rel="alternate" type="application/rss+xml" title="${f.title}" href="${f.href}">\n`)}<meta property="og:type" content="${h.type}">
<meta property="og:site_name" content="${h.siteName}">
<meta property="og:title" content="${h.title}">
${h.description ? html`<meta property="og:description" content="${h.description}">` : null}
<meta property="og:url" content="${h.canonical}">
${h.image ? html`<meta property="og:image" content="${h.image}">` : null}
${h.audio ? html`<meta property="og:audio" content="${h.audio}">` : null}
${
  h.player
    ? html`<meta name="twitter:card" content="player">
<meta name="twitter:player" content="${h.player}">
<meta name="twitter:player:width" content="${EMBED_SIZE.width}">
<meta name="twitter:player:height" content="${EMBED_SIZE.height}">
${h.audio ? html`<meta name="twitter:player:stream" content="${h.audio}">` : null}`
    : html`<meta name="twitter:card" content="summary">`
}
<meta name="twitter:title" content="${h.title}">
${h.description ? html`<meta name="twitter:description" content="${h.description}">` : null}
${h.image ? html`<meta name="twitter:image" content="${h.image}">` : null}
<style>${raw(h.style)}</style>`;
}

function document(lang: string, headHtml: Html, body: Html, bodyClass?: string): string {
  return html`<!doctype html>
<html lang="${lang}">
<head>
${headHtml}
</head>
<body${bodyClass ? html` class="${bodyClass}"` : null}>
${body}
</body>
</html>
`.text;
}

export type ProgramPage = { origin: string; program: WireRow; clips: WireRow[]; playlists: WireRow[]; more: boolean };

export function programPageHtml(p: ProgramPage): string {
  const w = wordsOf(p.program);
  const name = programName(p.program, w);
  const abs = (path: string) => absoluteUrl(path, p.origin);
  const image = artwork(urlsOf(p.program)['ImagePublicUrl'], 600);
  const feeds = p.playlists.map((pl) => ({ title: str(pl['Title']) ?? name, href: abs(publicPaths.feed(pl.Id)) }));
  const description = summaryText(p.program['Description']);
  const episodes = p.clips.map((clip) => {
    const title = clipTitle(clip, w);
    const slug = str(clip['Slug']);
    const audio = audioWithSource(clip, 'page');
    const duration = clipDuration(clip);
    const date = dateOf(clip['PublishedUtc'], w);
    return html`<li class="episode">
${art(artwork(clipArtwork(clip, p.program), 144), title, 72)}
<div class="body">
<h3>${slug ? html`<a href="${publicPaths.clipPage(p.program.Id, slug)}">${title}</a>` : title}</h3>
<p class="meta">${date ? html`<span>${date}</span>` : null}${duration !== null ? html`<span>${formatDuration(duration)}</span>` : null}</p>
${summaryText(clip['ShortSummary'], clip['Description'], clip['DescriptionHtml']) ? html`<p class="summary">${summaryText(clip['ShortSummary'], clip['Description'], clip['DescriptionHtml'])}</p>` : null}
</div>
${audio ? html`<audio controls preload="none" src="${audio}" aria-label="${w.listen(title)}"></audio>` : null}
</li>`;
  });
  const body = html`<div class="wrap">
<main>
<header class="hero">
${art(image, name, 208)}
<div>
<p class="kicker">${w.podcast}</p>
<h1>${name}</h1>
${str(p.program['Description']) ? html`<p class="lead">${str(p.program['Description'])}</p>` : null}
${
  feeds.length > 0
    ? html`<ul class="feeds" aria-label="${w.subscribe}">${feeds.map((f) => html`<li><a class="feed" href="${f.href}">${RSS_ICON}${feeds.length > 1 ? f.title : w.rssFeed}</a></li>`)}</ul>`
    : null
}
</div>
</header>
<section aria-labelledby="episodes">
<h2 id="episodes">${w.episodes}</h2>
${episodes.length > 0 ? html`<ol class="episodes">${episodes}</ol>` : html`<p class="empty">${w.noEpisodes}</p>`}
${p.more && feeds.length > 0 ? html`<p class="empty">${w.moreInFeed}</p>` : null}
</section>
</main>
<footer>${w.madeWith}</footer>
</div>`;
  return document(
    w.lang,
    head({ title: name, description, canonical: abs(publicPaths.programPage(p.program.Id)), image: image ? abs(image) : null, type: 'website', noindex: false, feeds, style: PAGE_STYLE, siteName: name }),
    body,
  );
}

export type ClipPage = { origin: string; program: WireRow; clip: WireRow; unlisted: boolean; feed: WireRow | null };

/** The clip's show notes: DescriptionHtml through the allow-list, else Description as text. */
function showNotes(clip: WireRow): Html | null {
  const notes = str(clip['DescriptionHtml']);
  if (notes) return html`<div class="notes">${sanitizeShowNotes(notes)}</div>`;
  const text = str(clip['Description']);
  return text ? html`<div class="notes">${text.split(/\n\s*\n/).map((para) => html`<p class="lead">${para.trim()}</p>`)}</div>` : null;
}

type Chapter = { StartSeconds: number; Title: string };
const chaptersOf = (clip: WireRow): Chapter[] =>
  (Array.isArray(clip['Chapters']) ? (clip['Chapters'] as unknown[]) : [])
    .filter((c): c is Chapter => typeof c === 'object' && c !== null && num((c as Chapter).StartSeconds) !== null && typeof (c as Chapter).Title === 'string')
    .sort((a, b) => a.StartSeconds - b.StartSeconds);

export function clipPageHtml(p: ClipPage): string {
  const w = wordsOf(p.program);
  const title = clipTitle(p.clip, w);
  const name = programName(p.program, w);
  const abs = (path: string) => absoluteUrl(path, p.origin);
  const image = artwork(clipArtwork(p.clip, p.program), 600);
  const audio = audioWithSource(p.clip, 'page');
  const duration = clipDuration(p.clip);
  const date = dateOf(p.clip['PublishedUtc'], w);
  const programPath = publicPaths.programPage(p.program.Id);
  const feedHref = p.feed ? abs(publicPaths.feed(p.feed.Id)) : null;
  const chapters = chaptersOf(p.clip);
  const notes = showNotes(p.clip);
  const season = num(p.clip['Season']);
  const episode = num(p.clip['Episode']);
  const label = season !== null && episode !== null ? `S${season}/E${episode}` : season !== null ? `S${season}` : episode !== null ? `E${episode}` : null;
  const body = html`<div class="wrap">
<nav class="crumb" aria-label="${name}"><a href="${programPath}">${w.allEpisodes(name)}</a></nav>
<main>
<article>
<header class="hero">
${art(image, title, 208)}
<div>
<p class="kicker">${name}</p>
<h1>${title}</h1>
<p class="meta">${label ? html`<span>${label}</span>` : null}${date ? html`<span>${date}</span>` : null}${duration !== null ? html`<span>${formatDuration(duration)}</span>` : null}</p>
${feedHref ? html`<ul class="feeds" aria-label="${w.subscribe}"><li><a class="feed" href="${feedHref}">${RSS_ICON}${w.rssFeed}</a></li></ul>` : null}
</div>
</header>
${audio ? html`<div class="player"><audio controls preload="metadata" src="${audio}" aria-label="${w.listen(title)}"></audio></div>` : null}
${notes ? html`<section aria-labelledby="notes"><h2 id="notes">${w.showNotes}</h2>${notes}</section>` : null}
${
  chapters.length > 0
    ? html`<section aria-labelledby="chapters"><h2 id="chapters">${w.chapters}</h2><ol class="chapters">${chapters.map(
        (c) => html`<li><time datetime="PT${Math.floor(c.StartSeconds)}S">${formatDuration(c.StartSeconds)}</time><span>${c.Title}</span></li>`,
      )}</ol></section>`
    : null
}
</article>
</main>
<footer>${w.madeWith}</footer>
</div>`;
  const slug = str(p.clip['Slug']) ?? '';
  return document(
    w.lang,
    head({
      title: `${title} · ${name}`,
      description: summaryText(p.clip['ShortSummary'], p.clip['Description'], p.clip['DescriptionHtml']),
      canonical: abs(publicPaths.clipPage(p.program.Id, slug)),
      image: image ? abs(image) : null,
      type: 'music.song',
      noindex: p.unlisted,
      feeds: feedHref ? [{ title: str(p.feed?.['Title']) ?? name, href: feedHref }] : [],
      audio: audio ? abs(audio) : null,
      player: abs(publicPaths.embed(p.clip.Id)),
      style: PAGE_STYLE,
      siteName: name,
    }),
    body,
  );
}

export type EmbedPage = { origin: string; program: WireRow; clip: WireRow; unlisted: boolean; script: string };

const PLAY_ICON = raw('<svg class="start" viewBox="0 0 24 24" aria-hidden="true"><path d="M8 5.5v13l10.5-6.5z"/></svg>');
const PAUSE_ICON = raw('<svg class="pause" viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5h3.5v14H7zm6.5 0H17v14h-3.5z"/></svg>');

/** Where the embed's share link goes: EmbedShareLinkOverrideUrl when set (and a web address), else the clip's page. */
function shareLink(p: EmbedPage): string {
  const override = str(urlsOf(p.clip)['EmbedShareLinkOverrideUrl']) ?? str(p.clip['EmbedShareLinkOverrideUrl']);
  const safe = override ? safeLinkTarget(override) : null;
  if (safe && !safe.startsWith('mailto:')) return safe;
  return absoluteUrl(publicPaths.clipPage(p.program.Id, str(p.clip['Slug']) ?? ''), p.origin);
}

export function embedPageHtml(p: EmbedPage): string {
  const w = wordsOf(p.program);
  const title = clipTitle(p.clip, w);
  const name = programName(p.program, w);
  const image = artwork(clipArtwork(p.clip, p.program), 240);
  const audio = audioWithSource(p.clip, 'embed');
  const duration = clipDuration(p.clip) ?? 0;
  const share = shareLink(p);
  const body = html`<main class="embed" data-player data-play="${w.play}" data-pause="${w.pause}" data-of="${w.of}" data-speed="${w.speed}" data-duration="${duration}">
${art(image, title, 120)}
<div class="body">
<p class="program"><a href="${absoluteUrl(publicPaths.programPage(p.program.Id), p.origin)}" target="_blank" rel="noopener">${name}</a></p>
<h1><a href="${share}" target="_blank" rel="noopener">${title}</a></h1>
${audio ? html`<audio controls preload="metadata" src="${audio}" aria-label="${w.listen(title)}"></audio>` : null}
<div class="controls" data-controls hidden>
<button type="button" class="play" data-play aria-label="${w.play}">${PLAY_ICON}${PAUSE_ICON}</button>
<div class="seek" data-seek role="slider" tabindex="0" aria-label="${w.seek}" aria-valuemin="0" aria-valuemax="${Math.round(duration)}" aria-valuenow="0" aria-valuetext="0:00 ${w.of} ${formatDuration(duration)}"><div class="track"><div class="fill" data-fill></div></div></div>
<span class="time"><span data-now>0:00</span> / <span data-total>${formatDuration(duration)}</span></span>
<button type="button" class="speed" data-speed aria-label="${w.speed} 1×">1×</button>
</div>
</div>
</main>
<script src="${p.script}" defer></script>`;
  return document(
    w.lang,
    head({
      title: `${title} · ${name}`,
      description: null,
      canonical: absoluteUrl(publicPaths.clipPage(p.program.Id, str(p.clip['Slug']) ?? ''), p.origin),
      image: null,
      type: 'music.song',
      noindex: true,
      feeds: [],
      style: EMBED_STYLE,
      siteName: name,
    }),
    body,
  );
}
