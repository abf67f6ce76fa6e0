// Imports from another podcast host, end to end on PGlite with the real parts: a real published
// feed (tests/fixtures/imports/1865-feed.xml, see its README) served by a local HTTP server on
// 127.0.0.1, its enclosures rewritten to real audio from ../shared/fixtures/audio and its artwork
// to a PNG made here; the app's own job runner drained to the end (feed, episodes' audio, the
// upload pipeline's processing).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, serverMutations } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { ImportErrorCode } from '../../src/domain/imports.ts';
import type { Import } from '../../src/protocol/api/imports.ts';
import { IMPORT_AUDIO_JOB, IMPORT_FEED_JOB, IMPORT_SERVER_PROBLEM, importService } from '../../sync-server/imports/service.ts';
import { audioService } from '../../sync-server/audio/service.ts';
import { jobContext } from '../../sync-server/jobs/runner.ts';
import { capturedLog } from '../helpers/captured-log.ts';
import { safeGet } from '../../sync-server/net/outbound.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { openTestStore, type TestStore } from './test-store.ts';
import { parseFeed } from 'podcast-partytime';
import { podcastGuid } from '../../sync-server/feeds/rss.ts';
import { signIn } from '../helpers/sign-in.ts';

type App = ReturnType<typeof createApp>;

const FIXTURE = readFileSync(join(import.meta.dirname, '../fixtures/imports/1865-feed.xml'), 'utf8');
const GUIDS = [...FIXTURE.matchAll(/<guid[^>]*>([^<]+)<\/guid>/g)].map((m) => m[1]!);

/** A real PNG (RGB, 64×64), written here: signature, IHDR, one IDAT, IEND. */
function png(size = 64): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) rows.set([x * 4, y * 4, 128], y * (size * 3 + 1) + 1 + x * 3);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** The feed with its enclosures (in item order) and artwork pointed at the local server. */
function localFeed(xml: string, base: string, audio: string[]): string {
  let i = 0;
  return xml
    .replace(/<enclosure url="[^"]*"/g, () => `<enclosure url="${base}${audio[i++] ?? '/audio/speech-12s.mp3'}"`)
    .replace(/<itunes:image href="[^"]*"/g, `<itunes:image href="${base}/art.png"`)
    .replace(/<url>https:[^<]*<\/url>/g, `<url>${base}/art.png</url>`);
}

let test: TestStore;
let app: App;
let strictApp: App;
let blobDir: string;
let server: Server;
let base = '';
let feedXml = '';
const requests: string[] = [];
let connections = 0;
/** /audio/held-<name>.mp3: its first request waits for `release` and is then answered `first`
 *  (404, or the audio); later ones get the audio. /feeds/<name>.xml: feeds[name]. */
const held = new Map<string, { calls: number; first: 404 | 200; arrived: () => void; release: () => void }>();
const feeds = new Map<string, string>();
let cookie = '';
let xsrf = '';

