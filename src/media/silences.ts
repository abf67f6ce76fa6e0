// Silences in decoded audio (issue 34): where a clip's suggested mid-rolls and chapters may go.
// Pure and streaming like peaks.ts and loudness.ts (blocks folded as they come, nothing kept but
// the current run), so the server runs it over a whole episode in the memory of one block.
//
// Channels are mixed to mono (their mean) and cut into 20 ms windows; a window is quiet when its
// RMS level is below the threshold (default −45 dBFS: room tone and breaths of a spoken recording
// sit below it, speech well above). A silence is a run of quiet windows at least minSeconds long;
// its times are window edges, so they are exact to 20 ms. Silence at the very start and end of the
// audio is reported too (touchesStart / touchesEnd), for callers that want to leave it out.
import type { PcmBlock } from './decode.ts';

export type Silence = { start: number; end: number; touchesStart: boolean; touchesEnd: boolean };
export type SilenceOptions = {
  /** Level below which a window is quiet, in dBFS (RMS). */
  thresholdDb?: number;
  /** Shortest run of quiet windows that counts, in seconds. */
  minSeconds?: number;
};

export const SILENCE_WINDOW_SECONDS = 0.02;
export const SILENCE_THRESHOLD_DB = -45;
export const SILENCE_MIN_SECONDS = 0.5;

export class SilenceFinder {
  private readonly threshold: number;
  private readonly minSeconds: number;
  private sampleRate = 0;
  private window = 0;
  // The current window's sum of squares and samples, the samples seen, and where the quiet run began.
  private sum = 0;
  private n = 0;
  private frames = 0;
  private quietFrom: number | null = null;
  private readonly found: Silence[] = [];

  constructor(options: SilenceOptions = {}) {
    // The mean square a window stays under: (10^(dB/20))².
    this.threshold = 10 ** ((options.thresholdDb ?? SILENCE_THRESHOLD_DB) / 10);
    this.minSeconds = options.minSeconds ?? SILENCE_MIN_SECONDS;
  }

  push(block: PcmBlock): void {
    if (this.sampleRate === 0) {
      this.sampleRate = block.sampleRate;
      this.window = Math.max(1, Math.round(block.sampleRate * SILENCE_WINDOW_SECONDS));
    }
    const channels = block.channels;
    const c = channels.length;
    const length = channels[0]?.length ?? 0;
    for (let i = 0; i < length; i++) {
      let x = 0;
      for (let ch = 0; ch < c; ch++) x += channels[ch]![i]!;
      x /= c;
      this.sum += x * x;
      if (++this.n === this.window) this.closeWindow();
    }
  }

  /** The silences found, in time order; call once, after the last block. */
  finish(): Silence[] {
    if (this.n > 0) this.closeWindow();
    this.endRun(this.frames, true);
    return this.found;
  }

  private closeWindow(): void {
    const quiet = this.sum / this.n < this.threshold;
    const start = this.frames;
    this.frames += this.n;
    this.sum = 0;
    this.n = 0;
    if (quiet) this.quietFrom ??= start;
    else this.endRun(start, false);
  }

  private endRun(at: number, atEnd: boolean): void {
    if (this.quietFrom === null || this.sampleRate === 0) return;
    const start = this.quietFrom / this.sampleRate;
    const end = at / this.sampleRate;
    this.quietFrom = null;
    if (end - start + 1e-9 < this.minSeconds) return;
    const round = (s: number) => Math.round(s * 1000) / 1000;
    this.found.push({ start: round(start), end: round(end), touchesStart: start === 0, touchesEnd: atEnd });
  }
}

/** The silences of decoded audio, read block by block (a decoder's blocks, a worker's stream). */
export async function findSilences(blocks: AsyncIterable<PcmBlock> | Iterable<PcmBlock>, options: SilenceOptions = {}): Promise<Silence[]> {
  const finder = new SilenceFinder(options);
  for await (const block of blocks) finder.push(block);
  return finder.finish();
}
