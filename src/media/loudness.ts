// Loudness to EBU R128 / ITU-R BS.1770-4, pure TypeScript: the same code in a Web Worker and in
// Node (the server measures each clip's audio with it, and the normalization job measures what it
// makes). Blocks are folded as they come, so memory does not grow with the file beyond one number
// per 100 ms.
//
//   PcmBlock ──> K-weighting (high shelf + RLB high-pass, coefficients for the block's rate)
//      │              └─> mean square per channel, weighted, per 100 ms step ──┬─> 400 ms blocks, 75 % overlap:
//      │                                                                       │   gates −70 LUFS and −10 LU → integrated
//      │                                                                       └─> 3 s blocks every 100 ms:
//      │                                                                           gates −70 LUFS and −20 LU → LRA (10th–95th)
//      └──> 4× oversampling (polyphase windowed sinc) ──> true peak (dBTP)
//
// Integrated loudness and LRA of audio too quiet for the gates (silence) are null, not −∞: they
// travel as JSON.
import type { PcmBlock } from './decode.ts';

export type LoudnessMeasurement = {
  /** LUFS, or null when no 400 ms block passes the gates (silence, or under 0.4 s). */
  integratedLufs: number | null;
  /** dBTP (4× oversampled), or null for digital silence. */
  truePeakDbtp: number | null;
  /** LU, or null when no 3 s block passes the gates (under 3 s, or silence). */
  loudnessRangeLu: number | null;
  /** Seconds measured. */
  durationSeconds: number;
};

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
const LRA_RELATIVE_GATE_LU = -20;
/** 400 ms blocks and 3 s short-term blocks are 4 and 30 steps of 100 ms (75 % and 96.7 % overlap). */
const STEPS_PER_BLOCK = 4;
const STEPS_PER_SHORT_TERM = 30;
const OVERSAMPLING = 4;
/** Taps of the interpolation filter (odd: phase 0 is the input sample itself). */
const INTERPOLATION_TAPS = 49;

type Biquad = { b0: number; b1: number; b2: number; a1: number; a2: number };

/**
 * The two K-weighting stages of BS.1770-4 for any sample rate: the published 48 kHz coefficients
 * come from an analogue prototype (shelf at 1681.97 Hz, +3.9998 dB, Q 0.7072; high-pass at 38.135 Hz,
 * Q 0.5003), mapped here through the bilinear transform as libebur128 does, so 44.1 kHz or
 * 22.05 kHz audio is weighted like 48 kHz audio, not with filters meant for another rate.
 */
export function kWeightingFilters(sampleRate: number): [Biquad, Biquad] {
  const f0 = 1681.974450955533;
  const gainDb = 3.999843853973347;
  const q = 0.7071752369554196;
  const k = Math.tan((Math.PI * f0) / sampleRate);
  const vh = 10 ** (gainDb / 20);
  const vb = vh ** 0.4996667741545416;
  const a0 = 1 + k / q + k * k;
  const shelf: Biquad = {
    b0: (vh + (vb * k) / q + k * k) / a0,
    b1: (2 * (k * k - vh)) / a0,
    b2: (vh - (vb * k) / q + k * k) / a0,
    a1: (2 * (k * k - 1)) / a0,
    a2: (1 - k / q + k * k) / a0,
  };
  const f1 = 38.13547087602444;
  const q1 = 0.5003270373238773;
  const k1 = Math.tan((Math.PI * f1) / sampleRate);
  const d = 1 + k1 / q1 + k1 * k1;
  const highPass: Biquad = { b0: 1, b1: -2, b2: 1, a1: (2 * (k1 * k1 - 1)) / d, a2: (1 - k1 / q1 + k1 * k1) / d };
  return [shelf, highPass];
}

/** Channel weights of BS.1770-4: 1 for front channels, 1.41 for surrounds, 0 for the LFE (5.1 order L R C LFE Ls Rs). */
function channelWeights(channels: number): number[] {
  if (channels === 6) return [1, 1, 1, 0, 1.41, 1.41];
  if (channels === 5) return [1, 1, 1, 1.41, 1.41];
  return Array.from({ length: channels }, () => 1);
}

