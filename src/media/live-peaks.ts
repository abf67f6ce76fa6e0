// Peaks of an MP3 stream as it arrives (issue 34, recordings as they happen): each chunk of bytes
// is fed once to mpg123, which keeps its own frame state between feeds (a frame split over two
// chunks is decoded when its end arrives), and the samples it gives are folded into min/max pixels
// of LIVE_SAMPLES_PER_PIXEL samples, mono (the channels' mean, as src/media/peaks.ts does). Only
// whole pixels are handed out, each once: what was turned into peaks is never decoded again, and a
// client appends what it is given to what it has drawn.
//
// For Node and a Web Worker alike (mpg123-decoder is WebAssembly).
import { MPEGDecoder } from 'mpg123-decoder';

/** The finest level of src/media/peaks.ts: a live waveform lines up with the finalized high-res one. */
export const LIVE_SAMPLES_PER_PIXEL = 256;

const q16 = (x: number) => (x >= 1 ? 32767 : x <= -1 ? -32768 : Math.round(x * 32767));

export type LivePeaks = {
  /** min, max per pixel (16-bit), in order. */
  data: Int16Array;
  /** The first pixel's index in the whole stream. */
  firstPixel: number;
};

export class LiveMp3Peaks {
  private decoder: MPEGDecoder | null = null;
  private lo = 32767;
  private hi = -32768;
  private inPixel = 0;
  /** Pixels handed out so far. */
  pixels = 0;
  /** Samples (per channel) decoded so far. */
  samples = 0;
  sampleRate = 0;
  /** Frames mpg123 could not decode (a damaged or torn stream). */
  errors = 0;

  async ready(): Promise<void> {
    if (this.decoder) return;
    this.decoder = new MPEGDecoder();
    await this.decoder.ready;
  }

  /** Decodes one chunk (bytes not seen before) and returns the whole pixels it completed. */
  push(bytes: Uint8Array): LivePeaks {
    if (!this.decoder) throw new Error('LiveMp3Peaks.ready() first');
    const out = this.decoder.decode(bytes);
    this.errors += out.errors.length;
    const firstPixel = this.pixels;
    if (out.samplesDecoded === 0) return { data: new Int16Array(0), firstPixel };
    if (out.sampleRate) this.sampleRate = out.sampleRate;
    const left = out.channelData[0]!;
    const right = out.channelData[1] ?? left;
    const data = new Int16Array(2 * Math.ceil((this.inPixel + out.samplesDecoded) / LIVE_SAMPLES_PER_PIXEL));
    let n = 0;
    for (let i = 0; i < out.samplesDecoded; i++) {
      const v = q16((left[i]! + right[i]!) / 2);
      if (v < this.lo) this.lo = v;
      if (v > this.hi) this.hi = v;
      if (++this.inPixel === LIVE_SAMPLES_PER_PIXEL) {
        data[n++] = this.lo;
        data[n++] = this.hi;
        this.lo = 32767;
        this.hi = -32768;
        this.inPixel = 0;
      }
    }
    this.samples += out.samplesDecoded;
    this.pixels += n / 2;
    return { data: data.subarray(0, n), firstPixel };
  }

  /** The stream ended: its last, partial pixel (if any) and the decoder freed. */
  end(): LivePeaks {
    const firstPixel = this.pixels;
    let data = new Int16Array(0);
    if (this.inPixel > 0) {
      data = Int16Array.of(this.lo, this.hi);
      this.pixels++;
      this.inPixel = 0;
    }
    this.decoder?.free();
    this.decoder = null;
    return { data, firstPixel };
  }

  get durationSeconds(): number {
    return this.sampleRate > 0 ? this.samples / this.sampleRate : 0;
  }
}
