// Public feeds (issue 29): every feed the studio makes is read back by two independent podcast
// feed parsers from the registry (the Podcast Index's podcast-partytime and rss-parser), and what
// they read equals the studio's rows; Apple's required tags are there; 304s; only what the
// visibility rules allow; hostile text stays well-formed. Rows are written through the API (the
// named mutations) where it has the call, and the publish fields directly (as the publishing job
// writes them).
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from 'podcast-partytime';
import Parser from 'rss-parser';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { podcastGuid, uuidV5 } from '../../sync-server/feeds/rss.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { AppClient, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, type TestStore } from './test-store.ts';

let test: TestStore;
let seeded: SeededApp;
let api: AppClient;
const ORIGIN = 'http://localhost';

beforeAll(async () => {
  test = await openTestStore('pglite');
  seeded = await seededApp(test.store);
  api = new AppClient(seeded.app);
  await api.login('demo@example.com');
  api.organizationId = ORG_DEMO;
}, 180_000);
afterAll(async () => {
  await test?.drop();
});

// ── Making rows ─────────────────────────────────────────────────────────────────────────────

async function createProgram(fields: Record<string, unknown> = {}): Promise<string> {
  const reply = await api.post('/api/v1/programs', { Name: `Feed show ${crypto.randomUUID().slice(0, 8)}`, Description: 'A show about feeds', ...fields });
  expect(reply.status, reply.text).toBe(201);
  return (reply.body as { Id: string }).Id;
}

async function createPlaylist(programId: string, visibility = 'Public', title = 'Main feed'): Promise<string> {
  const reply = await api.post(`/api/v1/programs/${programId}/playlists`, { Title: title, Visibility: visibility, Description: 'Every episode' });
  expect(reply.status, reply.text).toBe(201);
  return (reply.body as { Id: string }).Id;
}

async function createClip(programId: string, fields: Record<string, unknown>): Promise<string> {
  const reply = await api.post(`/api/v1/programs/${programId}/clips`, fields);
  expect(reply.status, reply.text).toBe(201);
  return (reply.body as { Id: string }).Id;
}

type Published = { visibility?: string; size: number; duration: number; publishedUtc: string; ext?: string; scheduled?: [string, string]; publishState?: string };

/** What publishing leaves on a clip (section 4: slug, PublishedUtc, EmbedUrl, ShowPageUrl; the
 * published audio's URL, size and duration), written as the publishing job writes rows. */
async function publish(programId: string, clipId: string, p: Published): Promise<void> {
  const slug = `ep-${clipId.slice(0, 8)}`;
  const visibility = p.visibility ?? 'Public';
  const data = {
    PublishedUtc: p.publishedUtc,
    PublishedAudioSizeInBytes: p.size,
    PublishedDurationSeconds: p.duration,
    DurationSeconds: p.duration + 5,
    ScheduledVisibility: p.scheduled?.[0] ?? null,
    VisibleAtUtc: p.scheduled?.[1] ?? null,
    Urls: {
      AudioPublicUrl: publicPaths.audio(clipId, p.ext ?? 'mp3'),
      AudioPrivateUrl: `/api/media/clips/${clipId}/audio`,
      WaveformHighResUrl: `/api/media/clips/${clipId}/waveform-high.dat`,
      WaveformLowResUrl: `/api/media/clips/${clipId}/waveform-low.dat`,
      EmbedUrl: publicPaths.embed(clipId),
      ShowPageUrl: publicPaths.clipPage(programId, slug),
      ImagePublicUrl: null,
    },
  };
  await test.store.query(
    `UPDATE clips SET state = 'Ready', publish_state = $2, visibility = $3, slug = $4, data = data || $5::jsonb || jsonb_build_object('Urls', (data->'Urls') || $6::jsonb),
       version = next_row_version(), modified_at_utc = modified_at_utc + interval '1 millisecond' WHERE id = $1`,
    [clipId, p.publishState ?? 'Published', visibility, slug, JSON.stringify({ ...data, Urls: undefined }), JSON.stringify(data.Urls)],
  );
}

async function setClips(playlistId: string, clipIds: string[]): Promise<void> {
  const reply = await api.patch(`/api/v1/playlists/${playlistId}/clips`, { ClipIds: clipIds });
  expect(reply.status, reply.text).toBe(204);
}

