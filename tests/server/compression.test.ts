// Answers over real HTTP as a phone's browser gets them: the sync's pages and the built app's files
// compressed (brotli, else gzip, as Accept-Encoding asks), byte for byte the same once decoded;
// rows with an ETag, server-sent events, small answers and clients that ask for nothing as they
// were. And pushes sent gzip-compressed, as the sync worker sends them once the server says it
// takes them. Read with node:http, which, unlike fetch, hands over the bytes as they came. The store
// plays no part here: PGlite only.
import { request } from 'node:http';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, seedId } from '../../sync-server/seed.ts';
import { startServer, type RunningServer } from '../../sync-server/server.ts';
import { JSON_BODY_LIMIT_BYTES, MIN_COMPRESS_BYTES } from '../../src/protocol/errors.ts';
import { openTestStore, type TestStore } from './test-store.ts';

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

describe('compressed answers over HTTP', () => {
  let t: TestStore;
  let server: RunningServer;
  let dist: string;
  let cookie = '';
  const org = seedId('org:demo');

  function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
    return new Promise((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method, headers: { cookie, 'x-organization-id': org, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }
  const decoded = (r: Raw) =>
    r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;

  beforeAll(async () => {
    t = await openTestStore('pglite');
    // Enough clips that a page of 1,000 is over a mebibyte of JSON: it is encoded and compressed
    // piece by piece (compress.ts textPartsResponse), not as one body.
    await seed(t.store, { clips: 800 });
    dist = mkdtempSync(join(tmpdir(), 'castaway-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Castaway Studio</title>');
    writeFileSync(join(dist, 'assets', 'app-1234.js'), `export const messages = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `message ${i}`))};`);
    writeFileSync(join(dist, 'assets', 'logo.png'), Buffer.alloc(4096, 7));
    server = await startServer({ store: t.store, distDir: dist, port: 0 });
    // The seed's clips caught mid-publish have their jobs queued: once they have run, the pull
    // pages compared below (plain, brotli, gzip) are of the same rows.
    await server.jobs.drain();
    const login = await fetch(`${server.url}/api/internal/session/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Email: 'demo@example.com', Password: 'castaway-demo' }),
    });
    cookie = login.headers.getSetCookie().find((c) => c.startsWith('castaway_session='))!.split(';')[0]!;
  });
  afterAll(async () => {
    await server?.close();
    await t?.drop();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends a pull page as brotli to a browser, as gzip to a client without brotli, and as it is to one that asks for neither', async () => {
    const plain = await get('/api/sync/pull?limit=1000');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    const page = JSON.parse(plain.body.toString('utf8')) as { rows: unknown[] };
    expect(page.rows.length).toBeGreaterThan(600);
    expect(plain.body.byteLength).toBeGreaterThan(1024 * 1024);
    expect(Number(plain.headers['content-length'])).toBe(plain.body.byteLength);

    const br = await get('/api/sync/pull?limit=1000', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
    expect(decoded(br).equals(plain.body)).toBe(true);
    expect(br.body.byteLength).toBeLessThan(plain.body.byteLength / 4);

    const gz = await get('/api/sync/pull?limit=1000', { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz).equals(plain.body)).toBe(true);

    const refused = await get('/api/sync/pull?limit=1000', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);
  });

  it('compresses a list and an error answer of the API, but not an answer under MIN_COMPRESS_BYTES', async () => {
    const list = await get('/api/v1/clips?pageSize=50', { 'accept-encoding': 'br' });
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    expect(decoded(list).equals((await get('/api/v1/clips?pageSize=50')).body)).toBe(true);
    expect((JSON.parse(decoded(list).toString('utf8')) as { Items: unknown[] }).Items.length).toBeGreaterThan(40);

    const small = await get('/api/internal/session/xsrf', { 'accept-encoding': 'br' });
    expect(small.status).toBe(200);
    expect(small.body.byteLength).toBeLessThan(MIN_COMPRESS_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(small.body.toString('utf8')) as { XsrfToken: string }).XsrfToken.length).toBeGreaterThan(20);

    const bad = await get('/api/sync/pull?limit=0', { 'accept-encoding': 'br' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(JSON.parse(decoded(bad).toString('utf8')))).toContain('limit');
  });

  it("leaves a row with an ETag as it is: If-Match compares that ETag, the row's ModifiedAtUtc", async () => {
    const list = JSON.parse((await get('/api/v1/clips?pageSize=1')).body.toString('utf8')) as { Items: Array<{ Id: string; ModifiedAtUtc: string }> };
    const clip = list.Items[0]!;
    const one = await get(`/api/v1/clips/${clip.Id}`, { 'accept-encoding': 'br, gzip' });
    expect(one.status).toBe(200);
    expect(one.body.byteLength).toBeGreaterThan(MIN_COMPRESS_BYTES);
    expect(one.headers.etag).toBe(`"${clip.ModifiedAtUtc}"`);
    expect(one.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(one.body.toString('utf8')) as { Id: string }).Id).toBe(clip.Id);
  });

  it('never buffers the server-sent events of pokes', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/sync/events`, { headers: { cookie, 'x-organization-id': org, 'accept-encoding': 'br, gzip' }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('content-encoding')).toBeNull();
    const first = await res.body!.getReader().read();
    expect(first.done).toBe(false);
    controller.abort();
  });

  it("serves the built app's files compressed, once per version of a file, and images as they are", async () => {
    const file = join(dist, 'assets', 'app-1234.js');
    const written = new Date(Math.floor(Date.now() / 1000) * 1000);
    utimesSync(file, written, written);
    const plain = await get('/assets/app-1234.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const first = await get('/assets/app-1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['cache-control']).toContain('immutable');
    expect(first.headers['content-type']).toContain('javascript');
    expect(first.headers.vary).toMatch(/Accept-Encoding/);
    expect(decoded(first).equals(plain.body)).toBe(true);
    expect(first.body.byteLength).toBeLessThan(plain.body.byteLength / 3);
    const gz = await get('/assets/app-1234.js', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    // Kept, not made again: the same bytes rewritten in place with their size and time kept (no
    // build does that) still come compressed as they were first read.
    writeFileSync(file, plain.body.toString('utf8').replace('message 0"', 'massage 0"'));
    utimesSync(file, written, written); // the time it had (whole seconds, which a Date keeps exactly)
    expect(decoded(await get('/assets/app-1234.js', { 'accept-encoding': 'br' })).equals(plain.body)).toBe(true);
    expect((await get('/assets/app-1234.js')).body.toString('utf8')).toContain('massage 0"');
    const head = await get('/assets/app-1234.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers.vary).toMatch(/Accept-Encoding/);
    const apiHead = await get('/api/v1/clips?pageSize=50', { 'accept-encoding': 'br' }, 'HEAD');
    expect(apiHead.status).toBe(200);
    expect(apiHead.headers.vary).toMatch(/Accept-Encoding/);

    // A new build writes the file again: the next answer is the new file, not the kept one.
    writeFileSync(file, `export const messages = ${JSON.stringify(Array.from({ length: 500 }, (_, i) => `changed ${i}`))};`);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const changed = await get('/assets/app-1234.js', { 'accept-encoding': 'br' });
    expect(decoded(changed).toString('utf8')).toContain('changed 499');

    const png = await get('/assets/logo.png', { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.byteLength).toBe(4096);
  });

  describe('a push sent gzip-compressed', () => {
    let xsrf = '';
    const clipIds: string[] = [];
    beforeAll(async () => {
      xsrf = (JSON.parse((await get('/api/internal/session/xsrf')).body.toString('utf8')) as { XsrfToken: string }).XsrfToken;
      const list = JSON.parse((await get('/api/v1/clips?pageSize=20')).body.toString('utf8')) as { Items: Array<{ Id: string }> };
      clipIds.push(...list.Items.map((c) => c.Id));
    });
    const push = (body: Uint8Array<ArrayBuffer>, encoding?: string) =>
      fetch(`${server.url}/api/sync/push`, {
        method: 'POST',
        headers: { cookie, 'x-xsrf-token': xsrf, 'x-organization-id': org, 'content-type': 'application/json', ...(encoding ? { 'content-encoding': encoding } : {}) },
        body,
      });
    const mutations = (title: string) =>
      clipIds.map((id) => ({ id: randomUUID(), entity: 'clips', entityId: id, method: 'PATCH', path: `/v1/clips/${id}`, body: { Title: title }, baseModifiedAtUtc: null, createdAt: Date.now() }));

    it('is applied as if sent as it is, and every API answer says the server takes gzip', async () => {
      const json = JSON.stringify({ protocolVersion: 1, clientId: randomUUID(), mutations: mutations('Sent compressed') });
      const body = new Uint8Array(gzipSync(json));
      expect(body.byteLength).toBeLessThan(json.length / 3);
      const res = await push(body, 'gzip');
      expect(res.status).toBe(200);
      expect(res.headers.get('accept-encoding')).toBe('gzip');
      const { results } = (await res.json()) as { results: Array<{ status: string }> };
      expect(results.map((r) => r.status)).toEqual(clipIds.map(() => 'applied'));
      const clip = JSON.parse((await get(`/api/v1/clips/${clipIds[0]}`)).body.toString('utf8')) as { Title: string };
      expect(clip.Title).toBe('Sent compressed');
      expect((await get('/api/sync/pull?limit=1')).headers['accept-encoding']).toBe('gzip');
    });

    it('that is not gzip is a 400 naming Content-Encoding; a coding the server does not take is a 415 naming the one it does', async () => {
      const bad = await push(new TextEncoder().encode('{"protocolVersion": 1, "not": "gzip"}'), 'gzip');
      expect(bad.status).toBe(400);
      expect(bad.headers.get('accept-encoding')).toBe('gzip');
      expect(((await bad.json()) as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['Content-Encoding']);

      const br = await push(new Uint8Array([1, 2, 3]), 'br');
      expect(br.status).toBe(415);
      expect(br.headers.get('accept-encoding')).toBe('gzip');
      expect(((await br.json()) as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['Content-Encoding']);
    });

    it('that would decode to 600 MB is a 413 with the memory of the server all but untouched: it stops decoding past the limit', async () => {
      // 600 MB of JSON whitespace after a push's opening, gzipped as a stream (never held whole
      // here): ~0.6 MB as sent, under the limit, so only the decoder's own cap stands in its way.
      const chunk = Buffer.alloc(1 << 20, ' ');
      const gzip = createGzip({ level: 9 });
      const parts: Buffer[] = [];
      gzip.on('data', (b: Buffer) => parts.push(b));
      const ended = new Promise((resolve) => gzip.on('end', resolve));
      gzip.write(`{"protocolVersion": 1, "clientId": "${randomUUID()}", "mutations": [], "pad": "`);
      for (let i = 0; i < 600; i++) if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once('drain', resolve));
      gzip.end('"}');
      await ended;
      const body = new Uint8Array(Buffer.concat(parts));
      expect(body.byteLength).toBeLessThan(JSON_BODY_LIMIT_BYTES);

      // The server runs in this process. Linux keeps its peak resident memory (VmHWM) and sets
      // it back to the present one when 5 is written to clear_refs: the peak while the request
      // is answered stays within 100 MB of where it started; decoding it whole would add 600 MB.
      const peakKiB = () => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
      writeFileSync('/proc/self/clear_refs', '5');
      const before = peakKiB();
      const res = await push(body, 'gzip');
      expect(res.status).toBe(413);
      expect(((await res.json()) as { Errors: Array<{ Code: string }> }).Errors.map((e) => e.Code)).toEqual(['payloadTooLarge']);
      expect((peakKiB() - before) / 1024).toBeLessThan(100);
    });

    it('that decodes to more than JSON_BODY_LIMIT_BYTES is a 413, however small as sent', async () => {
      const json = JSON.stringify({ protocolVersion: 1, clientId: randomUUID(), mutations: mutations('x'), pad: ' '.repeat(JSON_BODY_LIMIT_BYTES) });
      const body = new Uint8Array(gzipSync(json));
      expect(body.byteLength).toBeLessThan(10_000);
      const res = await push(body, 'gzip');
      expect(res.status).toBe(413);
      expect(res.headers.get('accept-encoding')).toBe('gzip');
      expect(((await res.json()) as { Errors: Array<{ Code: string }> }).Errors.map((e) => e.Code)).toEqual(['payloadTooLarge']);
    });
  });
});
