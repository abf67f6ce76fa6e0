// Artwork (section 3 image variants, section 7 PUT/DELETE …/image, POST /v1/chapters/images,
// POST /internal/images) on PGlite, with real JPEG and PNG files made here with sharp and read back
// with sharp: the type known by the bytes (a GIF, WebP or text body is a 415 naming Content-Type,
// whatever the header said), a truncated JPEG and a decompression bomb refused with a 400, the four
// square variants never upscaled, the row's new Version and ImagePublicUrl, the public file's
// immutable caching, ETag and 304, the guard, removal, imageUrl (refused for private
// addresses without connecting; fetched from a local server when loopback is allowed), and a
// version whose job is overtaken by a newer one's.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedId } from '../../sync-server/seed.ts';
import { addressAllowed, fetchImage, imageUrlRefusal } from '../../sync-server/images/fetch.ts';
import { IMAGE_FILE_MAX_BYTES } from '../../src/domain/artwork.ts';
import { fsBlobStore, type BlobStore } from '../../sync-server/audio/blob-store.ts';
import { imageKeys } from '../../sync-server/images/service.ts';
import { AppClient, seededApp, withAnotherApp, type SeededApp } from './app-client.ts';
import { openTestStore, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const WORLD = seedId('program:world');
const FEED = seedId('playlist:morning:feed');
const NEWS = seedId('network:news');

const jpeg = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#c0392b' } }).jpeg().toBuffer();
/** A real 1×1 PNG whose header (IHDR, with its CRC) claims another size: a decompression bomb's shape. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer());
  // Signature (8), IHDR length (4), 'IHDR' (4), width, height, …; the CRC covers type and data (17 bytes).
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}
const png = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 4, background: { r: 20, g: 90, b: 200, alpha: 0.5 } } }).png().toBuffer();

describe('artwork', () => {
  let t: TestStore;
  let app: SeededApp['app'];
  let demo: AppClient;
  let producer: AppClient;
  let blobDir: string;
  let clipId: string;
  let files: Server;
  let filesOrigin: string;
  let jpegBytes: Buffer;

  beforeAll(async () => {
    blobDir = await mkdtemp(join(tmpdir(), 'castaway-images-'));
    process.env.CASTAWAY_BLOB_DIR = blobDir;
    process.env.CASTAWAY_IMAGE_FETCH_ALLOW_LOOPBACK = '1';
    t = await openTestStore('pglite');
    ({ app } = await seededApp(t.store));
    delete process.env.CASTAWAY_IMAGE_FETCH_ALLOW_LOOPBACK;
    demo = new AppClient(app);
    await demo.login('demo@example.com');
    producer = new AppClient(app);
    await producer.login('producer@example.com');
    clipId = (await t.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
    jpegBytes = await jpeg(1400, 1400);
    const served = await png(900, 500);
    files = createServer((req, res) => {
      if (req.url === '/art.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(served);
      if (req.url === '/moved') return void res.writeHead(302, { location: '/art.png' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    filesOrigin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => files?.close(r));
    await t?.drop();
    await rm(blobDir, { recursive: true, force: true });
    delete process.env.CASTAWAY_BLOB_DIR;
  });

  /** A raw body sent as the client's user (binary: AppClient sends JSON). */
  async function upload(client: AppClient, method: string, path: string, body: Uint8Array | null, type = 'image/jpeg') {
    const headers: Record<string, string> = { cookie: client.cookie, 'x-xsrf-token': client.xsrf };
    if (body) headers['content-type'] = type;
    const res = await app.request(path, { method, headers, ...(body ? { body: body as Uint8Array<ArrayBuffer> } : {}) });
    const text = await res.text();
    return { status: res.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  }
  const rowOf = async (path: string) => (await demo.get(path)).body as { Version: number; Urls: Record<string, string | null>; HasImage?: boolean };
  const fetchPublic = (url: string, headers: Record<string, string> = {}) => app.request(url, { headers });
  const sizeOf = async (res: Response) => {
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    return [meta.format, meta.width, meta.height];
  };

  it('PUT a JPEG on a program: 204; its variants are made by the job; ImagePublicUrl set with a new Version', async () => {
    const before = await rowOf(`/api/v1/programs/${MORNING}`);
    const put = await upload(demo, 'PUT', `/api/v1/programs/${MORNING}/image`, jpegBytes);
    expect(put.status, put.text).toBe(204);
    await app.jobs.drain();
    const after = await rowOf(`/api/v1/programs/${MORNING}`);
    expect(after.Version).toBeGreaterThan(before.Version);
    const url = after.Urls['ImagePublicUrl']!;
    expect(url).toMatch(new RegExp(`^/images/program/${MORNING}/[A-Za-z0-9_-]{22}$`));
    // Square, cover-cropped, never upscaled: a 1400 px source asked as large is 1400 px.
    expect(await sizeOf(await fetchPublic(`${url}?size=thumbnail`))).toEqual(['jpeg', 64, 64]);
    expect(await sizeOf(await fetchPublic(`${url}?size=small`))).toEqual(['jpeg', 256, 256]);
    expect(await sizeOf(await fetchPublic(`${url}?size=medium`))).toEqual(['jpeg', 600, 600]);
    expect(await sizeOf(await fetchPublic(`${url}?size=large`))).toEqual(['jpeg', 1400, 1400]);
    // No size: large.
    expect(await sizeOf(await fetchPublic(url))).toEqual(['jpeg', 1400, 1400]);
  });

  it('the public file: immutable caching, ETag and 304; two ? in its URL is a 400; an unknown version is a 404', async () => {
    const url = (await rowOf(`/api/v1/programs/${MORNING}`)).Urls['ImagePublicUrl']!;
    const first = await fetchPublic(`${url}?size=small`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(first.headers.get('content-type')).toBe('image/jpeg');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+-small"$/);
    const again = await fetchPublic(`${url}?size=small`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect((await fetchPublic(`${url}?size=medium`, { 'if-none-match': etag })).status).toBe(200);
    const twice = await fetchPublic(`${url}?size=small?size=large`);
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { Errors: Array<{ Field: string }> }).Errors[0]!.Field).toBe('size');
    expect((await fetchPublic(`/images/program/${MORNING}/AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await fetchPublic(`${url}?size=huge`)).status).toBe(400);
  });

  it('a PNG on a clip (non-square, with transparency): PNG variants, cover-cropped squares; ImagePrivateUrl and HasImage set', async () => {
    const put = await upload(demo, 'PUT', `/api/v1/clips/${clipId}/image`, await png(1000, 700), 'application/octet-stream');
    expect(put.status, put.text).toBe(204);
    await app.jobs.drain();
    const clip = await rowOf(`/api/v1/clips/${clipId}`);
    expect(clip.HasImage).toBe(true);
    expect(clip.Urls['ImagePrivateUrl']).toBe(clip.Urls['ImagePublicUrl']);
    const url = clip.Urls['ImagePublicUrl']!;
    expect(await sizeOf(await fetchPublic(`${url}?size=medium`))).toEqual(['png', 600, 600]);
    expect(await sizeOf(await fetchPublic(`${url}?size=large`))).toEqual(['png', 700, 700]);
    expect((await sharp(Buffer.from(await (await fetchPublic(`${url}?size=small`)).arrayBuffer())).metadata()).hasAlpha).toBe(true);
  });

  it('a new image replaces the old: the old URL is a 404 at once its successor is ready', async () => {
    const old = (await rowOf(`/api/v1/playlists/${FEED}`)).Urls['ImagePublicUrl'];
    expect((await upload(demo, 'PUT', `/api/v1/playlists/${FEED}/image`, jpegBytes)).status).toBe(204);
    await app.jobs.drain();
    const first = (await rowOf(`/api/v1/playlists/${FEED}`)).Urls['ImagePublicUrl']!;
    expect(first).not.toBe(old);
    expect((await upload(demo, 'PUT', `/api/v1/playlists/${FEED}/image`, await png(300, 300), 'image/png')).status).toBe(204);
    await app.jobs.drain();
    const second = (await rowOf(`/api/v1/playlists/${FEED}`)).Urls['ImagePublicUrl']!;
    expect(second).not.toBe(first);
    expect((await fetchPublic(first)).status).toBe(404);
    expect(await sizeOf(await fetchPublic(second))).toEqual(['png', 300, 300]);
  });

  it('a GIF, a WebP or text is a 415 naming Content-Type, whatever the header says', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).webp().toBuffer();
    for (const [body, type] of [[gif, 'image/gif'], [gif, 'image/jpeg'], [webp, 'image/webp'], [Buffer.from('not an image at all'), 'text/plain'], [Buffer.from('hello'), 'image/png']] as const) {
      const res = await upload(demo, 'PUT', `/api/v1/programs/${MORNING}/image`, body, type);
      expect(res.status, `${type}: ${res.text}`).toBe(415);
      expect((res.body as { Errors: Array<{ Field: string; Code: string }> }).Errors[0]).toMatchObject({ Field: 'Content-Type', Code: 'invalidFileExtension' });
    }
    const chapter = await upload(demo, 'POST', '/api/v1/chapters/images', gif, 'image/gif');
    expect(chapter.status).toBe(415);
    expect(chapter.text).toContain('Content-Type');
  });

  it('a truncated JPEG, an empty body, no body and a decompression bomb are 400s naming the body; too large is 413', async () => {
    const truncated = await upload(demo, 'PUT', `/api/v1/programs/${MORNING}/image`, jpegBytes.subarray(0, Math.floor(jpegBytes.length / 2)));
    expect(truncated.status, truncated.text).toBe(400);
    expect(truncated.text).toContain('"Field":"body"');
    expect((await upload(demo, 'PUT', `/api/v1/programs/${MORNING}/image`, new Uint8Array(0))).status).toBe(400);
    const none = await upload(demo, 'PUT', `/api/v1/programs/${MORNING}/image`, null);
    expect([none.status, none.text]).toEqual([400, expect.stringContaining('"Field":"body"')]);
    // A small PNG whose header says 50,000 × 50,000 (10 GB of pixels once decoded).
    const bomb = await pngClaiming(50_000, 50_000);
    const refused = await upload(demo, 'PUT', `/api/v1/programs/${MORNING}/image`, bomb, 'image/png');
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain('outOfRange');
    const big = await upload(demo, 'PUT', `/api/v1/programs/${MORNING}/image`, new Uint8Array(IMAGE_FILE_MAX_BYTES + 1).fill(0xff));
    expect(big.status).toBe(413);
    expect(big.text).toContain('fileTooLarge');
  }, 30_000);

  it('the guard: a hidden program’s image is a 404 for the producer, her own program’s a 403 (no manage-settings), her clip’s a 204', async () => {
    expect((await upload(producer, 'PUT', `/api/v1/programs/${WORLD}/image`, jpegBytes)).status).toBe(404);
    expect((await upload(producer, 'DELETE', `/api/v1/programs/${WORLD}/image`, null)).status).toBe(404);
    expect((await upload(producer, 'PUT', `/api/v1/programs/${MORNING}/image`, jpegBytes)).status).toBe(403);
    expect((await upload(producer, 'PUT', `/api/v1/networks/${NEWS}/image`, jpegBytes)).status).toBe(403);
    expect((await upload(producer, 'PUT', `/api/v1/clips/${clipId}/image`, jpegBytes)).status).toBe(204);
    await app.jobs.drain();
  });

  it('DELETE clears the artwork with a new Version; its files are a 404', async () => {
    const before = await rowOf(`/api/v1/clips/${clipId}`);
    const url = before.Urls['ImagePublicUrl']!;
    expect(url).not.toBeNull();
    expect((await upload(demo, 'DELETE', `/api/v1/clips/${clipId}/image`, null)).status).toBe(204);
    const after = await rowOf(`/api/v1/clips/${clipId}`);
    expect(after.Version).toBeGreaterThan(before.Version);
    expect([after.Urls['ImagePublicUrl'], after.Urls['ImagePrivateUrl'], after.HasImage]).toEqual([null, null, false]);
    expect((await fetchPublic(`${url}?size=thumbnail`)).status).toBe(404);
    // Again: nothing to clear, no new Version.
    expect((await upload(demo, 'DELETE', `/api/v1/clips/${clipId}/image`, null)).status).toBe(204);
    expect((await rowOf(`/api/v1/clips/${clipId}`)).Version).toBe(after.Version);
  });

  it('a network’s artwork; a chapter image and an internal image answer their URL at once', async () => {
    expect((await upload(demo, 'PUT', `/api/v1/networks/${NEWS}/image`, jpegBytes)).status).toBe(204);
    const chapter = await upload(demo, 'POST', '/api/v1/chapters/images', await png(200, 200), 'image/png');
    expect(chapter.status, chapter.text).toBe(200);
    const { Url, Path } = chapter.body as { Url: string; Path: string };
    expect(Path).toMatch(/^\/images\/chapter\//);
    expect(Url).toBe(`http://localhost${Path}`);
    // Before its variants are made: the original, not cached.
    const early = await fetchPublic(`${Path}?size=medium`);
    expect([early.status, early.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    await app.jobs.drain();
    expect(await sizeOf(await fetchPublic(`${Path}?size=thumbnail`))).toEqual(['png', 64, 64]);
    expect(await sizeOf(await fetchPublic(`${Path}?size=large`))).toEqual(['png', 200, 200]);
    const internal = await upload(demo, 'POST', '/api/internal/images', jpegBytes);
    expect(internal.status).toBe(200);
    expect((internal.body as { Path: string }).Path).toMatch(/^\/images\/upload\//);
    expect((await rowOf(`/api/v1/networks/${NEWS}`)).Urls['ImagePublicUrl']).toMatch(/^\/images\/network\//);
  });

  it('imageUrl: not http(s) or a private address is a 400 naming imageUrl, checked without connecting anywhere', async () => {
    const strict = { allowLoopback: false };
    for (const url of ['ftp://example.com/a.png', 'file:///etc/passwd', 'http://127.0.0.1/a.png', 'http://[::1]/a.png', 'http://10.1.2.3/a.png', 'http://169.254.169.254/latest', 'http://[::ffff:192.168.0.1]/', 'http://localhost:8787/a.png', 'not a url']) {
      expect(imageUrlRefusal(url, strict), url).not.toBeNull();
    }
    expect(imageUrlRefusal('https://cdn.example.com/art.jpg', strict)).toBeNull();
    expect(addressAllowed('8.8.8.8', strict)).toBe(true);
    expect(addressAllowed('127.0.0.1', { allowLoopback: true })).toBe(true);
    // A name that resolves to loopback is refused by the connection's own lookup.
    await expect(fetchImage(`${filesOrigin.replace('127.0.0.1', 'localhost.')}/art.png`, strict, new AbortController().signal)).rejects.toThrow();
    for (const url of ['ftp://example.com/a.png', 'http://10.0.0.1/a.png', 'http://169.254.169.254/latest/meta-data']) {
      const res = await upload(demo, 'PUT', `/api/v1/programs/${MORNING}/image?imageUrl=${encodeURIComponent(url)}`, null);
      expect(res.status, url).toBe(400);
      expect(res.text).toContain('"Field":"imageUrl"');
    }
  });

  it('imageUrl on this machine (loopback allowed for the test): fetched by the job, following a redirect', async () => {
    const res = await upload(demo, 'PUT', `/api/v1/playlists/${FEED}/image?imageUrl=${encodeURIComponent(`${filesOrigin}/moved`)}`, null);
    expect(res.status, res.text).toBe(204);
    await app.jobs.drain();
    const url = (await rowOf(`/api/v1/playlists/${FEED}`)).Urls['ImagePublicUrl']!;
    expect(await sizeOf(await fetchPublic(`${url}?size=large`))).toEqual(['png', 500, 500]);
  });

  it('one’s own picture (PUT and DELETE /internal/users/me/image): ImageUrl at once, the variants by the job, the old version a 404, removal; the same file rules; not without a session', async () => {
    const me = async (client: AppClient) => ((await client.get('/api/internal/session')).body as { User: { ImageUrl: string | null } }).User.ImageUrl;
    const put = await upload(producer, 'PUT', '/api/internal/users/me/image', await png(800, 500), 'image/png');
    expect(put.status, put.text).toBe(204);
    const first = await me(producer);
    expect(first).toMatch(/^\/images\/user\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{22}$/);
    // Shown at once: the thumbnail was made before the answer, the rest come from the original until the job.
    expect(await sizeOf(await fetchPublic(`${first}?size=thumbnail`))).toEqual(['png', 64, 64]);
    const early = await fetchPublic(`${first}?size=small`);
    expect([early.status, early.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    await app.jobs.drain();
    expect(await sizeOf(await fetchPublic(`${first}?size=small`))).toEqual(['png', 256, 256]);
    // The organization's user list shows it.
    const producerId = (await t.store.query<{ id: string }>(`SELECT id FROM users WHERE email = 'producer@example.com'`))[0]!.id;
    expect((await t.store.query<{ image_url: string }>(`SELECT image_url FROM users WHERE id = $1`, [producerId]))[0]!.image_url).toBe(first);

    expect((await upload(producer, 'PUT', '/api/internal/users/me/image', jpegBytes)).status).toBe(204);
    const second = await me(producer);
    expect(second).not.toBe(first);
    expect((await fetchPublic(first!)).status).toBe(404);
    await app.jobs.drain();
    expect(await sizeOf(await fetchPublic(`${second}?size=medium`))).toEqual(['jpeg', 600, 600]);
    expect(await t.store.query(`SELECT version FROM images WHERE kind = 'user' AND owner_id = $1`, [producerId])).toHaveLength(1);

    // The file rules of every image, and nobody else's picture changes.
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const refused = await upload(producer, 'PUT', '/api/internal/users/me/image', gif, 'image/gif');
    expect([refused.status, (refused.body as { Errors: Array<{ Field: string }> }).Errors[0]!.Field]).toEqual([415, 'Content-Type']);
    expect((await upload(producer, 'PUT', '/api/internal/users/me/image', new Uint8Array(0))).status).toBe(400);
    expect(await me(producer)).toBe(second);
    expect(await me(demo)).toBeNull();
    const stranger = new AppClient(app);
    expect((await app.request('/api/internal/users/me/image', { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: jpegBytes as Uint8Array<ArrayBuffer> })).status).toBe(401);
    expect((await stranger.delete('/api/internal/users/me/image')).status).toBe(401);

    expect((await upload(producer, 'DELETE', '/api/internal/users/me/image', null)).status).toBe(204);
    expect(await me(producer)).toBeNull();
    expect((await fetchPublic(second!)).status).toBe(404);
    expect(await t.store.query(`SELECT 1 FROM images WHERE kind = 'user' AND owner_id = $1`, [producerId])).toHaveLength(0);
    // Removing what is not there is done too.
    expect((await upload(producer, 'DELETE', '/api/internal/users/me/image', null)).status).toBe(204);
  });

  it('a version dropped for a newer one while its job made its variants: the job ends quietly and leaves no files', async () => {
    const versionOf = (url: string | null | undefined) => url!.split('/').pop()!;
    expect((await upload(demo, 'PUT', `/api/v1/programs/${WORLD}/image`, jpegBytes)).status).toBe(204);
    const [first] = await t.store.query<{ version: string }>(`SELECT version FROM images WHERE owner_id = $1 ORDER BY seq DESC LIMIT 1`, [WORLD]);
    const folder = join(blobDir, imageKeys.version('program', WORLD, first!.version));
    // Its job runs on an app whose blob store, as the job opens the original, lets a newer upload
    // and its job go first: that one is ready first, so it drops the first version and its files.
    const blobs = fsBlobStore(blobDir);
    let raced = false;
    const racing: BlobStore = {
      ...blobs,
      blob: async (key) => {
        if (key === imageKeys.original('program', WORLD, first!.version) && !raced) {
          raced = true;
          expect((await upload(demo, 'PUT', `/api/v1/programs/${WORLD}/image`, await png(400, 400), 'image/png')).status).toBe(204);
          await app.jobs.drain();
          expect(existsSync(folder)).toBe(false);
        }
        return blobs.blob(key);
      },
    };
    await withAnotherApp({ store: t.store, blobs: racing }, (other) => other.jobs.drain());
    expect(raced).toBe(true);
    // Not an attempt failed with the missing file and queued again: nothing is left to do.
    expect(await t.store.query(`SELECT attempts, last_error FROM jobs WHERE kind = 'image.variants' AND payload->>'ownerId' = $1`, [WORLD])).toEqual([]);
    expect(existsSync(folder)).toBe(false);
    const url = (await rowOf(`/api/v1/programs/${WORLD}`)).Urls['ImagePublicUrl']!;
    expect(versionOf(url)).not.toBe(first!.version);
    expect(await sizeOf(await fetchPublic(`${url}?size=large`))).toEqual(['png', 400, 400]);
  });
});
