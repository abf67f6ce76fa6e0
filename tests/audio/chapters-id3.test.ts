// A clip's chapters inside its published MP3 (issue 34): ID3v2.3 CHAP and CTOC frames written by
// sync-server/audio/id3-chapters.ts, read back by ffprobe (the system's ffmpeg, written by others):
// each chapter's title and its start and end, the uploaded file's own tag frames carried over and
// its audio after the tag unchanged byte for byte. Through the app: a processed MP3 clip given
// chapters is made again by its processing job; the file served has the chapters, its length is
// PublishedAudioSizeInBytes, a byte range of it agrees; chapters removed, the file is the upload again.
// Chapter images: read back by music-metadata (a maintained tag parser, written by others) and by
// ffprobe (which dropped such chapters while the tag was ID3v2.4), an uploaded chapter image is the
// APIC of its CHAP, byte for byte the image's medium variant as served, and an image elsewhere is a
// WXXX link, the chapter's own link kept beside it. An ID3v2.4 upload's own frames are carried over
// in ID3v2.3's encodings.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseBuffer } from 'music-metadata';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAPTER_IMAGE_LINK_DESCRIPTION, existingTag, mp3WithChapters } from '../../sync-server/audio/id3-chapters.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { AppClient, seededApp, type SeededApp } from '../server/app-client.ts';
import { openTestStore, type TestStore } from '../server/test-store.ts';
import { fixturePath } from './fixtures.ts';

const run = promisify(execFile);
type Probed = { chapters: Array<{ start_time: string; end_time: string; tags?: { title?: string } }>; format: { tags?: Record<string, string> } };
let dir = '';

/** ffprobe's reading of the file's chapters and tags. */
async function probe(bytes: Uint8Array): Promise<Probed> {
  const path = join(dir, `probe-${Math.random().toString(36).slice(2)}.mp3`);
  await writeFile(path, bytes);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_chapters', '-show_format', '-of', 'json', path]);
  return JSON.parse(stdout) as Probed;
}
const chaptersOf = (p: Probed) => p.chapters.map((c) => [Number(c.start_time), Number(c.end_time), c.tags?.title]);
const streamBytes = async (s: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(s).arrayBuffer());