/** The 4 phases of a Hann-windowed sinc interpolator, and the most any phase can amplify (the sum of its |taps|). */
function interpolationPhases(): { phases: Float64Array[]; bound: number } {
  const mid = (INTERPOLATION_TAPS - 1) / 2;
  const h = new Float64Array(INTERPOLATION_TAPS);
  for (let n = 0; n < INTERPOLATION_TAPS; n++) {
    const x = (n - mid) / OVERSAMPLING;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    h[n] = sinc * 0.5 * (1 - Math.cos((2 * Math.PI * n) / (INTERPOLATION_TAPS - 1)));
  }
  const phases: Float64Array[] = [];
  let bound = 0;
  for (let p = 0; p < OVERSAMPLING; p++) {
    const taps: number[] = [];
    for (let n = p; n < INTERPOLATION_TAPS; n += OVERSAMPLING) taps.push(h[n]!);
    phases.push(Float64Array.from(taps));
    bound = Math.max(bound, taps.reduce((s, t) => s + Math.abs(t), 0));
  }
  return { phases, bound };
}

const INTERPOLATION = interpolationPhases();
/** Input samples a phase reaches back over. */
const HISTORY = Math.ceil(INTERPOLATION_TAPS / OVERSAMPLING);
/** True peak is computed in runs of this many samples; a run whose inputs cannot beat the peak found so far is skipped. */
const RUN = 64;

/** The interpolator's delay in input samples: its points at input n lie around the signal at n − this (the limiter aligns on it). */
export const INTERPOLATOR_DELAY = (INTERPOLATION_TAPS - 1) / 2 / OVERSAMPLING;
/** Input samples the interpolator reads before the current one. */
export const INTERPOLATOR_HISTORY = HISTORY;
/** The most the interpolator can amplify: a run whose largest |sample| times this stays under a level cannot exceed it. */
export const INTERPOLATOR_BOUND = INTERPOLATION.bound;

/** The largest |value| among the 4 interpolated points at index `at` of `x` (reads x[at − HISTORY + 1 .. at]). */
export function interpolatedPeakAt(x: Float32Array, at: number): number {
  let peak = 0;
  for (const taps of INTERPOLATION.phases) {
    let acc = 0;
    for (let j = 0; j < taps.length; j++) acc += taps[j]! * x[at - j]!;
    const a = Math.abs(acc);
    if (a > peak) peak = a;
  }
  return peak;
}

const energyToLufs = (e: number) => -0.691 + 10 * Math.log10(e);

/** A streaming meter for one stream of audio: add blocks in order, then read the result. */
export class LoudnessMeter {
  private rate = 0;
  private weights: number[] = [];
  private filters: [Biquad, Biquad] | null = null;
  /** Per channel: the two biquads' states (x1, x2, y1, y2 of the shelf, then of the high-pass). */
  private state: Float64Array[] = [];
  /** Per channel: the last HISTORY input samples before the current block (for the interpolator). */
  private history: Float32Array[] = [];
  private stepLength = 0;
  private stepFill = 0;
  private stepSum = 0;
  /** Weighted mean square of each complete 100 ms step. */
  private steps: number[] = [];
  private peak = 0;
  private frames = 0;

  add(block: PcmBlock): void {
    const channels = block.channels.length;
    if (channels === 0) return;
    if (this.filters === null) this.start(block.sampleRate, channels);
    else if (block.sampleRate !== this.rate || channels !== this.weights.length) throw new Error('A loudness meter measures one sample rate and channel count');
    const length = block.channels[0]!.length;
    const squares = new Float64Array(length);
    for (let c = 0; c < channels; c++) {
      const samples = block.channels[c]!;
      this.filterChannel(samples, this.state[c]!, squares, this.weights[c]!);
      this.truePeakChannel(samples, c);
    }
    for (let i = 0; i < length; i++) {
      this.stepSum += squares[i]!;
      if (++this.stepFill === this.stepLength) {
        this.steps.push(this.stepSum / this.stepLength);
        this.stepSum = 0;
        this.stepFill = 0;
      }
    }
    this.frames += length;
  }

  result(): LoudnessMeasurement {
    this.flushPeak();
    const blocks: number[] = [];
    for (let i = 0; i + STEPS_PER_BLOCK <= this.steps.length; i++) blocks.push(mean(this.steps, i, STEPS_PER_BLOCK));
    const shortTerm: number[] = [];
    for (let i = 0; i + STEPS_PER_SHORT_TERM <= this.steps.length; i++) shortTerm.push(mean(this.steps, i, STEPS_PER_SHORT_TERM));
    return {
      integratedLufs: integrated(blocks),
      truePeakDbtp: this.peak > 0 ? 20 * Math.log10(this.peak) : null,
      loudnessRangeLu: loudnessRange(shortTerm),
      durationSeconds: this.rate > 0 ? this.frames / this.rate : 0,
    };
  }

