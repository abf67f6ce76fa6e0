// Cut edits: the regions of the source that are kept, joined with equal-power crossfades.
//
//   source   |----A----|xxxxxxxx removed xxxxxxxx|------B------|
//   output   |----A--\/--B------|      at each splice the last F frames of A fade out (cos) while the
//                   /\                 first F frames of B fade in (sin): out = a·cos(πt/2) + b·sin(πt/2)
//
// Rendering streams: one pass over the decoded source in order, holding only the F-frame tail of
// the region before each splice (F ≤ 30 ms), so memory does not grow with the episode.
import type { PcmBlock } from './decode.ts';

export type Region = { start: number; end: number };

/** Kept regions sorted, overlaps and touching regions merged, empty ones and negatives dropped. */
export function normalizeRegions(regions: readonly Region[], durationSeconds = Infinity): Region[] {
  const clean = regions
    .map((r) => ({ start: Math.max(0, Math.min(r.start, durationSeconds)), end: Math.max(0, Math.min(r.end, durationSeconds)) }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const out: Region[] = [];
  for (const r of clean) {
    const last = out.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/** Frames of crossfade at `sampleRate`, never more than half of the shortest region. */
export function crossfadeFrames(regions: readonly Region[], crossfadeMs: number, sampleRate: number): number {
  const f = Math.round((crossfadeMs / 1000) * sampleRate);
  const shortest = Math.min(...regions.map((r) => Math.floor((r.end - r.start) * sampleRate)));
  return Math.max(0, Math.min(f, Math.floor(shortest / 2)));
}

/** Seconds of output: the kept regions less one crossfade per splice. */
export function cutDurationSeconds(regions: readonly Region[], crossfadeMs: number): number {
  const n = normalizeRegions(regions);
  if (n.length === 0) return 0;
  const total = n.reduce((s, r) => s + (r.end - r.start), 0);
  return total - ((n.length - 1) * crossfadeMs) / 1000;
}

/** Equal-power gains at position t ∈ [0, 1] of a crossfade. */
export function equalPowerGains(t: number): { out: number; in: number } {
  return { out: Math.cos((t * Math.PI) / 2), in: Math.sin((t * Math.PI) / 2) };
}

export async function* renderCut(source: AsyncIterable<PcmBlock>, regions: readonly Region[], crossfadeMs: number): AsyncGenerator<PcmBlock> {
  const kept = normalizeRegions(regions);
  if (kept.length === 0) return;
  let pos = 0; // source frame of the current block's first frame
  let frames: { s: number; e: number }[] | null = null;
  let F = 0;
  let tail: Float32Array[] | null = null; // last F frames of the previous region
  let tailFill = 0;
  let idx = 0;
  for await (const block of source) {
    const sr = block.sampleRate;
    const nch = block.channels.length;
    const n = block.channels[0]?.length ?? 0;
    if (!frames) {
      frames = kept.map((r) => ({ s: Math.round(r.start * sr), e: Math.round(r.end * sr) }));
      F = crossfadeFrames(kept, crossfadeMs, sr);
    }
    const out = Array.from({ length: nch }, () => new Float32Array(n));
    let w = 0;
    const blockEnd = pos + n;
    while (idx < frames.length) {
      const r = frames[idx]!;
      if (r.s >= blockEnd) break;
      const from = Math.max(r.s, pos);
      const to = Math.min(r.e, blockEnd);
      const hasNext = idx < frames.length - 1;
      for (let f = from; f < to; f++) {
        const i = f - pos;
        const intoRegion = f - r.s;
        if (hasNext && F > 0 && f >= r.e - F) {
          // Keep for the crossfade into the next region.
          if (!tail) tail = Array.from({ length: nch }, () => new Float32Array(F));
          for (let c = 0; c < nch; c++) tail[c]![f - (r.e - F)] = block.channels[c]![i]!;
          tailFill = f - (r.e - F) + 1;
        } else if (idx > 0 && F > 0 && intoRegion < F && tail) {
          const g = equalPowerGains((intoRegion + 0.5) / F);
          for (let c = 0; c < nch; c++) out[c]![w] = tail[c]![intoRegion]! * g.out + block.channels[c]![i]! * g.in;
          w++;
        } else {
          for (let c = 0; c < nch; c++) out[c]![w] = block.channels[c]![i]!;
          w++;
        }
      }
      if (r.e <= blockEnd) {
        idx++;
        if (idx < frames.length && tail && tailFill < F) tail = null; // region shorter than its fade: plain join
      } else break;
    }
    pos = blockEnd;
    if (w > 0) yield { sampleRate: sr, channels: out.map((c) => c.subarray(0, w)) };
    if (idx >= frames.length) break;
  }
}
