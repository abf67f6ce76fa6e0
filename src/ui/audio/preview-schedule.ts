// When each kept segment of a cut preview plays on the audio graph's clock, with equal-power
// crossfades: segment i starts F seconds before segment i-1 ends, fading in while i-1 fades out.
// Removed regions never appear in a schedule.
import { normalizeRegions, type Region } from '../../media/cut.ts';

export type ScheduledSegment = {
  /** Source seconds played. */
  sourceStart: number;
  sourceEnd: number;
  /** Graph time (AudioContext.currentTime) at which the segment starts and ends. */
  when: number;
  until: number;
  fadeIn: number;
  fadeOut: number;
};

/** Segments starting from `from` (source seconds, inside or before a kept region). */
export function previewSchedule(kept: readonly Region[], crossfadeMs: number, startAt: number, from = 0): ScheduledSegment[] {
  const regions = normalizeRegions(kept)
    .map((r) => ({ start: Math.max(r.start, from), end: r.end }))
    .filter((r) => r.end > r.start);
  const F = crossfadeMs / 1000;
  const out: ScheduledSegment[] = [];
  let t = startAt;
  regions.forEach((r, i) => {
    const len = r.end - r.start;
    const fadeIn = i === 0 ? 0 : Math.min(F, len / 2);
    const fadeOut = i === regions.length - 1 ? 0 : Math.min(F, len / 2);
    const when = i === 0 ? t : t - fadeIn;
    out.push({ sourceStart: r.start, sourceEnd: r.end, when, until: when + len, fadeIn, fadeOut });
    t = when + len;
  });
  return out;
}

/** Equal-power gain curves for a fade of `n` points: in = sin, out = cos, over a quarter turn. */
export function equalPowerCurve(direction: 'in' | 'out', n = 64): Float32Array {
  const c = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const x = (i / (n - 1)) * (Math.PI / 2);
    c[i] = direction === 'in' ? Math.sin(x) : Math.cos(x);
  }
  return c;
}

/** Where in the source the preview is at graph time `now` (null before start or after the end). */
export function sourceTimeAt(schedule: readonly ScheduledSegment[], now: number): number | null {
  for (let i = schedule.length - 1; i >= 0; i--) {
    const s = schedule[i]!;
    if (now >= s.when && now < s.until) return s.sourceStart + (now - s.when);
  }
  return null;
}