async function call(path: string, init: { method?: string; body?: unknown; as?: { cookie: string; xsrf: string }; on?: App } = {}): Promise<Response> {
  const who = init.as ?? { cookie, xsrf };
  const headers: Record<string, string> = { cookie: who.cookie, 'x-organization-id': ORG_DEMO };
  if (init.method && init.method !== 'GET') headers['x-xsrf-token'] = who.xsrf;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return (init.on ?? app).request(path, { method: init.method ?? 'GET', headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
}

async function login(email: string, on: App = app): Promise<{ cookie: string; xsrf: string }> {
  const { cookie, 'x-xsrf-token': xsrf } = await signIn(on.request, email);
  return { cookie, xsrf };
}

async function importOf(id: string): Promise<Import> {
  const res = await call('/api/internal/imports');
  expect(res.status).toBe(200);
  const list = (await res.json()) as { Items: Import[] };
  return list.Items.find((i) => i.Id === id)!;
}

/** The podcast:guid of the studio's feed of a playlist, made Public for it. */
async function publicGuid(playlistId: string): Promise<string | undefined> {
  const made = await call(`/api/v1/playlists/${playlistId}`, { method: 'PATCH', body: { Visibility: 'Public' } });
  expect(made.status, await made.clone().text()).toBe(200);
  const feed = await app.request(`http://localhost/feeds/${playlistId}.xml`);
  expect(feed.status).toBe(200);
  return parseFeed(await feed.text())?.guid;
}

async function startImport(body: Record<string, string>): Promise<Import> {
  const res = await call('/api/internal/imports', { method: 'POST', body });
  expect(res.status, await res.clone().text()).toBe(200);
  const started = (await res.json()) as Import;
  expect(started.Status).toBe('Busy');
  await app.jobs.drain();
  return importOf(started.Id);
}

const rowOf = async (table: 'programs' | 'playlists' | 'clips', id: string) =>
  (await test.store.query<{ data: Record<string, unknown>; title?: string; name?: string; state?: string; clip_ids?: string[] }>(`SELECT * FROM ${table} WHERE id = $1`, [id]))[0]!;

beforeAll(async () => {
  test = await openTestStore('pglite');
  await seed(test.store, { clips: 2 });
  blobDir = await mkdtemp(join(tmpdir(), 'castaway-imports-'));
  process.env.CASTAWAY_BLOB_DIR = blobDir;
  process.env.CASTAWAY_IMAGE_FETCH_ALLOW_LOOPBACK = '1';
  const art = png();
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    if (url === '/feed.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(feedXml);
    if (url === '/art.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(art);
    if (url === '/chapters.json') return void res.writeHead(200, { 'content-type': 'application/json+chapters' }).end(JSON.stringify({ version: '1.2.0', chapters: [{ startTime: 0, title: 'Cold open' }, { startTime: 6.5, title: 'The trial' }] }));
    if (url === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    const feed = /^\/feeds\/([\w-]+)\.xml$/.exec(url);
    if (feed && feeds.has(feed[1]!)) return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(feeds.get(feed[1]!));
    const hold = held.get(/^\/audio\/held-([\w-]+)\.mp3$/.exec(url)?.[1] ?? '');
    if (hold) {
      const mp3 = () => res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(readFileSync(fixturePath('speech-12s.mp3')));
      if (hold.calls++ > 0) return void mp3();
      hold.arrived();
      return void new Promise<void>((resolve) => (hold.release = resolve)).then(() => (hold.first === 404 ? res.writeHead(404).end() : mp3()));
    }
    // Says the whole file's length, sends half of it and hangs up.
    if (url === '/audio/cut-short.mp3') {
      const bytes = readFileSync(fixturePath('speech-12s.mp3'));
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': bytes.length });
      return void res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
    }
    const audio = /^\/audio\/([\w.-]+)$/.exec(url);
    if (audio) {
      try {
        const bytes = readFileSync(fixturePath(audio[1]!));
        return void res.writeHead(200, { 'content-type': audio[1]!.endsWith('.m4a') ? 'audio/mp4' : 'audio/mpeg', 'content-length': bytes.length }).end(bytes);
      } catch {
        // missing: 404 below
      }
    }
    res.writeHead(404).end();
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = createApp({ store: test.store, bus: createMemoryBus(), imports: { allowLoopback: true } });
  strictApp = createApp({ store: test.store, bus: createMemoryBus() });
  ({ cookie, xsrf } = await login('demo@example.com'));
}, 60_000);

afterAll(async () => {
  delete process.env.CASTAWAY_IMAGE_FETCH_ALLOW_LOOPBACK;
  await new Promise((resolve) => server?.close(resolve));
  await test?.drop();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

describe('imports from another host', () => {
  let first: Import;

  it('an import makes the program, its playlist and a clip per episode with the feed’s metadata and processed audio', async () => {
    feedXml = localFeed(FIXTURE, base, ['/audio/speech-12s.mp3', '/audio/speech-12s.m4a', '/audio/speech-12s.mp3']);
    first = await startImport({ FeedUrl: `${base}/feed.xml` });
    expect(first.Status, JSON.stringify(first.Episodes)).toBe('Success');
    expect(first.Title).toBe('1865');
    expect(first.Counts).toMatchObject({ Episodes: 3, Done: 3, Failed: 0, Created: 3, Updated: 0 });
    expect(first.ArtworkUrl).toBe(`${base}/art.png`);

    const program = await rowOf('programs', first.ProgramId!);
    expect(program.name).toBe('1865');
    // The podcast fields of the Program row, where the row has them (ProgramPatchSchema).
    expect(program.data).toMatchObject({ Author: 'Airship / Wondery', OwnerName: 'Airship / Wondery', OwnerEmail: '1865@airship.fm', Language: 'en', Category: 'fiction', Subcategory: 'fiction.drama', Explicit: false, ItunesType: 'serial' });
    const playlist = await rowOf('playlists', first.PlaylistId!);
    const clipIds = playlist.clip_ids!;
    expect(clipIds).toEqual(first.Episodes.map((e) => e.ClipId));

    const clips = await Promise.all(clipIds.map((id) => rowOf('clips', id)));
    expect(clips.map((c) => c.title)).toEqual(["Introducing 'History Daily' From Host Lindsay Graham", 'Inside the Episode: S2E10', 'Cincinnatus | 10']);
    expect(clips.map((c) => c.data['ImportedId'])).toEqual(GUIDS);
    expect(clips.map((c) => c.data['EpisodeType'])).toEqual(['Trailer', 'Bonus', 'Full']);
    expect(clips.map((c) => [c.data['Season'], c.data['Episode']])).toEqual([[null, null], [2, null], [2, 10]]);
    expect(clips.map((c) => c.data['PublishedUtc'])).toEqual(['2021-11-03T08:00:00.000Z', '2021-07-13T08:00:00.000Z', '2021-07-13T07:30:00.000Z']);
    expect(clips[2]!.data['DescriptionHtml']).toMatch(/^<p>In this season finale, Grant’s decision/);
    expect(clips[2]!.data['Description']).toMatch(/^In this season finale, Grant’s decision/);
    expect(clips[2]!.data['Description']).not.toContain('<p>');
    expect(clips[2]!.data['ContentRating']).toBe('Clean');
    // Processed as an upload: Ready, with the fixture's duration and waveforms.
    for (const c of clips) {
      expect(c.state).toBe('Ready');
      expect(c.data['DurationSeconds'] as number).toBeGreaterThan(11.5);
      expect(c.data['DurationSeconds'] as number).toBeLessThan(12.5);
      expect((c.data['Urls'] as Record<string, string | null>)['WaveformHighResUrl']).not.toBeNull();
    }
    expect(clips[1]!.data['UploadedAudioFileName']).toBe('speech-12s.m4a');
    // The artwork went to the studio's image storage, fetched from the local server.
    expect((program.data['Urls'] as Record<string, string | null>)['ImagePublicUrl']).toMatch(/^\/images\//);
    // The show keeps its identity: the studio's feed says the podcast:guid of the old feed's own
    // URL (its atom:link rel=self; the feed has no podcast:guid of its own).
    expect(await publicGuid(first.PlaylistId!)).toBe(podcastGuid('https://rss.art19.com/1865'));
  }, 60_000);

  it('importing the feed again after it changed updates the clips and adds the new episode, without duplicating or fetching unchanged audio again', async () => {
    const newItem = `<item>
      <title>Reconstruction | 11</title>
      <description><![CDATA[<p>A new episode.</p>]]></description>
      <itunes:episodeType>full</itunes:episodeType>
      <itunes:episode>11</itunes:episode>
      <itunes:season>2</itunes:season>
      <guid isPermaLink="false">gid://castaway-test/new-episode-11</guid>
      <pubDate>Tue, 20 Jul 2021 07:30:00 -0000</pubDate>
      <podcast:chapters url="${base}/chapters.json" type="application/json+chapters"/>
      <enclosure url="${base}/audio/speech-12s.mp3" type="audio/mpeg" length="96592"/>
    </item>`;
    const changed = FIXTURE.replace('<title>Inside the Episode: S2E10</title>', '<title>Inside the Episode: Season 2, Episode 10</title>')
      .replace('xmlns:art19=', 'xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:art19=')
      .replace('<item>', `${newItem}\n    <item>`);
    feedXml = localFeed(changed, base, ['/audio/speech-12s.mp3', '/audio/speech-12s.mp3', '/audio/speech-12s.m4a', '/audio/speech-12s.mp3']);
    // The new item's enclosure is already local; localFeed rewrote it to the same file.
    const audioBefore = requests.filter((r) => r.startsWith('/audio/')).length;
    const second = await startImport({ FeedUrl: `${base}/feed.xml` });
    expect(second.Status, JSON.stringify(second.Episodes)).toBe('Success');
    expect([second.ProgramId, second.PlaylistId]).toEqual([first.ProgramId, first.PlaylistId]);
    expect(second.Counts).toMatchObject({ Episodes: 4, Done: 4, Created: 1, Updated: 3 });
    expect(requests.filter((r) => r.startsWith('/audio/')).length - audioBefore).toBe(1);

    const clipIds = (await rowOf('playlists', first.PlaylistId!)).clip_ids!;
    expect(clipIds).toHaveLength(4);
    expect(clipIds.slice(1)).toEqual(first.Episodes.map((e) => e.ClipId));
    const [{ n }] = (await test.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM clips WHERE program_id = $1 AND NOT deleted`, [first.ProgramId])) as [{ n: number }];
    expect(n).toBe(4);
    const edited = await rowOf('clips', first.Episodes[1]!.ClipId!);
    expect(edited.title).toBe('Inside the Episode: Season 2, Episode 10');
    expect(edited.state).toBe('Ready');
    const added = await rowOf('clips', clipIds[0]!);
    expect(added.title).toBe('Reconstruction | 11');
    expect(added.data['Chapters']).toEqual([{ StartSeconds: 0, Title: 'Cold open' }, { StartSeconds: 6.5, Title: 'The trial' }]);
    expect(added.state).toBe('Ready');

    // The playlist's own refresh: the same feed again, nothing new.
    const res = await call(`/api/internal/playlists/${first.PlaylistId}/imports`, { method: 'PATCH' });
    expect(res.status).toBe(200);
    await app.jobs.drain();
    const again = await importOf(((await res.json()) as Import).Id);
    expect(again.Status).toBe('Success');
    expect(again.Counts).toMatchObject({ Episodes: 4, Created: 0, Updated: 4 });
    const list = (await (await call(`/api/internal/playlists/${first.PlaylistId}/imports`)).json()) as { Items: Import[] };
    expect(list.Items.map((i) => i.Id)).toEqual([again.Id, second.Id, first.Id]);
  }, 60_000);

  it('an uploaded feed whose episodes fail (a 404, a redirect to the metadata address) reports each reason while the others succeed', async () => {
    const guid = 'c7d8e4f1-7a2b-5c3d-9e4f-0a1b2c3d4e5f';
    const xml = localFeed(FIXTURE, base, ['/audio/speech-12s.mp3', '/audio/gone.mp3', '/to-metadata'])
      .replace('https://rss.art19.com/1865', `${base}/uploaded-1865`)
      .replace('<rss ', '<rss xmlns:podcast="https://podcastindex.org/namespace/1.0" ')
      .replace('<channel>', `<channel>\n    <podcast:guid>${guid.toUpperCase()}</podcast:guid>`);
    const done = await startImport({ FeedXml: xml });
    // A feed's own podcast:guid is the show's, wherever it is served from.
    expect(await publicGuid(done.PlaylistId!)).toBe(guid);
    expect(done.Status).toBe('Failed');
    expect(done.Source).toBe('Xml');
    expect(done.ProgramId).not.toBe(first.ProgramId);
    const [ok, gone, metadata] = done.Episodes;
    expect(ok).toMatchObject({ State: 'Done', ErrorCode: null });
    expect(gone).toMatchObject({ State: 'Failed', ErrorCode: ImportErrorCode.HttpStatus, Reason: 'the host answered 404' });
    expect(metadata).toMatchObject({ State: 'Failed', ErrorCode: ImportErrorCode.RefusedTarget });
    expect(metadata!.Reason).toContain('169.254.169.254');
    expect(done.Counts).toMatchObject({ Episodes: 3, Done: 1, Failed: 2 });
    expect((await rowOf('clips', ok!.ClipId!)).state).toBe('Ready');
    // Retried (PUT): the failures are tried again and stay failures, with the same reasons; the
    // audio that arrived is not fetched again; nothing is duplicated.
    const audioBefore = requests.filter((r) => r.startsWith('/audio/')).length;
    expect((await call('/api/internal/imports', { method: 'PUT', body: { ImportId: done.Id } })).status).toBe(204);
    await app.jobs.drain();
    const retried = await importOf(done.Id);
    expect(retried.Episodes.map((e) => e.State)).toEqual(['Done', 'Failed', 'Failed']);
    expect(retried.Episodes.map((e) => e.ClipId)).toEqual(done.Episodes.map((e) => e.ClipId));
    expect(retried.Episodes[1]).toMatchObject({ ErrorCode: ImportErrorCode.HttpStatus, Reason: 'the host answered 404' });
    expect(requests.filter((r) => r.startsWith('/audio/')).slice(audioBefore)).toEqual(['/audio/gone.mp3']);
  }, 60_000);
});

describe('a retry while an episode\'s audio is on its way', () => {
  /** An import of feeds[name] (its first episode's enclosure /audio/held-<name>.mp3) on an app
   *  that runs two import jobs at once, so that a retry's feed job runs beside the held audio job;
   *  answers once that fetch is held. */
  async function heldImport(name: string, first: 404 | 200, enclosures: string[]) {
    const app = createApp({ store: test.store, bus: createMemoryBus(), imports: { allowLoopback: true }, jobs: { concurrency: { imports: 2 } } });
    const arrived = new Promise<void>((resolve) => held.set(name, { calls: 0, first, arrived: resolve, release: () => undefined }));
    feeds.set(name, localFeed(FIXTURE, base, [`/audio/held-${name}.mp3`, ...enclosures]));
    const res = await call('/api/internal/imports', { method: 'POST', body: { FeedUrl: `${base}/feeds/${name}.xml` }, on: app });
    expect(res.status, await res.clone().text()).toBe(200);
    const started = (await res.json()) as Import;
    const draining = app.jobs.drain();
    await arrived;
    return {
      started,
      /** The import retried from its source while the fetch is held. */
      retry: async () => expect((await call('/api/internal/imports', { method: 'PUT', body: { ImportId: started.Id }, on: app })).status).toBe(204),
      /** Lets the held fetch answer, and runs every job to the end: the import as it ends. */
      release: async () => {
        held.get(name)!.release();
        await draining;
        await app.jobs.drain();
        return importOf(started.Id);
      },
      /** The audio jobs of the import's first episode (the held one's). */
      audioJobs: async () => {
        const { Guid } = (await importOf(started.Id)).Episodes[0]!;
        return test.store.query<{ rerun: boolean; clip: string }>(
          `SELECT rerun, payload->>'clipId' AS clip FROM jobs WHERE kind = $1 AND payload->>'importId' = $2 AND payload->>'guid' = $3`,
          [IMPORT_AUDIO_JOB, started.Id, Guid],
        );
      },
    };
  }

  it('an episode whose import is retried while its audio fetch fails is fetched again: the failure leaves it to the run the retry asked for', async () => {
    const race = await heldImport('fails', 404, ['/audio/speech-12s.mp3', '/audio/speech-12s.mp3']);
    // The retry queues that episode again, asking its running job for another run.
    await race.retry();
    await expect.poll(async () => (await race.audioJobs()).some((j) => j.rerun), { timeout: 30_000 }).toBe(true);
    // The held fetch now fails for good (a 404); the run the retry asked for fetches the audio.
    const done = await race.release();
    expect(done.Episodes[0], JSON.stringify(done.Episodes)).toMatchObject({ State: 'Done', ErrorCode: null });
    expect(done.Status).toBe('Success');
    expect(requests.filter((r) => r === '/audio/held-fails.mp3')).toHaveLength(2);
  }, 60_000);

  it('an episode whose enclosure changes while its old one is fetched gets the new one: the old fetch\'s Done leaves it to the run the retry asked for', async () => {
    const race = await heldImport('moved', 200, ['/audio/speech-12s.mp3', '/audio/speech-12s.mp3']);
    // The feed now points the first episode at another file, and the import is retried.
    feeds.set('moved', localFeed(FIXTURE, base, ['/audio/speech-12s.m4a', '/audio/speech-12s.mp3', '/audio/speech-12s.mp3']));
    await race.retry();
    await expect.poll(async () => (await race.audioJobs()).some((j) => j.rerun), { timeout: 30_000 }).toBe(true);
    const done = await race.release();
    expect(done.Episodes[0], JSON.stringify(done.Episodes)).toMatchObject({ State: 'Done', AudioUrl: `${base}/audio/speech-12s.m4a` });
    expect((await rowOf('clips', done.Episodes[0]!.ClipId!)).data['UploadedAudioFileName']).toBe('speech-12s.m4a');
  }, 60_000);

  it('an episode whose clip is deleted and made again by a retry while its audio fetch fails is fetched by the new clip\'s job', async () => {
    const race = await heldImport('remade', 404, ['/audio/speech-12s.mp3', '/audio/speech-12s.mp3']);
    const first = (await importOf(race.started.Id)).Episodes[0]!.ClipId!;
    const clip = (await (await call(`/api/v1/clips/${first}`)).json()) as { ModifiedAtUtc: string };
    const deleted = await app.request(`/api/v1/clips/${first}`, { method: 'DELETE', headers: { cookie, 'x-xsrf-token': xsrf, 'x-organization-id': ORG_DEMO, 'if-match': `"${clip.ModifiedAtUtc}"` } });
    expect(deleted.status, await deleted.clone().text()).toBe(204);
    // The retry makes the episode a new clip, whose own job is queued (no run asked of the held one).
    await race.retry();
    await expect.poll(async () => (await race.audioJobs()).some((j) => j.clip !== first), { timeout: 30_000 }).toBe(true);
    const done = await race.release();
    expect(done.Episodes[0], JSON.stringify(done.Episodes)).toMatchObject({ State: 'Done', ErrorCode: null });
    expect(done.Episodes[0]!.ClipId).not.toBe(first);
    expect(requests.filter((r) => r === '/audio/held-remade.mp3')).toHaveLength(2);
  }, 60_000);
});

describe('refused targets', () => {
  it('a feed URL that is not http(s) or names a private, link-local or metadata address is a 400 naming FeedUrl, without connecting anywhere', async () => {
    const sockets: unknown[] = [];
    const onSocket = (s: unknown) => sockets.push(s);
    subscribe('net.client.socket', onSocket);
    try {
      for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/feed.xml', 'http://[::ffff:169.254.169.254]/', 'http://[fd00:ec2::254]/', 'file:///etc/passwd', 'ftp://example.com/feed.xml', 'http://user:pw@example.com/feed']) {
        const res = await call('/api/internal/imports', { method: 'POST', body: { FeedUrl: url } });
        expect(res.status, url).toBe(400);
        expect(((await res.json()) as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['FeedUrl']);
      }
      // The fetcher itself refuses them too (a feed's enclosure, a redirect's Location).
      await expect(safeGet('http://169.254.169.254/', { allowLoopback: true, timeoutMs: 1000 })).rejects.toMatchObject({ code: ImportErrorCode.RefusedTarget });
      await expect(safeGet('http://10.0.0.1/', { allowLoopback: true, timeoutMs: 1000 })).rejects.toMatchObject({ code: ImportErrorCode.RefusedTarget });
    } finally {
      unsubscribe('net.client.socket', onSocket);
    }
    expect(sockets).toHaveLength(0);
  });

  it('without the tests’ loopback setting, a name that resolves to 127.0.0.1 is refused before any connection', async () => {
    const who = await login('demo@example.com', strictApp);
    const before = connections;
    const res = await call('/api/internal/imports', { method: 'POST', body: { FeedUrl: `http://localhost:${new URL(base).port}/feed.xml` }, as: who, on: strictApp });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { Errors: Array<{ Field: string; Code: string }> }).Errors[0]).toMatchObject({ Field: 'FeedUrl', Code: 'urlInvalid' });
    expect(connections).toBe(before);
  });
});

describe('guard cases', () => {
  it('a body without a source, with both, or with XML that is not a feed is a 400 naming the field', async () => {
    const fieldsOf = async (body: unknown) => ((await (await call('/api/internal/imports', { method: 'POST', body })).json()) as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field);
    expect(await fieldsOf({})).toEqual(['FeedUrl']);
    expect(await fieldsOf({ FeedXml: '<html><body>not a feed</body></html>' })).toEqual(['FeedXml']);
    expect(await fieldsOf({ FeedUrl: `${base}/feed.xml`, FeedXml: FIXTURE })).toEqual(['FeedXml']);
    expect(await fieldsOf({ FeedUrl: 'x'.repeat(2001) })).toEqual(['FeedUrl']);
  });

  it('imports are for members who may create programs with content access; a playlist’s for those who may read it', async () => {
    for (const email of ['producer@example.com', 'analyst@example.com']) {
      const who = await login(email);
      expect((await call('/api/internal/imports', { as: who })).status, email).toBe(403);
      expect((await call('/api/internal/imports', { method: 'POST', body: { FeedUrl: `${base}/feed.xml` }, as: who })).status, email).toBe(403);
    }
    const producer = await login('producer@example.com');
    // Matchday Live is not one of the producer's programs.
    const [hidden] = await test.store.query<{ id: string }>(`SELECT id FROM playlists WHERE program_id = $1 LIMIT 1`, [seedId('program:matchday')]);
    const target = hidden!.id;
    expect((await call(`/api/internal/playlists/${target}/imports`, { as: producer })).status).toBe(404);
    expect((await call(`/api/internal/playlists/${target}/imports`, { method: 'POST', body: { FeedUrl: `${base}/feed.xml` }, as: producer })).status).toBe(404);
    expect((await call('/api/internal/imports', { method: 'PUT', body: { ImportId: crypto.randomUUID() } })).status).toBe(404);
    // A playlist never imported into has nothing to import again.
    const [own] = await test.store.query<{ id: string }>(`SELECT id FROM playlists WHERE program_id = $1 LIMIT 1`, [seedId('program:morning')]);
    const res = await call(`/api/internal/playlists/${own!.id}/imports`, { method: 'PATCH' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { Errors: Array<{ Field: string }> }).Errors[0]!.Field).toBe('playlistId');
  });

  it('an enclosure cut short is retried, then fails saying the audio did not arrive whole; why is in the log only', async () => {
    const { log, lines } = capturedLog('warn');
    const quick = createApp({ store: test.store, bus: createMemoryBus(), imports: { allowLoopback: true }, jobs: { backoffMs: () => 0 }, log });
    feeds.set('cut-short', localFeed(FIXTURE, base, ['/audio/cut-short.mp3', '/audio/speech-12s.mp3', '/audio/speech-12s.mp3']));
    const res = await call('/api/internal/imports', { method: 'POST', body: { FeedUrl: `${base}/feeds/cut-short.xml` }, on: quick });
    expect(res.status, await res.clone().text()).toBe(200);
    const { Id } = (await res.json()) as Import;
    await quick.jobs.drain();
    const ended = await importOf(Id);
    expect(ended.Episodes.map((e) => [e.State, e.ErrorCode, e.Reason])).toEqual([
      ['Failed', ImportErrorCode.Timeout, 'the audio did not arrive whole'],
      ['Done', null, null],
      ['Done', null, null],
    ]);
    expect(requests.filter((r) => r === '/audio/cut-short.mp3').length).toBe(3);
    const why = lines.filter((l) => l.import?.importId === Id && l.msg === "an episode's audio was not stored whole");
    expect(why.length).toBe(3);
    expect(why[0]!.err?.message).toBeTruthy();
  }, 60_000);

  it('a failure the import does not describe (the database\'s, a bug) says the server could not go on: only the log has its text', async () => {
    const { log, lines } = capturedLog('error');
    const deps = { store: test.store, bus: createMemoryBus(), log };
    const audio = audioService(deps, { blobDir });
    const handler = importService(deps, audio, serverMutations(audio), { allowLoopback: true }).jobHandlers[IMPORT_FEED_JOB]!;
    const [done] = await test.store.query<{ id: string }>(`SELECT id FROM imports WHERE stage = 'Done' ORDER BY created_at_utc LIMIT 1`);
    const importId = done!.id;
    const error = new Error('connect ECONNREFUSED 10.0.0.7:5432');
    await handler.giveUp!(handler.payload.parse({ importId }), error, jobContext(test.store, { id: 0, kind: IMPORT_FEED_JOB, attempt: 3, maxAttempts: 3 }));
    const failed = await importOf(importId);
    expect([failed.Status, failed.ErrorCode, failed.Reason]).toEqual(['Failed', ImportErrorCode.Failed, IMPORT_SERVER_PROBLEM]);
    expect(JSON.stringify(failed)).not.toContain('ECONNREFUSED');
    expect(lines.filter((l) => l.import?.importId === importId)).toMatchObject([{ level: 50, err: { message: error.message } }]);
  });
});
