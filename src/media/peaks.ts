// Min/max waveform peaks at several zoom levels, computed in ONE streaming pass.
// Channels are mixed to mono (their mean), as audiowaveform does by default. The finest level
// (256 samples per pixel) is accumulated from samples; each coarser level is a power-of-4 multiple
// and is built from the one below, so the result is exactly what a direct pass at that scale gives.
import type { PcmBlock } from './decode.ts';

export const PEAK_LEVELS = [256, 1024, 4096, 16384, 65536] as const;

/** One audiowaveform data set: interleaved min,max per pixel (per channel), 8- or 16-bit. */
export type Waveform = {
  version: 2;
  channels: number;
  sampleRate: number;
  samplesPerPixel: number;
  bits: 8 | 16;
  /** Number of pixels. */
  length: number;
  /** length * channels * 2 values: min, max for each pixel. */
  data: Int8Array | Int16Array;
};

/** Values per page of a level's pixels (64 KiB). */
const PAGE_VALUES = 32 * 1024;

/**
 * A level's min/max values in fixed pages, joined once at the end: growing never copies and never
 * holds a half-empty doubled array, so memory is the data itself plus one page.
 */
class PagedInt16 {
  private pages: Int16Array[] = [];
  private page = new Int16Array(PAGE_VALUES);
  private n = 0;
  push(a: number, b: number): void {
    if (this.n + 2 > PAGE_VALUES) {
      this.pages.push(this.page);
      this.page = new Int16Array(PAGE_VALUES);
      this.n = 0;
    }
    this.page[this.n++] = a;
    this.page[this.n++] = b;
  }
  take(): Int16Array {
    const out = new Int16Array(this.pages.length * PAGE_VALUES + this.n);
    this.pages.forEach((p, i) => out.set(p, i * PAGE_VALUES));
    out.set(this.page.subarray(0, this.n), this.pages.length * PAGE_VALUES);
    this.pages = [];
    this.n = 0;
    return out;
  }
}

const q16 = (x: number) => (x >= 1 ? 32767 : x <= -1 ? -32768 : Math.round(x * 32767));

export class PeaksBuilder {
  private readonly levels: readonly number[];
  private readonly out: PagedInt16[];
  // Running min/max per level; `count` counts samples (level 0) or child pixels (others).
  private readonly lo: number[];
  private readonly hi: number[];
  private readonly count: number[];
  sampleRate = 0;
  frames = 0;

  /**
   * `startSample`: where the first sample added sits in the whole file (a part of a file decoded
   * on its own, src/media/mp3-split.ts). Each level's first pixel then holds only this part's share
   * of the pixel; joinWaveforms merges it with the previous part's last one.
   */
  constructor(levels: readonly number[] = PEAK_LEVELS, startSample = 0) {
    for (let i = 1; i < levels.length; i++) {
      if (levels[i]! % levels[i - 1]! !== 0) throw new Error('each peak level must be a multiple of the one before');
    }
    this.levels = levels;
    this.out = levels.map(() => new PagedInt16());
    this.lo = levels.map(() => 32767);
    this.hi = levels.map(() => -32768);
    // Samples (level 0) or whole child pixels (above) of the first pixel that lie before the part.
    this.count = levels.map((spp, i) => (i === 0 ? startSample % spp : Math.floor((startSample % spp) / levels[i - 1]!)));
  }

  private emit(level: number, lo: number, hi: number): void {
    this.out[level]!.push(lo, hi);
    const up = level + 1;
    if (up >= this.levels.length) return;
    if (lo < this.lo[up]!) this.lo[up] = lo;
    if (hi > this.hi[up]!) this.hi[up] = hi;
    if (++this.count[up]! === this.levels[up]! / this.levels[level]!) {
      this.emit(up, this.lo[up]!, this.hi[up]!);
      this.lo[up] = 32767;
      this.hi[up] = -32768;
      this.count[up] = 0;
    }
  }

  // Level 0 runs on floats and quantises once per pixel: rounding is monotone, so the min/max of
  // quantised samples equals the quantised min/max (the result is identical, and much faster).
  private flo = Infinity;
  private fhi = -Infinity;

  add(block: PcmBlock): void {
    this.sampleRate = block.sampleRate;
    const chans = block.channels;
    const n = chans[0]?.length ?? 0;
    const nch = chans.length;
    const spp = this.levels[0]!;
    const c0 = chans[0]!;
    let lo = this.flo;
    let hi = this.fhi;
    let count = this.count[0]!;
    let i = 0;
    while (i < n) {
      const end = Math.min(n, i + (spp - count));
      if (nch === 1) {
        for (let k = i; k < end; k++) {
          const s = c0[k]!;
          if (s < lo) lo = s;
          if (s > hi) hi = s;
        }
      } else {
        for (let k = i; k < end; k++) {
          let s = 0;
          for (let c = 0; c < nch; c++) s += chans[c]![k]!;
          s /= nch;
          if (s < lo) lo = s;
          if (s > hi) hi = s;
        }
      }
      count += end - i;
      i = end;
      if (count === spp) {
        this.emit(0, q16(lo), q16(hi));
        lo = Infinity;
        hi = -Infinity;
        count = 0;
      }
    }
    this.flo = lo;
    this.fhi = hi;
    this.count[0] = count;
    this.lo[0] = count > 0 ? q16(lo) : 32767;
    this.hi[0] = count > 0 ? q16(hi) : -32768;
    this.frames += n;
  }

  /** Flushes partial pixels and returns one Waveform per level, finest first. */
  finish(): Waveform[] {
    for (let level = 0; this.frames > 0 && level < this.levels.length; level++) {
      if (this.count[level]! > 0) {
        const lo = this.lo[level]!, hi = this.hi[level]!;
        this.count[level] = 0;
        this.lo[level] = 32767;
        this.hi[level] = -32768;
        // A partial pixel at this level also closes the partial pixel above it.
        this.out[level]!.push(lo, hi);
        const up = level + 1;
        if (up < this.levels.length) {
          if (lo < this.lo[up]!) this.lo[up] = lo;
          if (hi > this.hi[up]!) this.hi[up] = hi;
          this.count[up]!++;
        }
      }
    }
    return this.levels.map((spp, i) => {
      const data = this.out[i]!.take();
      return { version: 2, channels: 1, sampleRate: this.sampleRate, samplesPerPixel: spp, bits: 16, length: data.length / 2, data };
    });
  }
}

/**
 * The waveforms of consecutive parts of one file (each made by a PeaksBuilder given the part's
 * startSample) as the one pass would have made them: where a part starts inside a pixel, that
 * pixel is the previous part's last one and this part's first, merged (min of mins, max of maxes).
 */
export function joinWaveforms(parts: ReadonlyArray<{ startSample: number; waveforms: Waveform[] }>): Waveform[] {
  const first = parts[0]!.waveforms;
  return first.map((w, level) => {
    const spp = w.samplesPerPixel;
    let values = 0;
    for (const [i, p] of parts.entries()) values += p.waveforms[level]!.data.length - (i > 0 && p.startSample % spp !== 0 ? 2 : 0);
    const data = new Int16Array(values);
    let at = 0;
    for (const [i, p] of parts.entries()) {
      let src = p.waveforms[level]!.data;
      if (i > 0 && p.startSample % spp !== 0 && src.length >= 2 && at >= 2) {
        data[at - 2] = Math.min(data[at - 2]!, src[0]!);
        data[at - 1] = Math.max(data[at - 1]!, src[1]!);
        src = src.subarray(2);
      }
      data.set(src, at);
      at += src.length;
    }
    return { ...w, length: data.length / 2, data };
  });
}