const CHAPTERS = [
  { StartSeconds: 4.5, Title: 'Le café d’après', Url: 'https://example.com/after' },
  { StartSeconds: 0, Title: 'Intro' },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'castaway-id3-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ID3 chapters', () => {
  it('ffprobe reads the chapters; the upload’s own frames stay and its audio follows unchanged', async () => {
    const original = new Uint8Array(await readFile(fixturePath('speech-12s.mp3')));
    const tagged = await streamBytes(await mp3WithChapters(new Blob([original]), CHAPTERS, 12.04));
    const read = await probe(tagged);
    expect(chaptersOf(read)).toEqual([[0, 4.5, 'Intro'], [4.5, 12.04, 'Le café d’après']]);
    // The fixture's own tag (its encoder, TSSE) is carried over.
    expect(read.format.tags?.['encoder']).toBe('Lavf59.27.100');
    const before = existingTag(original);
    const after = existingTag(tagged);
    expect(before.length).toBeGreaterThan(0);
    expect(tagged.subarray(after.length)).toEqual(original.subarray(before.length));
    // Tagged again (new chapters): the old chapters are replaced, not added to.
    const again = await streamBytes(await mp3WithChapters(new Blob([tagged]), [{ StartSeconds: 0, Title: 'Only one' }], 12.04));
    expect(chaptersOf(await probe(again))).toEqual([[0, 12.04, 'Only one']]);
  });

  it('chapters with images: ffprobe and music-metadata read every chapter of the ID3v2.3 tag', async () => {
    const original = new Uint8Array(await readFile(fixturePath('speech-12s.mp3')));
    const jpeg = new Uint8Array(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#36c' } }).jpeg().toBuffer());
    const chapters = [
      { StartSeconds: 0, Title: 'Ouverture ☕', ImageUrl: '/images/chapter/0b8e1d7e-4f0a-4c52-9d55-0a1f3c6b2e11/1', Url: 'https://example.com/ouverture' },
      { StartSeconds: 4.5, Title: 'Elsewhere', ImageUrl: 'https://images.example.com/part-2.png' },
      { StartSeconds: 8, Title: 'Last' },
    ];
    const tagged = await streamBytes(await mp3WithChapters(new Blob([original]), chapters, 12.04, async () => ({ mimeType: 'image/jpeg', bytes: jpeg })));
    expect(Array.from(tagged.subarray(0, 4))).toEqual([0x49, 0x44, 0x33, 3]);
    expect(jpeg.length).toBeGreaterThan(127);
    expect(chaptersOf(await probe(tagged))).toEqual([[0, 4.5, 'Ouverture ☕'], [4.5, 8, 'Elsewhere'], [8, 12.04, 'Last']]);
    const read = await parseBuffer(tagged, { mimeType: 'audio/mpeg' });
    expect(read.format.tagTypes).toContain('ID3v2.3');
    const [first, second, third] = read.format.chapters ?? [];
    expect(first).toMatchObject({ title: 'Ouverture ☕', start: 0, end: 4.5, url: { description: '', url: 'https://example.com/ouverture' } });
    expect(new Uint8Array(first!.image!.data)).toEqual(jpeg);
    expect(second).toMatchObject({ title: 'Elsewhere', url: { description: CHAPTER_IMAGE_LINK_DESCRIPTION, url: 'https://images.example.com/part-2.png' } });
    expect(third).toMatchObject({ title: 'Last', start: 8 });
  });

  it('an ID3v2.4 upload’s frames are carried over as ID3v2.3 has them', async () => {
    const audio = new Uint8Array(await readFile(fixturePath('speech-12s.mp3'))).subarray(existingTag(new Uint8Array(await readFile(fixturePath('speech-12s.mp3')))).length);
    const utf8 = (text: string) => new TextEncoder().encode(text);
    const v24Frame = (id: string, data: Uint8Array) => {
      // Every frame here is under 128 bytes, where a syncsafe size is the plain number.
      expect(data.length).toBeLessThan(128);
      return Uint8Array.from([...utf8(id), 0, 0, 0, data.length, 0, 0, ...data]);
    };
    const frames = [
      v24Frame('TIT2', Uint8Array.from([3, ...utf8('Épisode ☕ un'), 0])),
      v24Frame('TPE1', Uint8Array.from([3, ...utf8('Ana'), 0, ...utf8('Bo')])),
      v24Frame('TDRC', Uint8Array.from([0, ...utf8('2026-12-06')])),
      v24Frame('TXXX', Uint8Array.from([3, ...utf8('série'), 0, ...utf8('Matin ☀')])),
      v24Frame('COMM', Uint8Array.from([3, ...utf8('fra'), 0, ...utf8('Très bien ✓')])),
      // Only ID3v2.4 has it: left out.
      v24Frame('TMOO', Uint8Array.from([0, ...utf8('calm')])),
    ];
    const body = frames.flatMap((f) => [...f]);
    const upload = Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, body.length >> 7, body.length & 0x7f, ...body, ...audio]);
    const tagged = await streamBytes(await mp3WithChapters(new Blob([upload]), [{ StartSeconds: 0, Title: 'Intro' }], 12.04));
    expect(tagged.subarray(existingTag(tagged).length)).toEqual(audio);
    const read = await parseBuffer(tagged, { mimeType: 'audio/mpeg' });
    expect(read.format.tagTypes).toContain('ID3v2.3');
    expect(read.common.title).toBe('Épisode ☕ un');
    // ID3v2.4's zero-byte separated values are 2.3's '/'-separated ones.
    expect(read.common.artists).toEqual(['Ana', 'Bo']);
    expect(read.common.year).toBe(2026);
    expect(read.common.comment?.map((c) => (typeof c === 'string' ? c : c.text))).toEqual(['Très bien ✓']);
    const native = read.native['ID3v2.3']!.map((t) => t.id);
    expect(native).toContain('TXXX:série');
    expect(native).not.toContain('TMOO');
    expect(read.native['ID3v2.3']!.find((t) => t.id === 'TXXX:série')?.value).toBe('Matin ☀');
    const probed = await probe(tagged);
    expect(probed.format.tags).toMatchObject({ title: 'Épisode ☕ un', artist: 'Ana/Bo', série: 'Matin ☀', comment: 'Très bien ✓' });
    expect(chaptersOf(probed)).toEqual([[0, 12.04, 'Intro']]);
  });
});

