// Long MP3 files decoded in parts, one part per core, giving exactly the samples (and so the
// peaks) of one pass from the start.
//
// Why it works, measured on our fixtures with mpg123 (src/media/mp3-split.test.ts checks it):
// - Fed the bytes from the file's start up to frame k, mpg123 outputs exactly the samples of
//   frames before k, less its gapless start skip (encoder delay + 529, from the LAME/Lavc tag).
// - Fed the bytes from frame k − W, it outputs W × 1152 samples of warm-up, then frame k onward
//   identical to the one pass, provided the warm-up refills the bit reservoir (main data can
//   start up to 511 bytes back: W ≥ 8 covers 32 kbps) and W ≡ (k − first audio frame) mod 4
//   (the synthesis filter alternates its buffers; another phase differs by 1 ulp). Starting
//   mid-file, mpg123 never sees the tag, so it skips nothing and trims no end padding: the part
//   drops its warm-up and keeps only up to the file's gapless length.
// Only plain files take this path: MPEG-1 Layer III, an Info/Xing frame with the frame count and
// the encoder delay and padding, and a clean walk of frame headers up to the split point. The
// decoders check their sample counts against the plan; a mismatch falls back to one pass.
import { parseMpegHeader, id3v2Length } from './sniff.ts';
import type { ByteSource } from './source.ts';

const SAMPLES_PER_FRAME = 1152;
/** mpg123's own decoder delay, added to the encoder delay of the tag (libmpg123 GAPLESS_DELAY). */
const GAPLESS_DELAY = 529;
const MIN_WARMUP_FRAMES = 8;
/** Below this many audio frames (about 52 s) one pass is quicker than starting a second worker. */
export const MIN_SPLIT_FRAMES = 2000;

export type Mp3Part = {
  /** Bytes fed to the decoder: [byteStart, byteEnd). */
  byteStart: number;
  byteEnd: number;
  /** Decoded samples dropped first (warm-up frames). */
  discard: number;
  /** Samples kept after the warm-up. */
  keep: number;
  /** Index of this part's first kept sample in the whole file's output. */
  startSample: number;
};

export type Mp3SplitPlan = { totalSamples: number; sampleRate: number; channels: number; parts: Mp3Part[] };

type Tag = { firstFrame: number; frames: number; delay: number; padding: number; sampleRate: number; channels: number };

/** The Info/Xing frame with its frame count and the LAME-style encoder delay and padding. */
export function readGaplessTag(head: Uint8Array): Tag | null {
  let at = id3v2Length(head);
  while (at < head.length - 4 && !parseMpegHeader(head, at)) at++;
  const h = parseMpegHeader(head, at);
  if (!h || h.samplesPerFrame !== SAMPLES_PER_FRAME || (head[at + 1]! & 0x06) !== 0x02) return null;
  for (const off of [4 + 32, 4 + 17]) {
    const p = at + off;
    if (p + 8 > head.length) continue;
    const tag = String.fromCharCode(head[p]!, head[p + 1]!, head[p + 2]!, head[p + 3]!);
    if (tag !== 'Xing' && tag !== 'Info') continue;
    const flags = ((head[p + 4]! << 24) | (head[p + 5]! << 16) | (head[p + 6]! << 8) | head[p + 7]!) >>> 0;
    if (!(flags & 1)) return null;
    let q = p + 8;
    const frames = ((head[q]! << 24) | (head[q + 1]! << 16) | (head[q + 2]! << 8) | head[q + 3]!) >>> 0;
    q += 4;
    if (flags & 2) q += 4;
    if (flags & 4) q += 100;
    if (flags & 8) q += 4;
    // The encoder's tag: 9 bytes of name, then delay and padding 12 bits each at +21.
    if (q + 24 > head.length) return null;
    const name = String.fromCharCode(...head.subarray(q, q + 4));
    if (name !== 'LAME' && name !== 'Lavc' && name !== 'Lavf') return null;
    const d = head.subarray(q + 21, q + 24);
    const delay = (d[0]! << 4) | (d[1]! >> 4);
    const padding = ((d[1]! & 0x0f) << 8) | d[2]!;
    return { firstFrame: at, frames, delay, padding, sampleRate: h.sampleRate, channels: h.channels };
  }
  return null;
}

/**
 * Where to cut `src` into `count` parts, or null when the file should be decoded in one pass.
 * Reads frame headers from the start up to the last split point (about (count−1)/count of the
 * file; only 4 bytes of each frame are looked at).
 */
export async function planMp3Split(src: ByteSource, head: Uint8Array, count: number): Promise<Mp3SplitPlan | null> {
  if (count < 2) return null;
  const tag = readGaplessTag(head);
  if (!tag || tag.frames < MIN_SPLIT_FRAMES) return null;
  const totalSamples = tag.frames * SAMPLES_PER_FRAME - tag.delay - tag.padding;
  const startSkip = tag.delay + GAPLESS_DELAY;
  if (totalSamples <= 0) return null;
  // Audio frame i (0-based, after the Info frame) sits at frame index i + 1 of the file. Split
  // frames (file indexes), each with its warm-up start; the warm-up has the phase the one pass has.
  const splits: Array<{ k: number; w: number }> = [];
  for (let p = 1; p < count; p++) {
    const k = 1 + Math.floor((tag.frames * p) / count);
    let w = MIN_WARMUP_FRAMES;
    while ((w - (k - 1)) % 4 !== 0) w++;
    splits.push({ k, w });
  }
  // Byte offsets of the frames we need, by walking headers.
  const wanted = new Set<number>();
  for (const s of splits) {
    wanted.add(s.k);
    wanted.add(s.k - s.w);
  }
  const last = splits[splits.length - 1]!.k;
  const offsets = new Map<number, number>();
  const CHUNK = 1 << 20;
  let pos = tag.firstFrame;
  let index = 0;
  let buf: Uint8Array = new Uint8Array(0);
  let bufStart = 0;
  while (index <= last) {
    if (pos + 4 > bufStart + buf.length) {
      if (pos >= src.size) return null;
      bufStart = pos;
      buf = await src.read(pos, Math.min(CHUNK, src.size - pos));
      if (buf.length < 4) return null;
    }
    const h = parseMpegHeader(buf, pos - bufStart);
    // Any damage or a change of layout: not a plain file, one pass it is.
    if (!h || h.samplesPerFrame !== SAMPLES_PER_FRAME || h.sampleRate !== tag.sampleRate) return null;
    if (wanted.has(index)) offsets.set(index, pos);
    pos += h.frameLength;
    index++;
  }
  const parts: Mp3Part[] = [];
  let startSample = 0;
  let byteStart = 0;
  let discard = 0;
  for (const s of [...splits, null]) {
    const end = s ? (s.k - 1) * SAMPLES_PER_FRAME - startSkip : totalSamples;
    parts.push({ byteStart, byteEnd: s ? offsets.get(s.k)! : src.size, discard, keep: end - startSample, startSample });
    if (!s) break;
    startSample = end;
    byteStart = offsets.get(s.k - s.w)!;
    discard = s.w * SAMPLES_PER_FRAME;
  }
  if (parts.some((p) => p.keep <= 0)) return null;
  return { totalSamples, sampleRate: tag.sampleRate, channels: tag.channels, parts };
}
