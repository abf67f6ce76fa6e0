// A long MP3 decoded in parts gives exactly the one pass's samples and peaks (the worker decodes
// the parts on two cores: workers/audio/decode-worker-api.ts).
import { openAsBlob } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeAudio, analyzeMp3Part, joinMp3Parts } from './analyze.ts';
import { planMp3Split, readGaplessTag } from './mp3-split.ts';
import { blobSource } from './source.ts';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';

const fixtures = SHARED_FIXTURES_DIR;

async function source(name: string) {
  const src = blobSource(await openAsBlob(join(fixtures, name)));
  return { src, head: await src.read(0, 64 * 1024) };
}

describe('MP3 in parts', () => {
  it('reads the gapless tag: frames, encoder delay and padding', async () => {
    const { head } = await source('speech-12s.mp3');
    expect(readGaplessTag(head)).toMatchObject({ frames: 461, delay: 576, padding: 1296, sampleRate: 44100, channels: 1 });
  });

  it('a short file is decoded in one pass', async () => {
    const { src, head } = await source('speech-12s.mp3');
    expect(await planMp3Split(src, head, 2)).toBeNull();
  });

  it('files that are not MP3 with a gapless tag are decoded in one pass', async () => {
    for (const name of ['speech-12s.flac', 'speech-12s-stereo.wav', 'not-audio.mp3', 'truncated.mp3']) {
      const { src, head } = await source(name);
      expect(await planMp3Split(src, head, 2), name).toBeNull();
    }
  });

  // Two parts through two workers: workers/audio/parallel.test.ts.
  it('the 60-minute episode in 3 parts: the same 158,760,000 samples and the same peaks at every level as one pass', async () => {
    const count = 3;
    const { src, head } = await source('episode-60min-mono-64k.mp3');
    const plan = (await planMp3Split(src, head, count))!;
    expect(plan.parts).toHaveLength(count);
    expect(plan.totalSamples).toBe(3600 * 44100);
    const parts = [];
    for (const part of plan.parts) parts.push(await analyzeMp3Part(src, part, plan.channels));
    const joined = joinMp3Parts(plan, parts);
    const whole = await analyzeAudio(src);
    expect(joined.frames).toBe(whole.frames);
    expect(joined.durationSeconds).toBe(3600);
    for (const [i, w] of whole.waveforms.entries()) {
      expect(joined.waveforms[i]!.length, `level ${w.samplesPerPixel}`).toBe(w.length);
      expect(Buffer.from(joined.waveforms[i]!.data.buffer).equals(Buffer.from(w.data.buffer)), `level ${w.samplesPerPixel}`).toBe(true);
    }
  }, 120_000);
});