describe('the published MP3 of a clip with chapters', () => {
  let t: TestStore;
  let s: SeededApp;
  let api: AppClient;
  let blobDir = '';
  beforeAll(async () => {
    blobDir = await mkdtemp(join(tmpdir(), 'castaway-id3-blobs-'));
    process.env.CASTAWAY_BLOB_DIR = blobDir;
    t = await openTestStore('pglite');
    s = await seededApp(t.store);
    api = new AppClient(s.app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
    await rm(blobDir, { recursive: true, force: true });
    delete process.env.CASTAWAY_BLOB_DIR;
  });

  it('is made again with the chapters; its size is PublishedAudioSizeInBytes and byte ranges agree', async () => {
    const clipId = ((await api.post(`/api/v1/programs/${seedId('program:morning')}/clips`, { Title: 'Tagged' })).body as { Id: string }).Id;
    const original = new Uint8Array(await readFile(fixturePath('speech-12s.mp3')));
    const put = await s.app.request(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, {
      method: 'PUT',
      headers: { cookie: api.cookie, 'x-xsrf-token': api.xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'application/octet-stream' },
      body: original as Uint8Array<ArrayBuffer>,
    });
    expect(put.status, await put.text()).toBe(202);
    await s.app.jobs.drain();
    const served = async () => {
      const clip = (await api.get(`/api/v1/clips/${clipId}`)).body as { PublishedAudioSizeInBytes: number; Urls: { AudioPrivateUrl: string } };
      const res = await s.app.request(clip.Urls.AudioPrivateUrl, { headers: { cookie: api.cookie } });
      expect(res.status).toBe(200);
      return { clip, bytes: new Uint8Array(await res.arrayBuffer()) };
    };
    const plain = await served();
    expect(plain.bytes).toEqual(original);

    const saved = await api.patch(`/api/v1/clips/${clipId}`, { Chapters: CHAPTERS });
    expect(saved.status, saved.text).toBe(200);
    await s.app.jobs.drain();
    const withChapters = await served();
    expect(withChapters.clip.Urls.AudioPrivateUrl).not.toBe(plain.clip.Urls.AudioPrivateUrl);
    expect(withChapters.bytes.length).toBe(withChapters.clip.PublishedAudioSizeInBytes);
    expect(chaptersOf(await probe(withChapters.bytes)).map(([start, , title]) => [start, title])).toEqual([[0, 'Intro'], [4.5, 'Le café d’après']]);
    const range = await s.app.request(withChapters.clip.Urls.AudioPrivateUrl, { headers: { cookie: api.cookie, range: 'bytes=-100' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes ${withChapters.bytes.length - 100}-${withChapters.bytes.length - 1}/${withChapters.bytes.length}`);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(withChapters.bytes.subarray(-100));

    // A change that leaves the chapters as they are makes nothing again.
    expect((await api.patch(`/api/v1/clips/${clipId}`, { Title: 'Tagged again' })).status).toBe(200);
    await s.app.jobs.drain();
    expect((await served()).clip.Urls.AudioPrivateUrl).toBe(withChapters.clip.Urls.AudioPrivateUrl);

    // Chapter images: one uploaded here (in the tag as its bytes), one elsewhere (its link, not fetched).
    const jpeg = await sharp({ create: { width: 900, height: 900, channels: 3, background: '#c63' } }).jpeg().toBuffer();
    const uploaded = await s.app.request('/api/v1/chapters/images', {
      method: 'POST',
      headers: { cookie: api.cookie, 'x-xsrf-token': api.xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'image/jpeg' },
      body: new Uint8Array(jpeg) as Uint8Array<ArrayBuffer>,
    });
    expect(uploaded.status).toBe(200);
    const { Path } = (await uploaded.json()) as { Path: string };
    const pictured = [
      { StartSeconds: 0, Title: 'Intro', ImageUrl: Path, Url: 'https://example.com/intro' },
      { StartSeconds: 4.5, Title: 'Elsewhere', ImageUrl: 'https://images.example.com/part-2.png' },
    ];
    expect((await api.patch(`/api/v1/clips/${clipId}`, { Chapters: pictured })).status).toBe(200);
    await s.app.jobs.drain();
    const withImages = await served();
    expect(withImages.bytes.length).toBe(withImages.clip.PublishedAudioSizeInBytes);
    const medium = await s.app.request(`${Path}?size=medium`);
    expect(medium.status).toBe(200);
    const mediumBytes = new Uint8Array(await medium.arrayBuffer());
    const read = await parseBuffer(withImages.bytes, { mimeType: 'audio/mpeg' });
    const [intro, elsewhere] = read.format.chapters ?? [];
    expect(intro).toMatchObject({ title: 'Intro', start: 0, end: 4.5, url: { description: '', url: 'https://example.com/intro' } });
    expect(intro!.image).toMatchObject({ format: 'image/jpeg', type: 'Other' });
    expect(new Uint8Array(intro!.image!.data)).toEqual(mediumBytes);
    expect(elsewhere).toMatchObject({ title: 'Elsewhere', start: 4.5, url: { description: CHAPTER_IMAGE_LINK_DESCRIPTION, url: 'https://images.example.com/part-2.png' } });
    expect(elsewhere!.image).toBeUndefined();
    // ffprobe too reads both, the one with its image first: the tag is ID3v2.3, whose frame sizes
    // ffmpeg reads as they are written (in 2.4 it dropped a chapter whose image made a sub-frame of
    // 128 bytes or more: it read the syncsafe sizes as plain numbers).
    expect(chaptersOf(await probe(withImages.bytes)).map(([start, , title]) => [start, title])).toEqual([[0, 'Intro'], [4.5, 'Elsewhere']]);

    // Chapters removed: the upload as it was.
    expect((await api.patch(`/api/v1/clips/${clipId}`, { Chapters: [] })).status).toBe(200);
    await s.app.jobs.drain();
    const removed = await served();
    expect(removed.bytes).toEqual(original);
    expect(removed.clip.PublishedAudioSizeInBytes).toBe(original.length);
  }, 120_000);
});
