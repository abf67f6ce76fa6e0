// Waveforms on two cores: two decode workers (each the real worker API behind its own comlink
// channel) decode the 60-minute episode in two parts; the result is the one pass's, progress
// reaches the end, and a part that fails falls back to one pass.
import * as Comlink from 'comlink';
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { analyzeAudio } from '../../src/media/analyze.ts';
import type { DecodeProgress } from '../../src/media/decode.ts';
import { blobSource } from '../../src/media/source.ts';
import { MediaErrorCode } from '../../src/media/errors.ts';
import { fixturePath } from '../../tests/audio/fixtures.ts';
import type { DecodeWorkerApi } from './decode-api.ts';
import { decodeWorkerApi } from './decode-worker-api.ts';
import { analyzeOnCores } from './parallel.ts';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
  vi.unstubAllGlobals();
});

function connect(api: DecodeWorkerApi = decodeWorkerApi): Comlink.Remote<DecodeWorkerApi> {
  const channel = new MessageChannel();
  channels.push(channel);
  Comlink.expose(api, channel.port1 as unknown as Comlink.Endpoint);
  return Comlink.wrap<DecodeWorkerApi>(channel.port2 as unknown as Comlink.Endpoint);
}

// Node's file-backed Blobs cannot cross a MessagePort (a browser File can): an in-memory one.
let blob: Blob;
let onePass: Awaited<ReturnType<typeof analyzeAudio>>;
beforeAll(async () => {
  blob = new Blob([readFileSync(fixturePath('episode-60min-mono-64k.mp3'))]);
  onePass = await analyzeAudio(blobSource(blob));
}, 120_000);

describe('waveform on two cores', () => {
  it('two workers give the one pass’s waveforms, and progress reaches the end', async () => {
    vi.stubGlobal('navigator', { hardwareConcurrency: 2 });
    let helperStarted = false;
    const seen: DecodeProgress[] = [];
    const r = await analyzeOnCores(connect(), () => ((helperStarted = true), [connect()]), { kind: 'blob', blob }, { onProgress: (p) => void seen.push(p) });
    expect(helperStarted).toBe(true);
    expect(r.durationSeconds).toBe(3600);
    for (const [i, w] of onePass.waveforms.entries()) expect(Buffer.from(r.waveforms[i]!.data.buffer).equals(Buffer.from(w.data.buffer))).toBe(true);
    await new Promise((res) => setTimeout(res, 20));
    expect(seen.at(-1)?.fraction).toBe(1);
  }, 120_000);

  it('on one core the file is decoded in one pass, and no second worker is started', async () => {
    vi.stubGlobal('navigator', { hardwareConcurrency: 1 });
    const blob12 = new Blob([readFileSync(fixturePath('speech-12s.mp3'))]);
    let helperStarted = false;
    const r = await analyzeOnCores(connect(), () => ((helperStarted = true), [connect()]), { kind: 'blob', blob: blob12 });
    expect(helperStarted).toBe(false);
    expect(r.durationSeconds).toBe(12);
  });

  it('a part that does not decode as planned falls back to one pass, with the same result', async () => {
    vi.stubGlobal('navigator', { hardwareConcurrency: 2 });
    const broken: DecodeWorkerApi = {
      ...decodeWorkerApi,
      analyzePart: async () => ({ ok: false, code: MediaErrorCode.DecodeFailed, message: 'The part did not decode as planned', details: {} }),
    };
    const r = await analyzeOnCores(connect(), () => [connect(broken)], { kind: 'blob', blob });
    expect(r.frames).toBe(onePass.frames);
    expect(Buffer.from(r.waveforms[0]!.data.buffer).equals(Buffer.from(onePass.waveforms[0]!.data.buffer))).toBe(true);
  }, 120_000);
});
