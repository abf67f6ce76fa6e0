// The public pages (sync-server/pages): a program's show page, a clip's page and the embed player,
// served without a session for what section 4 lets a listener see, and nothing else. Rows are
// written as a publish leaves them (PublishState Published, a Slug, AudioPublicUrl), on PGlite.
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { parseFragment } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { insertRow } from '../../sync-server/rows.ts';
import { embedScript } from '../../sync-server/pages/embed-script.ts';
import { clipDefaults, emptyClipUrls } from '../../src/domain/clip-defaults.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { openTestStore, type TestStore } from './test-store.ts';

const organizationId = randomUUID();
const programId = randomUUID();
const emptyProgramId = randomUUID();
const playlistId = randomUUID();
const privatePlaylistId = randomUUID();
const NOW = new Date('2026-06-01T12:00:00.000Z');
const HOSTILE = `Tom & "Jerry" <script>alert('title')</script>`;

let t: TestStore;
let app: ReturnType<typeof createApp>;
const clips = new Map<string, string>();

type ClipSpec = { key: string; slug: string; fields?: Record<string, unknown> };

/** A clip as a publish leaves it; its id is `clips.get(spec.key)`. */
function published(spec: ClipSpec, order: number): Record<string, unknown> {
  const id = randomUUID();
  clips.set(spec.key, id);
  const { Urls: urls, ...fields } = spec.fields ?? {};
  return {
    ...clipDefaults(),
    ProgramId: programId,
    Title: `Episode ${spec.key}`,
    Description: `About ${spec.key}.`,
    State: 'Ready',
    PublishState: 'Published',
    Visibility: 'Public',
    Slug: spec.slug,
    PublishedUtc: new Date(Date.UTC(2026, 4, 1 + order)).toISOString(),
    DurationSeconds: 754,
    PublishedDurationSeconds: 754,
    Urls: {
      ...emptyClipUrls(),
      AudioPublicUrl: publicPaths.audio(id, 'mp3'),
      EmbedUrl: publicPaths.embed(id),
      ShowPageUrl: publicPaths.clipPage(programId, spec.slug),
      ...(urls as object | undefined),
    },
    ...fields,
  };
}

const SPECS: ClipSpec[] = [
  {
    key: 'hostile',
    slug: 'hostile',
    fields: {
      Title: HOSTILE,
      DescriptionHtml: `<p>Notes with <a href="https://example.com/x" onclick="steal()">a link</a>, <a href="javascript:alert(1)">a trap</a> and <b>bold</b>.</p><script>alert('notes')</script><img src=x onerror=alert(2)><h1>Big</h1><style>body{display:none}</style>"><svg onload=alert(3)>`,
      Chapters: [
        { StartSeconds: 300, Title: 'Main <story>' },
        { StartSeconds: 0, Title: 'Intro' },
      ],
      Urls: { ImagePublicUrl: '/images/clip/c1/v1' },
    },
  },
  { key: 'plain', slug: 'plain' },
  { key: 'unlisted', slug: 'unlisted', fields: { Visibility: 'Unlisted' } },
  { key: 'private', slug: 'private', fields: { Visibility: 'Private' } },
  { key: 'restricted', slug: 'restricted', fields: { Visibility: 'Restricted' } },
  { key: 'unpublished', slug: 'unpublished', fields: { PublishState: 'Unpublished' } },
  { key: 'publishing', slug: 'publishing', fields: { PublishState: 'Publishing' } },
  { key: 'processing', slug: 'processing', fields: { State: 'Processing' } },
  // Private now, Public at a time already passed (the job has not run yet): public.
  { key: 'scheduled-past', slug: 'scheduled-past', fields: { Visibility: 'Private', ScheduledVisibility: 'Public', VisibleAtUtc: '2026-05-30T00:00:00.000Z' } },
  // Public from a time still to come: nothing yet.
  { key: 'scheduled-future', slug: 'scheduled-future', fields: { Visibility: 'Private', ScheduledVisibility: 'Public', VisibleAtUtc: '2026-07-01T00:00:00.000Z' } },
  { key: 'override', slug: 'override', fields: { EmbedShareLinkOverrideUrl: 'https://listen.example.org/our-page' } },
];

