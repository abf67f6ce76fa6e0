// Pure helpers of the waveform view: which peak level to draw at a zoom, the min/max of each
// screen column, and the zoom range (whole episode down to single words).
import type { Waveform } from '../../media/peaks.ts';

/** The finest zoom: samples per screen pixel (at 44.1 kHz, 1 px ≈ 1.5 ms: single words are wide). */
export const MIN_SAMPLES_PER_PIXEL = 64;
export const ZOOM_STEP = 2;

export function wholeViewSpp(frames: number, width: number): number {
  return Math.max(MIN_SAMPLES_PER_PIXEL, frames / Math.max(1, width));
}

/** The coarsest level whose pixels are no wider than a screen column (fewest values to read). */
export function levelFor(waveforms: readonly Waveform[], viewSpp: number): Waveform {
  const sorted = [...waveforms].sort((a, b) => a.samplesPerPixel - b.samplesPerPixel);
  let best = sorted[0]!;
  for (const w of sorted) if (w.samplesPerPixel <= viewSpp) best = w;
  return best;
}

/** Min/max (−1..1) of each of `width` screen columns starting at source frame `startFrame`. */
export function columns(w: Waveform, startFrame: number, viewSpp: number, width: number): Float32Array {
  const out = new Float32Array(width * 2);
  const scale = w.bits === 8 ? 128 : 32768;
  const per = w.channels * 2;
  for (let x = 0; x < width; x++) {
    const a = Math.floor((startFrame + x * viewSpp) / w.samplesPerPixel);
    const b = Math.max(a + 1, Math.floor((startFrame + (x + 1) * viewSpp) / w.samplesPerPixel));
    let lo = 0;
    let hi = 0;
    let any = false;
    for (let p = a; p < b && p < w.length; p++) {
      for (let c = 0; c < w.channels; c++) {
        const mn = w.data[p * per + c * 2]! / scale;
        const mx = w.data[p * per + c * 2 + 1]! / scale;
        if (!any || mn < lo) lo = mn;
        if (!any || mx > hi) hi = mx;
        any = true;
      }
    }
    out[x * 2] = lo;
    out[x * 2 + 1] = hi;
  }
  return out;
}

export function clampZoom(viewSpp: number, frames: number, width: number): number {
  return Math.min(wholeViewSpp(frames, width), Math.max(MIN_SAMPLES_PER_PIXEL, viewSpp));
}