async function feed(playlistId: string, headers: Record<string, string> = {}) {
  const res = await seeded.app.request(`${ORIGIN}${publicPaths.feed(playlistId)}`, { headers });
  const raw = Buffer.from(await res.arrayBuffer());
  const encoding = res.headers.get('content-encoding');
  const text = encoding === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return { status: res.status, headers: res.headers, text };
}

const rss = new Parser({ customFields: { item: [['itunes:duration', 'duration'], ['podcast:season', 'podcastSeason'], ['podcast:episode', 'podcastEpisode'], ['podcast:chapters', 'chapters', { keepArray: false }]] } });

// ── The show ────────────────────────────────────────────────────────────────────────────────

type Episode = { id: string; title: string; size: number; duration: number; episode: number; season: number; publishedUtc: string; chapters: boolean; ext: string };
let programId: string;
let playlistId: string;
const episodes: Episode[] = [];
const hidden: Record<string, string> = {};

describe('a playlist’s feed', () => {
  beforeAll(async () => {
    programId = await createProgram({
      Author: 'Ada Host',
      OwnerName: 'Ada Owner',
      OwnerEmail: 'owner@example.com',
      Language: 'en',
      Category: 'news',
      Subcategory: 'news.tech-news',
      Explicit: false,
      Copyright: '© 2025 Castaway',
      ItunesType: 'episodic',
      Locked: true,
      FundingUrl: 'https://example.com/support',
      FundingText: 'Support the show',
      Persons: [{ Name: 'Ada Host', Role: 'host', Href: 'https://example.com/ada' }],
    });
    playlistId = await createPlaylist(programId);
    for (let i = 1; i <= 6; i++) {
      const ext = i === 2 ? 'm4a' : 'mp3';
      const chapters = i % 2 === 1;
      const id = await createClip(programId, {
        Title: `Episode ${i}: feeds & friends`,
        DescriptionHtml: `<p>Episode <b>${i}</b> notes</p>`,
        Episode: i,
        Season: 2,
        EpisodeType: i === 1 ? 'Trailer' : 'Full',
        Chapters: chapters ? [{ StartSeconds: 0, Title: 'Intro' }, { StartSeconds: 30.5, Title: 'Main' }] : [],
        ContentRating: i === 3 ? 'Explicit' : 'Clean',
      });
      const e: Episode = { id, title: `Episode ${i}: feeds & friends`, size: 100_000 * i + 17, duration: 600 + i, episode: i, season: 2, publishedUtc: new Date(Date.UTC(2025, 4, i, 8)).toISOString(), chapters, ext };
      await publish(programId, id, { size: e.size, duration: e.duration, publishedUtc: e.publishedUtc, ext });
      episodes.push(e);
    }
    // Clips the feed must not list.
    const make = async (name: string, p: Partial<Published>) => {
      const id = await createClip(programId, { Title: `Hidden ${name}` });
      await publish(programId, id, { size: 1, duration: 1, publishedUtc: '2025-05-20T00:00:00.000Z', ...p });
      hidden[name] = id;
    };
    await make('unlisted', { visibility: 'Unlisted' });
    await make('restricted', { visibility: 'Restricted' });
    await make('private', { visibility: 'Private' });
    await make('unpublished', { publishState: 'Publishing' });
    await make('scheduled', { scheduled: ['Public', '2025-06-01T13:00:00.000Z'] });
    // Newest first, by hand, with the hidden ones in between.
    await setClips(playlistId, [...episodes.map((e) => e.id).reverse(), ...Object.values(hidden)]);
  }, 180_000);

  it('is RSS that podcast-partytime and rss-parser both read back as the studio’s data', async () => {
    const reply = await feed(playlistId);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    const expected = [...episodes].reverse();

    const party = parseFeed(reply.text);
    expect(party).not.toBeNull();
    expect(party!.title).toBe('Main feed');
    expect(party!.items).toHaveLength(expected.length);
    expected.forEach((e, i) => {
      const item = party!.items[i]!;
      expect(item.guid).toBe(e.id);
      expect(item.title).toBe(e.title);
      expect(item.enclosure).toEqual({ url: `${ORIGIN}/audio/${e.id}.${e.ext}`, length: e.size, type: e.ext === 'mp3' ? 'audio/mpeg' : 'audio/x-m4a' });
      expect(item.duration).toBe(e.duration);
      expect(item.itunesEpisode).toBe(e.episode);
      expect(item.itunesSeason).toBe(e.season);
      expect(item.podcastEpisode?.number).toBe(e.episode);
      expect(item.podcastSeason?.number).toBe(e.season);
      expect(item.pubDate?.toISOString()).toBe(e.publishedUtc);
      expect(item.podcastChapters?.url ?? null).toBe(e.chapters ? `${ORIGIN}/feeds/chapters/${e.id}.json` : null);
      expect(item.link).toBe(`${ORIGIN}/shows/${programId}/ep-${e.id.slice(0, 8)}`);
    });
    expect(party!.items[expected.length - 1]!.itunesEpisodeType).toBe('trailer');
    expect(party!.items.find((it) => it.guid === episodes[2]!.id)!.explicit).toBe(true);
    expect(party!.guid).toBe(podcastGuid(`${ORIGIN}/feeds/${playlistId}.xml`));
    expect(party!.locked).toBe(true);
    expect(party!.podcastOwner).toBe('owner@example.com');
    expect(party!.podcastFunding).toEqual([{ url: 'https://example.com/support', message: 'Support the show' }]);
    // partytime writes the person taxonomy's roles capitalised ('Host').
    expect(party!.podcastPeople?.map((p) => ({ name: p.name, role: p.role?.toLowerCase(), href: p.href }))).toEqual([{ name: 'Ada Host', role: 'host', href: 'https://example.com/ada' }]);
    expect(party!.language).toBe('en');
    expect(party!.author).toBe('Ada Host');
    expect(party!.owner).toEqual({ name: 'Ada Owner', email: 'owner@example.com' });
    expect(party!.itunesCategory).toEqual(['News > Tech News']);

    const other = await rss.parseString(reply.text);
    expect(other.title).toBe('Main feed');
    expect(other.itunes?.owner).toEqual({ name: 'Ada Owner', email: 'owner@example.com' });
    expect(other.itunes?.author).toBe('Ada Host');
    expect(other.itunes?.categories).toEqual(['News']);
    expect(other.items).toHaveLength(expected.length);
    expected.forEach((e, i) => {
      const item = other.items[i]! as Parser.Item & { duration?: string; podcastSeason?: string; podcastEpisode?: string; itunes?: Record<string, string> };
      expect(item.guid).toBe(e.id);
      expect(item.title).toBe(e.title);
      expect(item.enclosure).toEqual({ url: `${ORIGIN}/audio/${e.id}.${e.ext}`, length: String(e.size), type: e.ext === 'mp3' ? 'audio/mpeg' : 'audio/x-m4a' });
      expect(Number(item.duration)).toBe(e.duration);
      expect(item.itunes?.episode).toBe(String(e.episode));
      expect(item.itunes?.season).toBe(String(e.season));
      expect(Number(item.podcastEpisode)).toBe(e.episode);
      expect(Number(item.podcastSeason)).toBe(e.season);
      expect(new Date(item.pubDate!).toISOString()).toBe(e.publishedUtc);
      expect(item.content).toContain(`Episode <b>${e.episode}</b> notes`);
    });
  });

  it('has every tag Apple requires of a show and of an episode', async () => {
    // Apple Podcasts for Creators, "Podcast RSS feed requirements" (podcasters.apple.com/support/823):
    // required channel tags <title>, <description>, <itunes:image>, <language>, <itunes:category>,
    // <itunes:explicit>; required episode tags <title>, <enclosure> (url, length, type) and <guid>.
    // The recommended ones this studio always writes are checked with them.
    const APPLE_CHANNEL = ['title', 'description', 'itunes:image', 'language', 'itunes:category', 'itunes:explicit', 'itunes:author', 'link', 'itunes:owner', 'itunes:type'];
    const APPLE_ITEM = ['title', 'enclosure', 'guid', 'pubDate', 'itunes:duration', 'itunes:explicit', 'itunes:episodeType', 'description', 'link'];
    await test.store.query(`UPDATE programs SET data = jsonb_set(data, '{Urls}', '{"ImagePublicUrl": "/images/program/x/1"}'), version = next_row_version() WHERE id = $1`, [programId]);
    const { text } = await feed(playlistId);
    const channelXml = text.slice(text.indexOf('<channel>'), text.indexOf('<item>'));
    for (const tag of APPLE_CHANNEL) expect(channelXml, tag).toMatch(new RegExp(`<${tag}[ >/]`));
    expect(channelXml).toContain('<itunes:image href="http://localhost/images/program/x/1"/>');
    expect(channelXml).toContain('<itunes:category text="News"><itunes:category text="Tech News"/></itunes:category>');
    const items = text.split('<item>').slice(1);
    expect(items.length).toBe(episodes.length);
    for (const it of items) for (const tag of APPLE_ITEM) expect(it, tag).toMatch(new RegExp(`<${tag}[ >/]`));
  });

  it('answers 304 to the ETag or date it gave, and a new ETag after a change; gzip when asked', async () => {
    const first = await feed(playlistId, { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(first.headers.get('vary')).toContain('Accept-Encoding');
    expect(first.headers.get('cache-control')).toMatch(/public/);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+-gz"$/);
    const plain = await feed(playlistId);
    expect(plain.text).toBe(first.text);
    expect(plain.headers.get('etag')).toBe(etag.replace('-gz"', '"'));

    for (const headers of [{ 'if-none-match': etag }, { 'if-none-match': plain.headers.get('etag')! }, { 'if-none-match': `"other", ${etag}` }, { 'if-modified-since': first.headers.get('last-modified')! }]) {
      const again = await feed(playlistId, headers);
      expect(again.status, JSON.stringify(headers)).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(plain.headers.get('etag'));
    }
    // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
    expect((await feed(playlistId, { 'if-none-match': '"stale"', 'if-modified-since': first.headers.get('last-modified')! })).status).toBe(200);

    seeded.clock.advance(2000);
    const reply = await api.patch(`/api/v1/clips/${episodes[0]!.id}`, { Title: 'Episode 1, renamed' });
    expect(reply.status, reply.text).toBe(200);
    episodes[0]!.title = 'Episode 1, renamed';
    const changed = await feed(playlistId, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('Episode 1, renamed');
    expect(changed.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    expect(Date.parse(changed.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(first.headers.get('last-modified')!));
  });

  it('lists no Unlisted, Restricted, Private, unpublished or still-scheduled clip; a schedule that comes due is listed once its job applies it', async () => {
    const before = await feed(playlistId);
    for (const id of Object.values(hidden)) expect(before.text).not.toContain(id);
    // 13:00 comes and the schedule's job applies it, a write like any other (here written as the
    // job writes it, with its revision: these rows have no audio file for the real job to find):
    // the clip is listed, and the ETag says so.
    seeded.clock.now = new Date('2025-06-01T13:00:01.000Z');
    await test.store.query(
      `UPDATE clips SET data = data || '{"ScheduledVisibility": null, "VisibleAtUtc": null}'::jsonb, version = next_row_version(), modified_at_utc = modified_at_utc + interval '1 millisecond' WHERE id = $1`,
      [hidden['scheduled']],
    );
    await test.store.query(`INSERT INTO row_revisions (entity, id, version, modified_at_utc, organization_id) SELECT 'clip', id, version, modified_at_utc, organization_id FROM clips WHERE id = $1`, [hidden['scheduled']]);
    const after = await feed(playlistId, { 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.text).toContain(`<guid isPermaLink="false">${hidden['scheduled']}</guid>`);
    for (const name of ['unlisted', 'restricted', 'private', 'unpublished']) expect(after.text).not.toContain(hidden[name]!);
  });

  it('is absent (404) for a Private, Restricted, deleted or unknown playlist, a deleted program, and any other file name', async () => {
    const privateId = await createPlaylist(programId, 'Private', 'Private feed');
    const restrictedId = await createPlaylist(programId, 'Restricted', 'Members');
    const unlistedId = await createPlaylist(programId, 'Unlisted', 'By link');
    const deletedId = await createPlaylist(programId, 'Public', 'Gone');
    expect((await api.delete(`/api/v1/playlists/${deletedId}`)).status).toBe(204);
    for (const id of [privateId, restrictedId, deletedId, crypto.randomUUID()]) expect((await feed(id)).status, id).toBe(404);
    expect((await seeded.app.request(`/feeds/${playlistId}.json`)).status).toBe(404);
    expect((await seeded.app.request(`/feeds/${playlistId}`)).status).toBe(404);
    expect((await seeded.app.request(`/feeds/not-an-id.xml`)).status).toBe(404);
    // Unlisted: served by its link, asking directories not to list it.
    const unlisted = await feed(unlistedId);
    expect(unlisted.status).toBe(200);
    expect(unlisted.text).toContain('<itunes:block>Yes</itunes:block>');

    const goneProgram = await createProgram();
    const orphan = await createPlaylist(goneProgram);
    expect((await feed(orphan)).status).toBe(200);
    expect((await api.delete(`/api/v1/programs/${goneProgram}`)).status).toBe(204);
    expect((await feed(orphan)).status).toBe(404);
  });

  it('serves a listed clip’s chapters as JSON chapters, and none of a clip no listener may reach', async () => {
    const e = episodes.find((x) => x.chapters)!;
    const res = await seeded.app.request(publicPaths.chapters(e.id));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json+chapters');
    expect(await res.json()).toEqual({ version: '1.2.0', chapters: [{ startTime: 0, title: 'Intro' }, { startTime: 30.5, title: 'Main' }] });
    const again = await seeded.app.request(publicPaths.chapters(e.id), { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await seeded.app.request(publicPaths.chapters(episodes.find((x) => !x.chapters)!.id))).status).toBe(404);
    const restricted = await createClip(programId, { Title: 'Members only', Chapters: [{ StartSeconds: 0, Title: 'Secret' }] });
    await publish(programId, restricted, { visibility: 'Restricted', size: 1, duration: 1, publishedUtc: '2025-05-20T00:00:00.000Z' });
    expect((await seeded.app.request(publicPaths.chapters(restricted))).status).toBe(404);
  });

  it('keeps hostile titles well-formed: &, <, ]]> escaped, control characters removed, emoji kept', async () => {
    const id = await createClip(programId, {
      Title: 'Tom & Jerry <script>alert(1)</script> ]]> 🎙️ done',
      DescriptionHtml: '<p>Notes ]]> with <b>bold</b> & more\u0007</p>',
    });
    await publish(programId, id, { size: 5, duration: 5, publishedUtc: '2025-05-30T00:00:00.000Z' });
    // A control character a stored row may hold (written directly: the API refuses a NUL).
    await test.store.query(`UPDATE clips SET title = title || chr(1) || chr(27) || ' end', version = next_row_version() WHERE id = $1`, [id]);
    await setClips(playlistId, [id, ...episodes.map((e) => e.id).reverse()]);
    const { text } = await feed(playlistId);
    expect(text).toContain('<title>Tom &amp; Jerry &lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; 🎙️ done end</title>');
    expect(text).not.toMatch(/[\u0001\u0007\u001b]/);
    const party = parseFeed(text)!;
    expect(party.items[0]!.title).toBe('Tom & Jerry <script>alert(1)</script> ]]> 🎙️ done end');
    const other = await rss.parseString(text);
    expect(other.items[0]!.title).toBe('Tom & Jerry <script>alert(1)</script> ]]> 🎙️ done end');
    expect(other.items[0]!.content).toBe('<p>Notes ]]> with <b>bold</b> & more</p>');
  });
});

describe('feed drops', () => {
  it('lists a clip of another program in the target feed, with its own title and time, until the drop is deleted', async () => {
    const otherProgram = await createProgram();
    const clipId = await createClip(otherProgram, { Title: 'A guest episode', DescriptionHtml: '<p>From elsewhere</p>', Episode: 9, Season: 9 });
    await publish(otherProgram, clipId, { size: 4242, duration: 321, publishedUtc: '2025-05-15T00:00:00.000Z' });
    const drops = `/api/v1/clips/${clipId}/feed-drops`;

    // Refused: a playlist of the clip's own program, one that does not exist, a body without one.
    const ownPlaylist = await createPlaylist(otherProgram);
    for (const PlaylistId of [ownPlaylist, crypto.randomUUID()]) {
      const refused = await api.post(drops, { PlaylistId });
      expect(refused.status, refused.text).toBe(400);
      expect((refused.body as { Errors: Array<{ Field: string }> }).Errors[0]!.Field).toBe('PlaylistId');
    }
    expect((await api.post(drops, {})).status).toBe(400);

    const before = await feed(playlistId);
    const made = await api.post(drops, { PlaylistId: playlistId, Title: 'Dropped: a guest episode' });
    expect(made.status, made.text).toBe(201);
    const drop = made.body as { Id: string; ClipId: string; PlaylistId: string; ProgramId: string; DropAtUtc: string | null };
    expect(drop).toMatchObject({ ClipId: clipId, PlaylistId: playlistId, ProgramId: programId, DropAtUtc: null });
    expect((await api.post(drops, { PlaylistId: playlistId })).status).toBe(400); // once per feed

    const listed = await feed(playlistId, { 'if-none-match': before.headers.get('etag')! });
    expect(listed.status).toBe(200);
    const party = parseFeed(listed.text)!;
    const item = party.items.find((it) => it.guid === drop.Id)!;
    expect(item).toBeDefined();
    expect(item.title).toBe('Dropped: a guest episode');
    expect(item.enclosure).toEqual({ url: `${ORIGIN}/audio/${clipId}.mp3`, length: 4242, type: 'audio/mpeg' });
    expect(item.duration).toBe(321);
    expect(item.itunesEpisode).toBeUndefined(); // another show's numbering means nothing here
    expect(party.items[party.items.length - 1]!.guid).toBe(drop.Id); // after the playlist's own clips
    expect((await rss.parseString(listed.text)).items.some((it) => it.guid === drop.Id)).toBe(true);

    // Later: not listed until its time, then dated by it.
    seeded.clock.advance(1000);
    const later = new Date(seeded.clock.now.getTime() + 3_600_000).toISOString();
    const changed = await api.patch(`${drops}/${drop.Id}`, { DropAtUtc: later, Title: null });
    expect(changed.status, changed.text).toBe(200);
    expect((await feed(playlistId)).text).not.toContain(drop.Id);
    seeded.clock.now = new Date(Date.parse(later) + 1000);
    const due = parseFeed((await feed(playlistId)).text)!.items.find((it) => it.guid === drop.Id)!;
    expect(due.title).toBe('A guest episode');
    expect(due.pubDate?.toISOString()).toBe(later);

    const list = await api.get(drops);
    expect(list.status).toBe(200);
    expect((list.body as { Items: unknown[] }).Items).toHaveLength(1);
    expect((await api.get(`${drops}/${drop.Id}`)).status).toBe(200);
    expect((await api.delete(`${drops}/${drop.Id}`)).status).toBe(204);
    expect((await feed(playlistId)).text).not.toContain(drop.Id);
    expect((await api.get(`${drops}/${drop.Id}`)).status).toBe(404);
    expect((await api.get(drops)).body).toMatchObject({ Items: [] });
    expect(((await api.get(`${drops}?includeDeleted=true`)).body as { Items: unknown[] }).Items).toHaveLength(1);
  });

  it('refuses a target playlist the caller may not see exactly as one that does not exist, and lists no drop into one', async () => {
    // producer@example.com has content access on Morning Briefing and Book Club only.
    const producer = new AppClient(seeded.app);
    await producer.login('producer@example.com');
    producer.organizationId = ORG_DEMO;
    const [morningClip] = await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [seedId('program:morning')]);
    const hiddenPlaylist = await createPlaylist(programId); // the demo user's new program: not the producer's
    const hidden = await producer.post(`/api/v1/clips/${morningClip!.id}/feed-drops`, { PlaylistId: hiddenPlaylist });
    const nowhere = await producer.post(`/api/v1/clips/${morningClip!.id}/feed-drops`, { PlaylistId: crypto.randomUUID() });
    expect(hidden.status).toBe(400);
    expect(hidden.text).toBe(nowhere.text);
    // A drop the demo user makes into that playlist is not in the producer's list of the clip's drops.
    expect((await api.post(`/api/v1/clips/${morningClip!.id}/feed-drops`, { PlaylistId: hiddenPlaylist })).status).toBe(201);
    const seen = await producer.get(`/api/v1/clips/${morningClip!.id}/feed-drops`);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain(hiddenPlaylist);
    expect((await api.get(`/api/v1/clips/${morningClip!.id}/feed-drops`)).text).toContain(hiddenPlaylist);
  });
});

describe('podcast:guid', () => {
  it('is the UUIDv5 of the feed URL without scheme and trailing slashes (the namespace’s own example)', () => {
    // Podcasting 2.0 namespace docs, <podcast:guid>: "podnews.net/rss" → 9b024349-ccf0-5f69-a609-6b82873eab3c.
    expect(podcastGuid('https://podnews.net/rss')).toBe('9b024349-ccf0-5f69-a609-6b82873eab3c');
    expect(podcastGuid('http://podnews.net/rss//')).toBe('9b024349-ccf0-5f69-a609-6b82873eab3c');
    // RFC 9562 appendix A.4: the DNS namespace and "www.example.com".
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
});
