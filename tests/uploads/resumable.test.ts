// Issue 6, "Uploads that survive a flaky link": a clip's audio sent with tus-js-client through a
// proxy that cuts the connection every 256 KiB arrives byte for byte and the clip becomes Ready
// through the same pipeline as PUT /v1/clips/{clipId}/audio; the file rules of section 5 answer
// at creation with the PUT route's 400 bodies; sessions, XSRF, owners, the per-user limit and expiry.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metadata } from '@tus/server';
import { UPLOADS_PATH, MAX_OPEN_UPLOADS_PER_USER } from '../../src/protocol/uploads.ts';
import { audioService } from '../../sync-server/audio/service.ts';
import { tusUploads } from '../../sync-server/uploads/tus.ts';
import { uploadRoutes } from '../../sync-server/api/uploads.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { createSession, SESSION_COOKIE, XSRF_HEADER } from '../../sync-server/auth.ts';
import { AppError } from '../../sync-server/errors.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { startFlakyProxy } from './flaky-proxy.ts';
import { startUploadServer, tusUpload, type UploadServer } from './upload-server.ts';

let s: UploadServer;
beforeAll(async () => { s = await startUploadServer(); });
afterAll(async () => { await s?.close(); });

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function create(headers: Record<string, string>, meta: { filename?: string; clipId?: string }, length: number | null) {
  const h: Record<string, string> = { ...headers, 'tus-resumable': '1.0.0', 'upload-metadata': Metadata.stringify(meta as Record<string, string>) };
  if (length !== null) h['upload-length'] = String(length);
  return fetch(`${s.url}${UPLOADS_PATH}`, { method: 'POST', headers: h });
}

/** The 2 MB WAV fixture sent with tus-js-client through a proxy that cuts every connection after 256 KiB. */
async function wavThroughCuts(server: UploadServer, clip: { id: string; organization_id: string }) {
  const bytes = readFileSync(fixturePath('speech-12s-stereo.wav'));
  const proxy = await startFlakyProxy({ host: '127.0.0.1', port: server.port }, { cutEveryBytes: 256 * 1024 });
  try {
    const result = await tusUpload(proxy.url, bytes, { fileName: 'speech-12s-stereo.wav', clipId: clip.id, headers: server.clipHeaders(clip) });
    return { bytes, result, cuts: proxy.cuts() };
  } finally {
    await proxy.close();
  }
}

