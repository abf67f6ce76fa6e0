// Loudness normalization's signal path: a fixed gain, then a look-ahead true-peak limiter, streamed
// block by block (the normalization job renders an hour this way without holding it).
//
//   x·gain ──> need[k] = min(1, ceiling / true peak around frame k)   (4× interpolated, src/media/loudness.ts)
//                 └─> h[j] = min(need[j .. j+L−1])                     look-ahead L frames (sliding minimum)
//                       └─> r[j] = min(h[j], release toward 1)          the gain comes back slowly
//                             └─> gain[j] = mean(r[j−L+1 .. j])         a ramp of L frames, never a step
//   y[j] = x[j]·gain·gain[j], out L−1+delay frames late
//
// Every r in gain[k]'s window holds need[k] (each h there looks ahead over frame k), so the mean
// is at most need[k]: the peak at k is brought to the ceiling, never over it, and the gain moves
// in ramps of L frames instead of clicking.
import type { PcmBlock } from './decode.ts';
import { INTERPOLATOR_BOUND, INTERPOLATOR_DELAY, INTERPOLATOR_HISTORY, interpolatedPeakAt } from './loudness.ts';

export type LimiterOptions = {
  gainDb: number;
  /** The true peak the output may reach, dBTP. */
  ceilingDbtp: number;
  /** Default 5 ms: the ramp before a peak. */
  lookaheadMs?: number;
  /** Default 80 ms: the time constant of the gain's return. */
  releaseMs?: number;
};

/** The blocks with the gain applied and their true peaks held under the ceiling (same rate, channels and length). */
export async function* gainAndLimit(blocks: AsyncIterable<PcmBlock>, options: LimiterOptions): AsyncGenerator<PcmBlock> {
  const gain = 10 ** (options.gainDb / 20);
  const ceiling = 10 ** (options.ceilingDbtp / 20);
  let state: ReturnType<typeof start> | null = null;
  for await (const block of blocks) {
    const frames = block.channels[0]?.length ?? 0;
    if (frames === 0) continue;
    state ??= start(block.sampleRate, block.channels.length, options);
    const out = state.push(block.channels, frames, gain, ceiling);
    if (out) yield out;
  }
  if (state) {
    const out = state.finish(ceiling);
    if (out) yield out;
  }
}

function start(sampleRate: number, channels: number, options: LimiterOptions) {
  const lookahead = Math.max(1, Math.round((sampleRate * (options.lookaheadMs ?? 5)) / 1000));
  const release = Math.exp(-1 / ((sampleRate * (options.releaseMs ?? 80)) / 1000));
  const delay = lookahead - 1 + INTERPOLATOR_DELAY;
  let size = 1;
  while (size < delay + INTERPOLATOR_HISTORY + 2) size *= 2;
  const mask = size - 1;
  // Per channel, the scaled input (the interpolator and the delayed output read it).
  const ring = Array.from({ length: channels }, () => new Float32Array(size));
  const window = new Float32Array(INTERPOLATOR_HISTORY);
  const need = new Float64Array(size);
  const r = new Float64Array(size).fill(1);
  // The sliding minimum's candidates (frame indices with rising need).
  const deque = new Int32Array(size);
  let head = 0;
  let tail = 0;
  let boxSum = lookahead;
  let rPrev = 1;
  let consumed = 0;
  let emitted = 0;
  let total = Number.POSITIVE_INFINITY;

  /** Steps frame i of the input (already in the ring); returns the gain of the frame now leaving, or null. */
  function step(i: number, ceilingLinear: number): number | null {
    const k = i - INTERPOLATOR_DELAY;
    if (k >= 0) {
      let est = 0;
      if (k < total) {
        for (let c = 0; c < channels; c++) {
          const x = ring[c]!;
          let local = 0;
          for (let j = 0; j < INTERPOLATOR_HISTORY; j++) {
            const v = Math.abs(x[(i - j) & mask]!);
            window[INTERPOLATOR_HISTORY - 1 - j] = x[(i - j) & mask]!;
            if (v > local) local = v;
          }
          // Most frames cannot come near the ceiling: no need to interpolate them.
          const e = local * INTERPOLATOR_BOUND <= ceilingLinear ? 0 : interpolatedPeakAt(window, INTERPOLATOR_HISTORY - 1);
          if (e > est) est = e;
        }
      }
      need[k & mask] = est > ceilingLinear ? ceilingLinear / est : 1;
      while (tail > head && need[deque[(tail - 1) & mask]! & mask]! >= need[k & mask]!) tail--;
      deque[tail++ & mask] = k;
      const j = k - lookahead + 1;
      if (j >= 0) {
        while (deque[head & mask]! < j) head++;
        const h = need[deque[head & mask]! & mask]!;
        const recovered = 1 - (1 - rPrev) * release;
        const rj = Math.min(h, recovered);
        rPrev = rj;
        boxSum += rj - r[j & mask]!;
        r[j & mask] = rj;
        return boxSum / lookahead;
      }
    }
    return null;
  }

  function emit(gains: number[], first: number): PcmBlock | null {
    const n = Math.min(gains.length, total - first);
    if (n <= 0) return null;
    const out = Array.from({ length: channels }, () => new Float32Array(n));
    for (let f = 0; f < n; f++) {
      const at = (first + f) & mask;
      for (let c = 0; c < channels; c++) out[c]![f] = ring[c]![at]! * gains[f]!;
    }
    emitted = first + n;
    return { sampleRate, channels: out };
  }

  /** Steps `count` frames of input (frame f of channel c: sample(c, f)) and hands out the frames due. */
  function feed(count: number, sample: (c: number, f: number) => number, ceilingLinear: number): PcmBlock | null {
    const gains: number[] = [];
    const outs: PcmBlock[] = [];
    for (let f = 0; f < count; f++) {
      const i = consumed++;
      for (let c = 0; c < channels; c++) ring[c]![i & mask] = sample(c, f);
      const g = step(i, ceilingLinear);
      if (g !== null) gains.push(g);
      // The ring holds `size` frames: hand out what is due before it would be overwritten.
      if (gains.length >= size - delay - INTERPOLATOR_HISTORY - 1) {
        const block = emit(gains.splice(0), emitted);
        if (block) outs.push(block);
      }
    }
    const last = emit(gains, emitted);
    if (last) outs.push(last);
    return concat(outs, sampleRate, channels);
  }

  return {
    push: (input: Float32Array[], frames: number, gainLinear: number, ceilingLinear: number) => feed(frames, (c, f) => input[c]![f]! * gainLinear, ceilingLinear),
    /** The end: silence through the look-ahead, so the last frames come out (and no more than came in). */
    finish(ceilingLinear: number): PcmBlock | null {
      total = consumed;
      return feed(delay, () => 0, ceilingLinear);
    },
  };
}

function concat(blocks: PcmBlock[], sampleRate: number, channels: number): PcmBlock | null {
  if (blocks.length === 0) return null;
  if (blocks.length === 1) return blocks[0]!;
  const n = blocks.reduce((s, b) => s + b.channels[0]!.length, 0);
  const out = Array.from({ length: channels }, () => new Float32Array(n));
  let at = 0;
  for (const b of blocks) {
    for (let c = 0; c < channels; c++) out[c]!.set(b.channels[c]!, at);
    at += b.channels[0]!.length;
  }
  return { sampleRate, channels: out };
}
