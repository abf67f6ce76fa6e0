// The worker's API over a real MessageChannel with comlink, as the page talks to the worker:
// results arrive with transferred buffers, progress arrives through a proxied callback, cancel stops.
import * as Comlink from 'comlink';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { DecodeProgress } from '../../src/media/decode.ts';
import { fixturePath } from '../../tests/audio/fixtures.ts';
import type { DecodeWorkerApi } from './decode-api.ts';
import { decodeWorkerApi } from './decode-worker-api.ts';

let channel: MessageChannel | null = null;
afterEach(() => {
  channel?.port1.close();
  channel?.port2.close();
});

// Node's file-backed Blobs cannot cross a MessagePort (a browser File can): use in-memory ones.
const openAsBlob = async (path: string) => new Blob([readFileSync(path)]);

function connect(): Comlink.Remote<DecodeWorkerApi> {
  channel = new MessageChannel();
  Comlink.expose(decodeWorkerApi, channel.port1 as unknown as Comlink.Endpoint);
  return Comlink.wrap<DecodeWorkerApi>(channel.port2 as unknown as Comlink.Endpoint);
}

describe('decode worker API', () => {
  it('analyzes a file and hands back all five peak levels with progress', async () => {
    const remote = connect();
    const blob = await openAsBlob(fixturePath('speech-12s.mp3'));
    const seen: DecodeProgress[] = [];
    const r = await remote.analyze('job-1', { kind: 'blob', blob }, null, Comlink.proxy((p: DecodeProgress) => void seen.push(p)));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.durationSeconds).toBe(12);
    expect(r.waveforms.map((w) => w.samplesPerPixel)).toEqual([256, 1024, 4096, 16384, 65536]);
    expect(r.waveforms[0]!.data).toBeInstanceOf(Int16Array);
    await new Promise((res) => setTimeout(res, 20));
    expect(seen.at(-1)?.fraction).toBe(1);
  });

  it('reports a typed error for a file that is not audio', async () => {
    const remote = connect();
    const blob = await openAsBlob(fixturePath('not-audio.mp3'));
    expect(await remote.analyze('job-2', { kind: 'blob', blob }, null, null)).toEqual({
      ok: false, code: 'notAudio', message: 'The file is not audio in a format we accept', details: {},
    });
  });

  it('renders the cut preview as a WAV: the kept seconds less one crossfade per splice', async () => {
    const remote = connect();
    const blob = await openAsBlob(fixturePath('speech-12s.mp3'));
    const r = await remote.renderWav('job-wav', { kind: 'blob', blob }, [{ start: 0, end: 2 }, { start: 5, end: 12 }], 10, null);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // 9 s kept, one 10 ms crossfade at 44.1 kHz (441 frames).
    expect(r.frames).toBe(9 * 44100 - 441);
    const bytes = new Uint8Array(await r.wav.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('RIFF');
    expect(new TextDecoder().decode(bytes.subarray(8, 12))).toBe('WAVE');
    const v = new DataView(bytes.buffer);
    expect(v.getUint32(24, true)).toBe(44100);
    expect(v.getUint32(40, true)).toBe(r.frames * r.channels * 2);
    expect(bytes.length).toBe(44 + r.frames * r.channels * 2);
    expect(r.wav.type).toBe('audio/wav');
  });

  it('cancel stops a long decode with "aborted"', async () => {
    const remote = connect();
    const blob = await openAsBlob(fixturePath('episode-60min-mono-64k.mp3'));
    const started = Date.now();
    const pending = remote.analyze('job-3', { kind: 'blob', blob }, [256], null);
    await new Promise((res) => setTimeout(res, 150));
    await remote.cancel('job-3');
    const r = await pending;
    expect(r).toMatchObject({ ok: false, code: 'aborted' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
