// A clip's chapters (issue 34), on PGlite and on PostgreSQL: saved with the clip (PATCH, the same
// applyClipChange the outbox's clip.update runs), each refused field a 400 at Chapters.<i>.<Field>;
// stored sorted; published, the feed item carries <podcast:chapters type="application/json+chapters">
// (read by podcast-partytime) and its URL serves Podcasting 2.0 JSON chapters with url and img, cached
// like the feed (ETag, 304). A chapter's image: POST /v1/chapters/images, a GIF a 415 with a body
// naming Content-Type, too large a 413, a PNG answered with its URL, which a chapter then keeps. An
// imported feed's chapters keep their url and img where they are http(s) links.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFeed } from 'podcast-partytime';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_FILE_MAX_BYTES } from '../../src/domain/artwork.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { ChaptersSchema } from '../../src/protocol/api/feeds.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { readChapters } from '../../sync-server/imports/feed.ts';
import { ORG_DEMO, seed } from '../../sync-server/seed.ts';
import { AppClient } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type ErrorBody = { Errors: Array<{ Field: string; Code: string; Message: string }> };

describe.each(storeKinds)('clip chapters on %s', (kind) => {
  let test: TestStore;
  let app: ReturnType<typeof createApp>;
  let api: AppClient;
  let blobDir: string;
  let clipId = '';
  let playlistId = '';

  beforeAll(async () => {
    blobDir = await mkdtemp(join(tmpdir(), 'castaway-chapters-'));
    process.env.CASTAWAY_BLOB_DIR = blobDir;
    test = await openTestStore(kind);
    await seed(test.store, { clips: 4 });
    app = createApp({ store: test.store, bus: createMemoryBus() });
    api = new AppClient(app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
    const program = await api.post('/api/v1/programs', { Name: `Chaptered ${kind}`, Description: 'A show in parts', Language: 'en' });
    expect(program.status, program.text).toBe(201);
    const programId = (program.body as { Id: string }).Id;
    playlistId = ((await api.post(`/api/v1/programs/${programId}/playlists`, { Title: 'Main feed', Visibility: 'Public', Description: 'Every episode' })).body as { Id: string }).Id;
    clipId = ((await api.post(`/api/v1/programs/${programId}/clips`, { Title: 'Harbour', Description: 'Boats' })).body as { Id: string }).Id;
    // What the publishing job leaves on a clip (as the feed tests write it): 10 minutes of audio.
    await test.store.query(
      `UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = 'Public', slug = 'harbour',
         data = data || jsonb_build_object('PublishedUtc', '2025-05-20T00:00:00.000Z', 'PublishedAudioSizeInBytes', 1000, 'PublishedDurationSeconds', 600, 'DurationSeconds', 600)
           || jsonb_build_object('Urls', (data->'Urls') || jsonb_build_object('AudioPublicUrl', $2::text)),
         version = next_row_version() WHERE id = $1`,
      [clipId, publicPaths.audio(clipId, 'mp3')],
    );
    expect((await api.patch(`/api/v1/playlists/${playlistId}/clips`, { ClipIds: [clipId] })).status).toBe(204);
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
    await rm(blobDir, { recursive: true, force: true });
    delete process.env.CASTAWAY_BLOB_DIR;
  });

  const patch = (Chapters: unknown) => api.patch(`/api/v1/clips/${clipId}`, { Chapters });
  const image = async (body: Uint8Array, type: string) => {
    const res = await app.request('/api/v1/chapters/images', {
      method: 'POST',
      headers: { cookie: api.cookie, 'x-xsrf-token': api.xsrf, 'x-organization-id': ORG_DEMO, 'content-type': type },
      body: body as Uint8Array<ArrayBuffer>,
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  };

  it('refuses each bad chapter at its field, and stores nothing', async () => {
    const refused = await patch([
      { StartSeconds: 0, Title: 'Intro' },
      { StartSeconds: 30, Title: ' ' },
      { StartSeconds: 0, Title: 'Again at zero', Url: 'javascript:alert(1)' },
      { StartSeconds: 600, Title: 'At the very end', ImageUrl: 'ftp://example.com/a.png' },
    ]);
    expect(refused.status, refused.text).toBe(400);
    expect((refused.body as ErrorBody).Errors.map((e) => [e.Field, e.Message])).toEqual([
      ['Chapters.1.Title', 'Give the chapter a title'],
      ['Chapters.2.StartSeconds', 'Chapter 1 already starts at 00:00:00: two chapters cannot start at the same time'],
      ['Chapters.2.Url', expect.stringContaining('http')],
      ['Chapters.3.StartSeconds', 'The audio ends at 00:10:00: a chapter must start before that'],
      ['Chapters.3.ImageUrl', expect.stringContaining('http')],
    ]);
    // A field the wire schema refuses (a start that is not a number) is a 400 naming it too.
    const typed = await patch([{ StartSeconds: 'soon', Title: 'Intro' }]);
    expect(typed.status).toBe(400);
    expect(typed.text).toContain('Chapters');
    expect(((await api.get(`/api/v1/clips/${clipId}`)).body as { Chapters: unknown[] }).Chapters).toEqual([]);
  });

  it('a chapter image: a GIF is a 415 naming Content-Type, too large a 413, a PNG answered with its URL', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).gif().toBuffer();
    const wrong = await image(gif, 'image/png');
    expect(wrong.status, wrong.text).toBe(415);
    expect((wrong.body as ErrorBody).Errors[0]).toMatchObject({ Field: 'Content-Type', Code: 'invalidFileExtension' });
    const big = await image(new Uint8Array(IMAGE_FILE_MAX_BYTES + 1).fill(0xff), 'image/jpeg');
    expect(big.status).toBe(413);
    expect(big.text).toContain('fileTooLarge');
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#2a6' } }).png().toBuffer();
    const ok = await image(png, 'image/png');
    expect(ok.status, ok.text).toBe(200);
    expect((ok.body as { Path: string }).Path).toMatch(/^\/images\/chapter\//);
  });

  it('stores chapters sorted; the feed item points at JSON chapters with url and img, cached like the feed', async () => {
    const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#a26' } }).png().toBuffer();
    const { Path } = (await image(png, 'image/png')).body as { Path: string };
    const saved = await patch([
      { StartSeconds: 65.5, Title: ' Main story ', Url: 'https://example.com/story', ImageUrl: Path },
      { StartSeconds: 0, Title: 'Cold open', Url: '', ImageUrl: null },
    ]);
    expect(saved.status, saved.text).toBe(200);
    expect((saved.body as { Chapters: unknown[] }).Chapters).toEqual([
      { StartSeconds: 0, Title: 'Cold open' },
      { StartSeconds: 65.5, Title: 'Main story', Url: 'https://example.com/story', ImageUrl: Path },
    ]);

    const xml = await (await app.request(`http://localhost${publicPaths.feed(playlistId)}`)).text();
    expect(xml).toContain(`<podcast:chapters url="http://localhost${publicPaths.chapters(clipId)}" type="application/json+chapters"/>`);
    const item = parseFeed(xml)!.items[0]!;
    expect(item.podcastChapters).toMatchObject({ url: `http://localhost${publicPaths.chapters(clipId)}`, type: 'application/json+chapters' });

    const res = await app.request(`http://localhost${publicPaths.chapters(clipId)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json+chapters; charset=utf-8');
    expect(res.headers.get('cache-control')).toBeTruthy();
    const json = ChaptersSchema.parse(await res.json());
    expect(json).toEqual({
      version: '1.2.0',
      chapters: [
        { startTime: 0, title: 'Cold open' },
        { startTime: 65.5, title: 'Main story', url: 'https://example.com/story', img: `http://localhost${Path}` },
      ],
    });
    const again = await app.request(`http://localhost${publicPaths.chapters(clipId)}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);

    // No chapters: neither the element nor the file.
    expect((await patch([])).status).toBe(200);
    expect(await (await app.request(publicPaths.feed(playlistId))).text()).not.toContain('podcast:chapters');
    expect((await app.request(publicPaths.chapters(clipId))).status).toBe(404);
  });
});

describe('chapters of an imported feed (readChapters)', () => {
  it('keeps url and img where they are http(s) links, and the chapters a table of contents lists', () => {
    const json = JSON.stringify({
      version: '1.2.0',
      chapters: [
        { startTime: 0, title: ' Intro ', url: 'https://example.com/intro', img: 'https://img.example.com/i.jpg' },
        { startTime: 30, title: 'Hidden', toc: false },
        { startTime: 60, title: 'Story', url: 'javascript:alert(1)', img: 'not a link' },
      ],
    });
    expect(readChapters(json)).toEqual([
      { StartSeconds: 0, Title: 'Intro', Url: 'https://example.com/intro', ImageUrl: 'https://img.example.com/i.jpg' },
      { StartSeconds: 60, Title: 'Story' },
    ]);
  });
});