beforeAll(async () => {
  t = await openTestStore('pglite');
  const ctx = { organizationId, userId: null, now: NOW };
  await t.store.tx(async (q) => {
    await insertRow(q, 'organization', organizationId, ctx, { Name: 'Castaway FM', IsDemoOrganization: false, Provider: 'Podcaster' });
    await insertRow(q, 'program', programId, ctx, { Name: `Night <b>Owls</b> & "Co"`, NetworkId: null, Description: 'Stories after dark.', Urls: { ImagePublicUrl: '/images/program/p1/v1' } });
    await insertRow(q, 'program', emptyProgramId, ctx, { Name: 'Nothing yet', NetworkId: null, Description: null, Urls: { ImagePublicUrl: null } });
    for (const [i, spec] of SPECS.entries()) {
      const fields = published(spec, i);
      await insertRow(q, 'clip', clips.get(spec.key)!, ctx, fields);
    }
    // Deleted: a row that was published, then deleted (its slug stays unique among live rows only).
    const deleted = published({ key: 'deleted', slug: 'deleted' }, 20);
    await insertRow(q, 'clip', clips.get('deleted')!, ctx, deleted);
    await q.query(`UPDATE clips SET deleted = true WHERE id = $1`, [clips.get('deleted')]);
    await insertRow(q, 'playlist', playlistId, ctx, { ProgramId: programId, Title: 'Main feed', Slug: 'main', Description: null, Visibility: 'Public', ClipIds: [clips.get('plain')!], Urls: { ImagePublicUrl: null } });
    await insertRow(q, 'playlist', privatePlaylistId, ctx, { ProgramId: programId, Title: 'Members', Slug: 'members', Description: null, Visibility: 'Private', ClipIds: [], Urls: { ImagePublicUrl: null } });
  });
  app = createApp({ store: t.store, bus: createMemoryBus(), clock: () => NOW });
}, 60_000);

afterAll(async () => {
  await t?.drop();
});

const get = (path: string, headers: Record<string, string> = {}) => app.request(`http://studio.test${path}`, { headers });
const clipPath = (key: string) => publicPaths.clipPage(programId, SPECS.find((s) => s.key === key)?.slug ?? key);

/** The page's <meta> tags, by property or name, as a browser's parser reads them. */
function metaOf(page: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: { nodeName: string; attrs?: Array<{ name: string; value: string }>; childNodes?: unknown[] }) => {
    if (node.nodeName === 'meta') {
      const attr = (n: string) => node.attrs?.find((a) => a.name === n)?.value;
      const key = attr('property') ?? attr('name');
      if (key) out.set(key, attr('content') ?? '');
    }
    for (const child of node.childNodes ?? []) walk(child as typeof node);
  };
  walk(parseFragment(page.replace(/^<!doctype html>/i, '')) as never);
  return out;
}

describe('the program page', () => {
  it('lists the published Public episodes, newest first, with a player each and links to the public feeds only', async () => {
    const res = await get(publicPaths.programPage(programId));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    const listed = [...page.matchAll(/<h3><a href="\/shows\/[^/]+\/([a-z0-9-]+)">/g)].map((m) => m[1]);
    expect(listed).toEqual(['override', 'scheduled-past', 'plain', 'hostile']);
    expect(page).toContain(`<audio controls preload="none" src="${publicPaths.audio(clips.get('plain')!, 'mp3')}?src=page"`);
    expect(page).toContain('12:34');
    expect(page).toContain(`href="http://studio.test${publicPaths.feed(playlistId)}"`);
    expect(page).toContain(`<link rel="alternate" type="application/rss+xml" title="Main feed" href="http://studio.test${publicPaths.feed(playlistId)}">`);
    expect(page).not.toContain(privatePlaylistId);
    expect(page).toMatch(/<html lang="en">/);
    expect(page).toContain('<h1>Night &lt;b&gt;Owls&lt;/b&gt; &amp; &quot;Co&quot;</h1>');
    expect(page).toContain('src="/images/program/p1/v1?size=medium"');
  });

  it('escapes a hostile title wherever it goes', async () => {
    const page = await (await get(publicPaths.programPage(programId))).text();
    expect(page).not.toContain('<script>alert');
    expect(page).toContain('Tom &amp; &quot;Jerry&quot; &lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;');
  });

  it('is a 404 for a program with nothing public, a deleted one, and one that does not exist', async () => {
    expect((await get(publicPaths.programPage(emptyProgramId))).status).toBe(404);
    expect((await get(publicPaths.programPage(randomUUID()))).status).toBe(404);
    expect((await get('/shows/not-a-program')).status).toBe(404);
  });
});