  private start(sampleRate: number, channels: number): void {
    this.rate = sampleRate;
    this.weights = channelWeights(channels);
    this.filters = kWeightingFilters(sampleRate);
    this.state = Array.from({ length: channels }, () => new Float64Array(8));
    this.history = Array.from({ length: channels }, () => new Float32Array(HISTORY));
    this.stepLength = Math.max(1, Math.round(sampleRate / 10));
  }

  private filterChannel(x: Float32Array, s: Float64Array, squares: Float64Array, weight: number): void {
    if (weight === 0) return;
    const [f, g] = this.filters!;
    let [x1, x2, y1, y2, u1, u2, v1, v2] = s as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < x.length; i++) {
      const x0 = x[i]!;
      const y0 = f.b0 * x0 + f.b1 * x1 + f.b2 * x2 - f.a1 * y1 - f.a2 * y2;
      x2 = x1; x1 = x0; y2 = y1; y1 = y0;
      const v0 = y0 - 2 * u1 + u2 - g.a1 * v1 - g.a2 * v2;
      u2 = u1; u1 = y0; v2 = v1; v1 = v0;
      squares[i]! += weight * v0 * v0;
    }
    // Denormals would slow the loop to a crawl after long silence.
    const flush = (n: number) => (Math.abs(n) < 1e-30 ? 0 : n);
    s.set([x1, x2, y1, y2, u1, u2, v1, v2].map(flush));
  }

  /** The 4× oversampled peak of this channel's block (its history in front); runs that cannot beat the peak are skipped. */
  private truePeakChannel(x: Float32Array, c: number): void {
    const hist = this.history[c]!;
    const ext = new Float32Array(HISTORY + x.length);
    ext.set(hist, 0);
    ext.set(x, HISTORY);
    const { bound } = INTERPOLATION;
    let peak = this.peak;
    // Output n (phase p) uses ext[n + HISTORY - j] for j < taps of phase p: inputs n .. n + HISTORY.
    for (let start = 0; start < x.length; start += RUN) {
      const end = Math.min(x.length, start + RUN);
      let local = 0;
      for (let i = start; i < end + HISTORY; i++) {
        const a = Math.abs(ext[i]!);
        if (a > local) local = a;
      }
      if (local * bound <= peak) continue;
      for (let n = start; n < end; n++) {
        const a = interpolatedPeakAt(ext, n + HISTORY);
        if (a > peak) peak = a;
      }
    }
    this.peak = peak;
    hist.set(ext.subarray(ext.length - HISTORY));
  }

  /** The interpolator's tail: the last samples' outputs, with zeros after the end. */
  private flushPeak(): void {
    if (this.filters === null) return;
    for (let c = 0; c < this.history.length; c++) {
      const saved = Float32Array.from(this.history[c]!);
      this.truePeakChannel(new Float32Array(HISTORY), c);
      this.history[c]!.set(saved);
    }
  }
}

function mean(values: readonly number[], from: number, count: number): number {
  let sum = 0;
  for (let i = from; i < from + count; i++) sum += values[i]!;
  return sum / count;
}

/** BS.1770-4 gating: blocks above −70 LUFS, then those within 10 LU of their mean loudness. */
function integrated(blocks: readonly number[]): number | null {
  const absolute = blocks.filter((e) => e > 0 && energyToLufs(e) > ABSOLUTE_GATE_LUFS);
  if (absolute.length === 0) return null;
  const gate = energyToLufs(mean(absolute, 0, absolute.length)) + RELATIVE_GATE_LU;
  const relative = absolute.filter((e) => energyToLufs(e) > gate);
  return relative.length === 0 ? null : energyToLufs(mean(relative, 0, relative.length));
}

/** EBU Tech 3342: short-term loudness above −70 LUFS and within 20 LU of its mean; the 95th minus the 10th percentile. */
function loudnessRange(shortTerm: readonly number[]): number | null {
  const absolute = shortTerm.filter((e) => e > 0 && energyToLufs(e) > ABSOLUTE_GATE_LUFS);
  if (absolute.length === 0) return null;
  const gate = energyToLufs(mean(absolute, 0, absolute.length)) + LRA_RELATIVE_GATE_LU;
  const levels = absolute.map(energyToLufs).filter((l) => l > gate).sort((a, b) => a - b);
  if (levels.length === 0) return null;
  const at = (q: number) => levels[Math.round((levels.length - 1) * q)]!;
  return at(0.95) - at(0.1);
}

/** Measures a whole stream of blocks (a decoding, or a rendered cut). */
export async function measureLoudness(blocks: AsyncIterable<PcmBlock>): Promise<LoudnessMeasurement> {
  const meter = new LoudnessMeter();
  for await (const block of blocks) meter.add(block);
  return meter.result();
}
