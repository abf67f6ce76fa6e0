import { describe, expect, it } from 'vitest';
import { cutDurationSeconds, equalPowerGains, normalizeRegions, renderCut } from './cut.ts';
import type { PcmBlock } from './decode.ts';

/** A source whose sample i has value i (so every output sample says where it came from). */
async function* ramp(frames: number, block: number, sampleRate = 1000): AsyncGenerator<PcmBlock> {
  for (let start = 0; start < frames; start += block) {
    const n = Math.min(block, frames - start);
    yield { sampleRate, channels: [Float32Array.from({ length: n }, (_, i) => start + i)] };
  }
}

async function collect(it: AsyncIterable<PcmBlock>): Promise<number[]> {
  const out: number[] = [];
  for await (const b of it) out.push(...b.channels[0]!);
  return out;
}

describe('renderCut: kept regions joined with equal-power crossfades, streaming', () => {
  it('keeps exactly the kept samples, less one crossfade per splice, whatever the block size', async () => {
    for (const block of [7, 64, 1000, 5000]) {
      // 1 kHz: keep 0–1 s and 2–3 s with a 10 ms (10-sample) crossfade.
      const out = await collect(renderCut(ramp(4000, block), [{ start: 2, end: 3 }, { start: 0, end: 1 }], 10));
      expect(out.length).toBe(2000 - 10);
      expect(out.slice(0, 990)).toEqual(Array.from({ length: 990 }, (_, i) => i));
      expect(out.slice(1000)).toEqual(Array.from({ length: 990 }, (_, i) => 2010 + i));
      // In the crossfade the two sides are mixed with sin/cos gains.
      for (let k = 0; k < 10; k++) {
        const g = equalPowerGains((k + 0.5) / 10);
        expect(out[990 + k]).toBeCloseTo((990 + k) * g.out + (2000 + k) * g.in, 2);
      }
    }
  });

  it('never reads past the last kept region, and drops nothing when one region is kept', async () => {
    const out = await collect(renderCut(ramp(10_000, 100), [{ start: 1, end: 1.5 }], 10));
    expect(out).toEqual(Array.from({ length: 500 }, (_, i) => 1000 + i));
  });

  it('regions are sorted and merged; the output duration says so', () => {
    expect(normalizeRegions([{ start: 5, end: 8 }, { start: 1, end: 3 }, { start: 2, end: 4 }, { start: 9, end: 9 }])).toEqual([{ start: 1, end: 4 }, { start: 5, end: 8 }]);
    expect(cutDurationSeconds([{ start: 0, end: 3 }, { start: 6, end: 12 }], 10)).toBeCloseTo(8.99, 6);
  });
});
