// A long text cut to the part around its first match, as highlight() segments (src/domain/search.ts
// decides what a match is; this only chooses what to show of it).
import type { HighlightSegment } from '../../domain/search.ts';

/** Characters shown before the first match when the text is cut there. */
const LEAD = 60;

/**
 * At most `max` characters of the segments, from a word boundary a little before the first
 * match (from the start when the match is early or there is none), with '…' where cut.
 */
export function snippet(segments: readonly HighlightSegment[], max = 220): HighlightSegment[] {
  const text = segments.map((s) => s.text).join('');
  if (text.length <= max) return [...segments];
  let at = 0;
  let first = -1;
  for (const s of segments) {
    if (s.match) {
      first = at;
      break;
    }
    at += s.text.length;
  }
  let start = first > LEAD ? first - LEAD : 0;
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < first ? space + 1 : start;
  }
  const end = Math.min(text.length, start + max);
  const out: HighlightSegment[] = [];
  let pos = 0;
  for (const s of segments) {
    const from = Math.max(start, pos);
    const to = Math.min(end, pos + s.text.length);
    if (to > from) out.push({ text: s.text.slice(from - pos, to - pos), match: s.match });
    pos += s.text.length;
  }
  if (start > 0) out.unshift({ text: '…', match: false });
  if (end < text.length) out.push({ text: '…', match: false });
  return out;
}