describe('tus uploads through a link that drops every 256 KiB', () => {
  it('a 2 MB WAV completes with identical bytes after many resumes, and the clip becomes Ready', async () => {
    const clip = s.clips[0]!;
    const { bytes, result, cuts } = await wavThroughCuts(s, clip);
    // 2,116,878 bytes over connections that each carry at most 256 KiB: at least 8 cuts, each resumed.
    expect(cuts).toBeGreaterThanOrEqual(8);
    expect(result.resumes).toBeGreaterThanOrEqual(8);
    expect(result.lastProgress).toEqual([bytes.length, bytes.length]);
    expect(await s.settled(clip)).toEqual({ State: 'Ready', AudioProcessingProblem: null });
    // A client that missed the last response asks again: complete, so it never sends the file twice.
    const head = await fetch(`${s.url}${new URL(result.url!).pathname}`, { method: 'HEAD', headers: { ...s.clipHeaders(clip), 'tus-resumable': '1.0.0' } });
    expect([head.status, head.headers.get('upload-offset'), head.headers.get('upload-length')]).toEqual([200, String(bytes.length), String(bytes.length)]);
    // The upload is kept byte for byte as the clip's original (its audio URL serves the MP3 published from it).
    const served = await fetch(`${s.url}/api/internal/clips/${clip.id}/original-audio`, { headers: s.clipHeaders(clip) });
    expect(served.status).toBe(200);
    const back = new Uint8Array(await served.arrayBuffer());
    expect(back.length).toBe(bytes.length);
    expect(sha(back)).toBe(sha(bytes));
    const row = (await (await fetch(`${s.url}/api/v1/clips/${clip.id}`, { headers: s.clipHeaders(clip) })).json()) as Record<string, unknown>;
    expect(row.UploadedAudioFileName).toBe('speech-12s-stereo.wav');
    expect(row.DurationSeconds).toBe(12);
  });

  it('a WAV in 128 KiB chunks over a link cut every 150 ms also ends Ready, same bytes', async () => {
    const clip = s.clips[1]!;
    const bytes = readFileSync(fixturePath('speech-12s-stereo.wav'));
    const proxy = await startFlakyProxy({ host: '127.0.0.1', port: s.port }, { cutEveryMs: 150 });
    try {
      const result = await tusUpload(proxy.url, bytes, { fileName: 'speech-12s-stereo.wav', clipId: clip.id, headers: s.clipHeaders(clip), chunkSize: 128 * 1024 });
      expect(result.lastProgress).toEqual([bytes.length, bytes.length]);
    } finally {
      await proxy.close();
    }
    expect(await s.settled(clip)).toEqual({ State: 'Ready', AudioProcessingProblem: null });
    const back = new Uint8Array(await (await fetch(`${s.url}/api/internal/clips/${clip.id}/original-audio`, { headers: s.clipHeaders(clip) })).arrayBuffer());
    expect(sha(back)).toBe(sha(bytes));
  });

  it('a not-audio file goes through the same pipeline and ends in Error with its problem', async () => {
    const clip = s.clips[2]!;
    await tusUpload(s.url, readFileSync(fixturePath('not-audio.mp3')), { fileName: 'not-audio.mp3', clipId: clip.id, headers: s.clipHeaders(clip) });
    expect(await s.settledState(clip)).toBe('Error');
    const row = (await (await fetch(`${s.url}/api/v1/clips/${clip.id}`, { headers: s.clipHeaders(clip) })).json()) as Record<string, unknown>;
    expect(row.AudioProcessingProblem).toBe('The uploaded file is not audio in a format we accept');
  });
});

describe('creation applies the file rules of section 5 with the PUT route\'s 400 bodies', () => {
  async function putBody(clip: { id: string; organization_id: string }, fileName: string, bytes: Uint8Array) {
    const res = await fetch(`${s.url}/api/v1/clips/${clip.id}/audio?fileName=${encodeURIComponent(fileName)}`, {
      method: 'PUT',
      headers: { ...s.clipHeaders(clip), 'content-type': 'application/octet-stream' },
      body: bytes as Uint8Array<ArrayBuffer>,
    });
    expect(res.status).toBe(400);
    return res.json();
  }

  it('an empty file: 400 "The uploaded file is empty"-style body equal to PUT\'s', async () => {
    const clip = s.clips[3]!;
    const res = await create(s.clipHeaders(clip), { filename: 'episode.mp3', clipId: clip.id }, 0);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toEqual(await putBody(clip, 'episode.mp3', new Uint8Array(0)));
    expect(body).toMatchObject({ Errors: [{ Field: 'file', Code: 'emptyFile' }] });
  });

  it('an empty name and an extension not accepted: the same bodies as PUT, the list of formats in the message', async () => {
    const clip = s.clips[3]!;
    const noName = await create(s.clipHeaders(clip), { filename: '  ', clipId: clip.id }, 3);
    expect(noName.status).toBe(400);
    expect(await noName.json()).toEqual(await putBody(clip, '  ', new Uint8Array(3)));
    const txt = await create(s.clipHeaders(clip), { filename: 'notes.txt', clipId: clip.id }, 3);
    expect(txt.status).toBe(400);
    const body = (await txt.json()) as { Errors: Array<{ Field: string; Code: string; Message: string }> };
    expect(body).toEqual(await putBody(clip, 'notes.txt', new Uint8Array(3)));
    expect(body.Errors[0]).toMatchObject({ Field: 'fileName', Code: 'invalidFileExtension' });
    expect(body.Errors[0]!.Message).toContain('m4a, mp3, mp4, aac, wav, flac, aif, aiff');
  });

  it('a file over 2 GB is refused before a byte is sent (fileTooLarge naming both sizes)', async () => {
    const clip = s.clips[3]!;
    const res = await create(s.clipHeaders(clip), { filename: 'huge.wav', clipId: clip.id }, 3 * 1024 ** 3);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { Errors: Array<{ Field: string; Code: string; Message: string; Params: Record<string, number> }> };
    expect(body.Errors).toEqual([
      expect.objectContaining({ Field: 'file', Code: 'fileTooLarge', Message: 'File cannot be larger than 2048 MB (received 3072 MB)', Params: { maxSize: 2 * 1024 ** 3, size: 3 * 1024 ** 3 } }),
    ]);
  });

  it('no Upload-Length, a clip id that is not a GUID, and an unknown clip are refused', async () => {
    const clip = s.clips[3]!;
    expect((await create(s.clipHeaders(clip), { filename: 'a.mp3', clipId: clip.id }, null)).status).toBe(400);
    const bad = await create(s.clipHeaders(clip), { filename: 'a.mp3', clipId: 'not-a-guid' }, 10);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ Errors: [{ Field: 'clipId' }] });
    expect((await create(s.clipHeaders(clip), { filename: 'a.mp3', clipId: randomUUID() }, 10)).status).toBe(404);
  });
});

