// A URL source over a real HTTP server: a file that never arrives (offline, server unreachable,
// 404, 500) is reported as a download problem in the user's words, never as "could not be
// decoded"; a file that arrives but is not audio still is a decoding problem.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixturePath } from '../../tests/audio/fixtures.ts';
import { analyzeAudio } from './analyze.ts';
import { MediaError, MediaErrorCode } from './errors.ts';
import { mediaFailureText } from './messages.ts';
import { urlSource } from './source.ts';

let server: Server;
let base: string;
const files: Record<string, Buffer> = {
  '/speech.mp3': readFileSync(fixturePath('speech-12s.mp3')),
  '/not-audio.mp3': readFileSync(fixturePath('not-audio.mp3')),
};

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/broken') return void res.writeHead(500).end();
    const body = files[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
    const [start, end] = m ? [Number(m[1]), Number(m[2])] : [0, body.length - 1];
    res.writeHead(m ? 206 : 200, { 'content-length': String(end - start + 1), 'accept-ranges': 'bytes' });
    res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.unstubAllGlobals());

async function failureOf(url: string): Promise<MediaError> {
  try {
    await analyzeAudio(await urlSource(url));
  } catch (e) {
    if (e instanceof MediaError) return e;
    throw e;
  }
  throw new Error(`${url} decoded`);
}

describe('a media URL that cannot be fetched', () => {
  it('a served MP3 decodes through Range requests (the control)', async () => {
    const a = await analyzeAudio(await urlSource(`${base}/speech.mp3`));
    expect(a.durationSeconds).toBe(12);
  });

  it('404: "the server does not have this file", in English and German', async () => {
    const e = await failureOf(`${base}/gone.mp3`);
    expect(e.code).toBe(MediaErrorCode.NotAvailable);
    expect(mediaFailureText(e, 'en-US')).toBe('The audio could not be downloaded: the server does not have this file');
    expect(mediaFailureText(e, 'de-DE')).toBe('Das Audio konnte nicht heruntergeladen werden: Der Server hat diese Datei nicht');
  });

  it('500: "could not be downloaded (the server answered 500)"', async () => {
    const e = await failureOf(`${base}/broken`);
    expect(e.code).toBe(MediaErrorCode.DownloadFailed);
    expect(mediaFailureText(e, 'en-US')).toBe('The audio could not be downloaded (the server answered 500)');
  });

  it('no server listening: "the server could not be reached"', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const e = await failureOf(`http://127.0.0.1:${port}/speech.mp3`);
    expect(e.code).toBe(MediaErrorCode.Unreachable);
    expect(mediaFailureText(e, 'en-US')).toBe('The audio could not be downloaded: the server could not be reached');
    // The browser's flag can read online just after an offline reload; the app's knowledge wins.
    expect(mediaFailureText(e, 'en-US', { deviceOffline: true })).toBe('This audio is not available offline yet: it loads when the network returns');
  });

  it('offline device: "not available offline yet", in all six translated locales', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const e = await failureOf('http://castaway.invalid/speech.mp3');
    expect(e.code).toBe(MediaErrorCode.Offline);
    expect(mediaFailureText(e, 'en-US')).toBe('This audio is not available offline yet: it loads when the network returns');
    const texts = (['de-DE', 'es-419', 'fr-FR', 'it-IT', 'pt-BR'] as const).map((l) => mediaFailureText(e, l));
    expect(new Set(texts).size).toBe(5);
    for (const t of texts) expect(t).not.toBe(mediaFailureText(new MediaError(MediaErrorCode.DecodeFailed, ''), 'en-US'));
  });

  it('a file that arrives but is not audio is still a decoding problem', async () => {
    const e = await failureOf(`${base}/not-audio.mp3`);
    expect(e.code).toBe(MediaErrorCode.NotAudio);
    expect(mediaFailureText(e, 'en-US')).toBe('The uploaded file is not audio in a format we accept');
  });
});
