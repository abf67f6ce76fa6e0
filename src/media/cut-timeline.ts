// Where a time of a cut's output (the episode a clip publishes: its chapters and ad markers are on
// this timeline) falls in the source the cut is made of (the original upload the cut editor draws).
// The output is the kept regions back to back, each splice shortening it by one crossfade
// (cut.ts cutDurationSeconds): region i begins in the output at the kept length before it less
// i crossfades, and a time inside the crossfade belongs to the region that fades in.
import { normalizeRegions, type Region } from './cut.ts';

/** The source time of `outputSeconds` under the kept regions; null past the output's end or with nothing kept. */
export function sourceSecondsAt(kept: readonly Region[], crossfadeMs: number, outputSeconds: number): number | null {
  const regions = normalizeRegions(kept);
  const fade = crossfadeMs / 1000;
  let begins = 0;
  let found: { region: Region; begins: number } | null = null;
  for (const [i, region] of regions.entries()) {
    if (i > 0 && outputSeconds < begins) break;
    found = { region, begins };
    begins += region.end - region.start - fade;
  }
  if (!found || outputSeconds < 0) return null;
  const at = found.region.start + (outputSeconds - found.begins);
  return at <= found.region.end + 1e-9 ? Math.min(at, found.region.end) : null;
}