describe('uploads are session calls and belong to their user', () => {
  it('no session is 401, a missing XSRF token is 403, a user without content access gets 404', async () => {
    const clip = s.clips[4]!;
    expect((await create({ 'x-organization-id': clip.organization_id }, { filename: 'a.mp3', clipId: clip.id }, 10)).status).toBe(401);
    expect((await create({ cookie: s.demo.cookie, 'x-organization-id': clip.organization_id }, { filename: 'a.mp3', clipId: clip.id }, 10)).status).toBe(403);
    const analyst = await s.signIn('analyst@example.com');
    const res = await create({ ...analyst }, { filename: 'a.mp3', clipId: clip.id }, 10);
    expect(res.status).toBe(404);
  });

  it('another user cannot see, write or delete someone\'s upload (404); the owner resumes from the server\'s offset', async () => {
    const clip = s.clips[4]!;
    const created = await create(s.clipHeaders(clip), { filename: 'a.mp3', clipId: clip.id }, 10);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${UPLOADS_PATH}/[0-9a-f]+$`));
    const patch = await fetch(`${s.url}${location}`, {
      method: 'PATCH',
      headers: { ...s.clipHeaders(clip), 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array([1, 2, 3, 4]),
    });
    expect(patch.status).toBe(204);
    expect(patch.headers.get('upload-offset')).toBe('4');
    const producer = await s.signIn('producer@example.com');
    for (const method of ['HEAD', 'DELETE']) {
      expect((await fetch(`${s.url}${location}`, { method, headers: { ...producer, 'tus-resumable': '1.0.0' } })).status).toBe(404);
    }
    const head = await fetch(`${s.url}${location}`, { method: 'HEAD', headers: { ...s.clipHeaders(clip), 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('4');
    expect(head.headers.get('upload-length')).toBe('10');
    // Cancel: DELETE by the owner, then the upload is gone.
    expect((await fetch(`${s.url}${location}`, { method: 'DELETE', headers: { ...s.clipHeaders(clip), 'tus-resumable': '1.0.0' } })).status).toBe(204);
    expect((await fetch(`${s.url}${location}`, { method: 'HEAD', headers: { ...s.clipHeaders(clip), 'tus-resumable': '1.0.0' } })).status).toBe(404);
  });
});

/** The upload routes alone on the test's store, with their own folders, for the admin (a user no
 *  other test here uploads as). The uploads' records are in the store, shared with the other tests
 *  (as instances share them): the demo user's uploads through a cut link can leave unfinished ones
 *  behind (a creation whose answer was cut is made again), which its limit would count. close()
 *  cancels every upload this one made, so the next test does not count them either. */
async function isolatedUploads(options: { expiresMs?: number }) {
  const dir = await mkdtemp(join(tmpdir(), 'castaway-uploads-iso-'));
  const deps = { store: s.store, bus: createMemoryBus() };
  const audio = audioService(deps, { blobDir: join(dir, 'blobs') });
  const uploads = tusUploads(deps, audio, { uploadDir: join(dir, 'uploads'), ...options });
  const app = new OpenAPIHono().use('*', async (c, next) => { c.set('deps', deps); await next(); }).route('/api', uploadRoutes(uploads));
  app.onError((err, c) => (err instanceof AppError ? c.body(null, err.status) : c.body(null, 500)));
  const session = await createSession(s.store, seedId('user:admin@example.com'), new Date());
  const clip = s.clips.find((c) => c.organization_id === ORG_DEMO)!;
  const headers = { cookie: `${SESSION_COOKIE}=${session.token}`, [XSRF_HEADER]: session.xsrfToken, 'x-organization-id': clip.organization_id, 'tus-resumable': '1.0.0' };
  const made: string[] = [];
  const createUpload = async (fileName: string) => {
    const res = await app.request(UPLOADS_PATH, { method: 'POST', headers: { ...headers, 'upload-length': '10', 'upload-metadata': Metadata.stringify({ filename: fileName, clipId: clip.id }) } });
    if (res.status === 201) made.push(res.headers.get('location')!);
    return res;
  };
  return {
    app, uploads, headers, createUpload,
    async close() {
      for (const location of made) await app.request(location, { method: 'DELETE', headers });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('limits', () => {
  it(`a user holds at most ${MAX_OPEN_UPLOADS_PER_USER} unfinished uploads; the next is 429, and cancelling one frees a place`, async () => {
    const iso = await isolatedUploads({});
    try {
      const locations: string[] = [];
      for (let i = 0; i < MAX_OPEN_UPLOADS_PER_USER; i++) {
        const res = await iso.createUpload(`part-${i}.mp3`);
        expect(res.status).toBe(201);
        locations.push(res.headers.get('location')!);
      }
      expect((await iso.createUpload('one-more.mp3')).status).toBe(429);
      expect((await iso.app.request(locations[0]!, { method: 'DELETE', headers: iso.headers })).status).toBe(204);
      expect((await iso.createUpload('one-more.mp3')).status).toBe(201);
    } finally {
      await iso.close();
    }
  });

  it('an unfinished upload past its expiry is deleted by the sweep and then answers 404', async () => {
    const iso = await isolatedUploads({ expiresMs: 1500 });
    try {
      const created = await iso.createUpload('a.mp3');
      expect(created.status).toBe(201);
      expect(created.headers.get('upload-expires')).not.toBeNull();
      const location = created.headers.get('location')!;
      // The sweep counts every upload of the store past 1.5 s (others' too): this one is kept until then.
      await iso.uploads.cleanUpExpired();
      expect((await iso.app.request(location, { method: 'HEAD', headers: iso.headers })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1600));
      expect(await iso.uploads.cleanUpExpired()).toBeGreaterThanOrEqual(1);
      expect((await iso.app.request(location, { method: 'HEAD', headers: iso.headers })).status).toBe(404);
    } finally {
      await iso.close();
    }
  });
});

describe('on PostgreSQL', () => {
  let pg: UploadServer;
  beforeAll(async () => { pg = await startUploadServer({ store: 'postgres' }); });
  afterAll(async () => { await pg?.close(); });

  it('a 2 MB WAV through a link cut every 256 KiB arrives byte for byte and the clip becomes Ready', async () => {
    const clip = pg.clips[0]!;
    const { bytes, result } = await wavThroughCuts(pg, clip);
    expect(result.resumes).toBeGreaterThanOrEqual(8);
    expect(await pg.settled(clip)).toEqual({ State: 'Ready', AudioProcessingProblem: null });
    const back = new Uint8Array(await (await fetch(`${pg.url}/api/internal/clips/${clip.id}/original-audio`, { headers: pg.clipHeaders(clip) })).arrayBuffer());
    expect(sha(back)).toBe(sha(bytes));
  });
});
