// The normalization's gain and true-peak limiter (src/media/limiter.ts), measured with our meter
// (itself checked against ffmpeg in loudness.test.ts): peaks held at the ceiling, loudness moved by
// the gain where nothing needed limiting, and every frame out for every frame in.
import { describe, expect, it } from 'vitest';
import type { PcmBlock } from '../../src/media/decode.ts';
import { gainAndLimit } from '../../src/media/limiter.ts';
import { LoudnessMeter } from '../../src/media/loudness.ts';

async function* blocksOf(channels: Float32Array[], rate: number, size: number): AsyncGenerator<PcmBlock> {
  for (let at = 0; at < channels[0]!.length; at += size) yield { sampleRate: rate, channels: channels.map((c) => c.slice(at, at + size)) };
}

async function run(channels: Float32Array[], rate: number, gainDb: number, ceilingDbtp: number) {
  const before = new LoudnessMeter();
  const after = new LoudnessMeter();
  let frames = 0;
  for await (const b of blocksOf(channels, rate, 1152)) before.add(b);
  for await (const b of gainAndLimit(blocksOf(channels, rate, 1152), { gainDb, ceilingDbtp })) {
    after.add(b);
    frames += b.channels[0]!.length;
  }
  return { before: before.result(), after: after.result(), frames };
}

/** Speech-like: a 220 Hz buzz whose level jumps every half second, with short bursts 12 dB above it. */
function bursty(rate: number, seconds: number): Float32Array {
  const x = new Float32Array(rate * seconds);
  for (let i = 0; i < x.length; i++) {
    const level = 0.05 * (1 + ((Math.floor(i / (rate / 2)) * 7) % 4));
    const burst = i % rate < rate / 50 ? 4 : 1;
    x[i] = level * burst * Math.sin((2 * Math.PI * 220 * i) / rate) + 0.3 * level * Math.sin((2 * Math.PI * 3150 * i) / rate);
  }
  return x;
}

describe('gain and true-peak limiter', () => {
  it('holds true peaks at the ceiling when the gain would push them over, and keeps every frame', async () => {
    const x = bursty(44100, 8);
    const { before, after, frames } = await run([x, x.map((v) => -0.8 * v)], 44100, 12, -1);
    expect(frames).toBe(x.length);
    expect(before.truePeakDbtp! + 12).toBeGreaterThan(0);
    expect(after.truePeakDbtp!).toBeLessThanOrEqual(-1 + 0.05);
    // Only the bursts are limited: the integrated loudness rises by nearly the gain.
    expect(after.integratedLufs! - before.integratedLufs!).toBeGreaterThan(10);
  });

  it('with room under the ceiling it is only the gain', async () => {
    const x = bursty(48000, 5);
    const { before, after } = await run([x], 48000, -6, -1);
    expect(after.integratedLufs! - before.integratedLufs!).toBeCloseTo(-6, 2);
    expect(after.truePeakDbtp! - before.truePeakDbtp!).toBeCloseTo(-6, 2);
    // Not shifted in time: frame i out is frame i in, times the gain.
    const out: number[] = [];
    for await (const b of gainAndLimit(blocksOf([x], 48000, 1000), { gainDb: -6, ceilingDbtp: -1 })) out.push(...b.channels[0]!);
    const g = 10 ** (-6 / 20);
    for (const i of [0, 1, 999, 1000, 24_000, x.length - 1]) expect(out[i]).toBeCloseTo(x[i]! * g, 6);
  });
});