describe('the clip page', () => {
  it('shows the episode: title, date, duration, the player with ?src=page, chapters in order, links to the program and its feed', async () => {
    const res = await get(clipPath('hostile'));
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(`<audio controls preload="metadata" src="${publicPaths.audio(clips.get('hostile')!, 'mp3')}?src=page"`);
    expect(page).toContain('<time datetime="2026-05-01T00:00:00.000Z">May 1, 2026</time>');
    expect(page).toContain('<span>12:34</span>');
    expect(page).toMatch(/<time datetime="PT0S">0:00<\/time><span>Intro<\/span><\/li><li><time datetime="PT300S">5:00<\/time><span>Main &lt;story&gt;<\/span>/);
    expect(page).toContain(`href="${publicPaths.programPage(programId)}"`);
    expect(page).toContain(`href="http://studio.test${publicPaths.feed(playlistId)}"`);
    // One h1, then h2 sections.
    expect(page.match(/<h1>/g)).toHaveLength(1);
    expect(page).toContain('<h2 id="notes">');
    expect(page).not.toContain('noindex');
  });

  it('keeps the show notes’ links and emphasis and drops everything active (script, handlers, javascript: links, styles, images)', async () => {
    const page = await (await get(clipPath('hostile'))).text();
    const notes = page.slice(page.indexOf('<div class="notes">'), page.indexOf('</section>', page.indexOf('<div class="notes">')));
    expect(notes).toBe(
      '<div class="notes"><p>Notes with <a href="https://example.com/x" rel="nofollow ugc noopener">a link</a>, a trap and <b>bold</b>.</p><p><strong>Big</strong></p>&quot;&gt;</div>',
    );
    expect(page).not.toMatch(/<script(?![^>]*src="\/embed)/);
    expect(page).not.toMatch(/onerror|onclick|onload|javascript:/);
  });

  it('carries OpenGraph and Twitter player tags with absolute URLs', async () => {
    const page = await (await get(clipPath('plain'))).text();
    const meta = metaOf(page);
    const id = clips.get('plain')!;
    expect(meta.get('og:title')).toBe('Episode plain · Night <b>Owls</b> & "Co"');
    expect(meta.get('og:description')).toBe('About plain.');
    expect(meta.get('og:type')).toBe('music.song');
    expect(meta.get('og:url')).toBe(`http://studio.test${clipPath('plain')}`);
    expect(meta.get('og:image')).toBe('http://studio.test/images/program/p1/v1?size=medium');
    expect(meta.get('og:audio')).toBe(`http://studio.test${publicPaths.audio(id, 'mp3')}?src=page`);
    expect(meta.get('twitter:card')).toBe('player');
    expect(meta.get('twitter:player')).toBe(`http://studio.test${publicPaths.embed(id)}`);
    expect(Number(meta.get('twitter:player:width'))).toBeGreaterThan(0);
    expect(Number(meta.get('twitter:player:height'))).toBeGreaterThan(0);
    for (const key of ['og:url', 'og:image', 'og:audio', 'twitter:player', 'twitter:image']) expect(new URL(meta.get(key)!).origin, key).toBe('http://studio.test');
  });

  it('makes its URLs absolute against PUBLIC_URL when the studio is configured with one', async () => {
    process.env.PUBLIC_URL = 'https://listen.example.com';
    try {
      const meta = metaOf(await (await get(clipPath('plain'))).text());
      expect(meta.get('og:url')).toBe(`https://listen.example.com${clipPath('plain')}`);
    } finally {
      delete process.env.PUBLIC_URL;
    }
  });

  it('an Unlisted clip has a page, marked noindex, and is not listed on the program page', async () => {
    const res = await get(clipPath('unlisted'));
    expect(res.status).toBe(200);
    expect(metaOf(await res.text()).get('robots')).toBe('noindex');
    expect(await (await get(publicPaths.programPage(programId))).text()).not.toContain('unlisted');
  });

  it.each(['private', 'restricted', 'unpublished', 'publishing', 'processing', 'deleted', 'scheduled-future', 'no-such-clip'])('is a 404 for a %s clip', async (key) => {
    const res = await get(clipPath(key));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('is a 404 under another program, and for an address that cannot be a slug', async () => {
    expect((await get(publicPaths.clipPage(emptyProgramId, 'plain'))).status).toBe(404);
    expect((await get(`/shows/${programId}/Not%20A%20Slug`)).status).toBe(404);
  });

  it('answers a repeated request with 304 by its ETag, and is cached briefly', async () => {
    const first = await get(clipPath('plain'));
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    const again = await get(clipPath('plain'), { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get(clipPath('plain'), { 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('is compressed for a browser that takes it, under an ETag of its own that answers 304 too', async () => {
    const plain = await (await get(clipPath('plain'))).text();
    const res = await get(clipPath('plain'), { 'accept-encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/-gzip"$/);
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8')).toBe(plain);
    expect((await get(clipPath('plain'), { 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(304);
  });

  it('loads nothing from elsewhere, and says so in its content security policy', async () => {
    const res = await get(clipPath('hostile'));
    const page = await res.text();
    expect([...page.matchAll(/(?:src|href)="(https?:)?\/\/(?!studio\.test|example\.com\/x)/g)]).toEqual([]);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'self'/);
  });
});

describe('the pages’ language', () => {
  it('speaks the program’s language where the studio has it (its lang attribute, words and dates), English where it has none', async () => {
    const setLanguage = (language: string | null) => t.store.query(`UPDATE programs SET data = data || jsonb_build_object('Language', $2::text), version = next_row_version() WHERE id = $1`, [programId, language]);
    try {
      await setLanguage('de');
      const page = await (await get(publicPaths.programPage(programId))).text();
      expect(page).toMatch(/<html lang="de">/);
      expect(page).toContain('<h2 id="episodes">Folgen</h2>');
      const clip = await (await get(clipPath('hostile'))).text();
      expect(clip).toContain('<time datetime="2026-05-01T00:00:00.000Z">01.05.2026</time>');
      expect(clip).toContain('Alle Folgen von Night &lt;b&gt;Owls&lt;/b&gt; &amp; &quot;Co&quot;');
      const embed = await (await get(publicPaths.embed(clips.get('plain')!))).text();
      expect(embed).toContain('data-play="Abspielen"');
      // A language the studio has no words for: the content's lang, English words.
      await setLanguage('nl');
      const dutch = await (await get(publicPaths.programPage(programId))).text();
      expect(dutch).toMatch(/<html lang="nl">/);
      expect(dutch).toContain('<h2 id="episodes">Episodes</h2>');
    } finally {
      await t.store.query(`UPDATE programs SET data = data - 'Language', version = next_row_version() WHERE id = $1`, [programId]);
    }
  });
});

describe('the embed player', () => {
  it('plays the clip with ?src=embed: artwork, title, program, a play button, a seek slider with its time in words, speed', async () => {
    const id = clips.get('hostile')!;
    const res = await get(publicPaths.embed(id));
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(`src="${publicPaths.audio(id, 'mp3')}?src=embed"`);
    expect(page).toContain('src="/images/clip/c1/v1?size=small"');
    expect(page).toContain('<h1><a href="http://studio.test/shows/');
    expect(page).toContain('Tom &amp; &quot;Jerry&quot; &lt;script&gt;');
    expect(page).toContain('<button type="button" class="play" data-play aria-label="Play">');
    expect(page).toMatch(/role="slider" tabindex="0" aria-label="Seek" aria-valuemin="0" aria-valuemax="754" aria-valuenow="0" aria-valuetext="0:00 of 12:34"/);
    expect(page).toContain('aria-label="Playback speed 1×"');
    const script = await embedScript();
    expect(page).toContain(`<script src="/embed/assets/player.js?v=${script.hash}" defer></script>`);
  });

  it('may be framed by any site (no X-Frame-Options, frame-ancestors *)', async () => {
    const res = await get(publicPaths.embed(clips.get('plain')!));
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *');
  });

  it('points its share link at EmbedShareLinkOverrideUrl when set', async () => {
    const page = await (await get(publicPaths.embed(clips.get('override')!))).text();
    expect(page).toContain('<h1><a href="https://listen.example.org/our-page" target="_blank" rel="noopener">');
  });

  it.each(['private', 'restricted', 'unpublished', 'deleted', 'scheduled-future'])('is a 404 for a %s clip', async (key) => {
    expect((await get(publicPaths.embed(clips.get(key)!))).status).toBe(404);
  });

  it('an Unlisted clip plays in an embed too', async () => {
    expect((await get(publicPaths.embed(clips.get('unlisted')!))).status).toBe(200);
  });

  it('has a script of at most 30 KB, served with an ETag and kept for a year under its versioned URL', async () => {
    const script = await embedScript();
    console.log(`embed player script: ${script.bytes} bytes`);
    expect(script.bytes).toBeLessThanOrEqual(30 * 1024);
    const res = await get(`/embed/assets/player.js?v=${script.hash}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await res.arrayBuffer()).byteLength).toBe(script.bytes);
    expect((await get('/embed/assets/player.js', { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
  });
});
