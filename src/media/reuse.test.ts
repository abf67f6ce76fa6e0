// Bounded memory without changing results: analyzeAudio folds blocks that are views of reused
// buffers (mpg123's own output memory, one PCM plane set, one read buffer), and its peaks equal
// those of the copying path; the sequential Blob reader hands out exact chunk sizes.
import { openAsBlob } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../tests/audio/fixtures.ts';
import { analyzeAudio } from './analyze.ts';
import { openAudioDecoding } from './decode.ts';
import { PeaksBuilder } from './peaks.ts';
import { blobSource, readSequential } from './source.ts';

async function decodeAll(name: string, reuseBuffers: boolean) {
  const decoding = await openAudioDecoding(blobSource(await openAsBlob(fixturePath(name))), { reuseBuffers });
  const peaks = new PeaksBuilder();
  let first: Float32Array | null = null;
  let firstAsReceived: Float32Array | null = null;
  for await (const block of decoding.blocks) {
    peaks.add(block);
    if (!first) {
      first = block.channels[0]!;
      firstAsReceived = Float32Array.from(first);
    }
  }
  return { waveforms: peaks.finish(), first: first!, firstAsReceived: firstAsReceived! };
}

describe('decoding into reused buffers', () => {
  for (const name of ['speech-12s.mp3', 'speech-12s-stereo.wav', 'speech-12s.aiff', 'speech-12s.flac']) {
    it(`${name}: the same peaks at every level as decoding into fresh blocks`, async () => {
      const fresh = await decodeAll(name, false);
      const reused = await analyzeAudio(blobSource(await openAsBlob(fixturePath(name))));
      expect(reused.waveforms.map((w) => w.samplesPerPixel)).toEqual([256, 1024, 4096, 16384, 65536]);
      reused.waveforms.forEach((w, i) => {
        expect(w.length).toBe(fresh.waveforms[i]!.length);
        expect(Array.from(w.data)).toEqual(Array.from(fresh.waveforms[i]!.data));
      });
    });
  }

  it('without reuseBuffers a kept block stays as it was; with it, MP3 blocks live in the decoder\'s memory', async () => {
    const copied = await decodeAll('speech-12s.mp3', false);
    expect(copied.firstAsReceived.some((x) => x !== 0)).toBe(true);
    expect(copied.first.every((x, i) => x === copied.firstAsReceived[i])).toBe(true);
    const reused = await decodeAll('speech-12s.mp3', true);
    expect(Array.from(reused.firstAsReceived.subarray(0, 4096))).toEqual(Array.from(copied.firstAsReceived.subarray(0, 4096)));
    // Later reads overwrote the first block's memory: nothing was copied out of the decoder.
    expect(Array.from(reused.first.subarray(0, 4096))).not.toEqual(Array.from(copied.first.subarray(0, 4096)));
  });

  it('the sequential Blob reader gives chunks of exactly the asked size, the last one shorter', async () => {
    const bytes = Uint8Array.from({ length: 100_003 }, (_, i) => i % 251);
    const src = blobSource(new Blob([bytes]));
    const sizes: number[] = [];
    const seen: number[] = [];
    for await (const chunk of readSequential(src, 3, bytes.length, 4096)) {
      sizes.push(chunk.length);
      seen.push(chunk[0]!, chunk.at(-1)!);
    }
    expect(sizes.slice(0, -1).every((n) => n === 4096)).toBe(true);
    expect(sizes.reduce((s, n) => s + n, 0)).toBe(100_000);
    expect(seen[0]).toBe(3);
    expect(seen.at(-1)).toBe(bytes[bytes.length - 1]);
  });
});
