// Recognises a file's format from its first bytes (the extension is only a hint: a text file named
// .mp3 must be caught here, before any decoder sees it).

export type SniffedFormat = 'mp3' | 'flac' | 'wav' | 'aiff' | 'mp4' | 'aac';

function ascii(b: Uint8Array, at: number, len: number): string {
  let s = '';
  for (let i = at; i < at + len && i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

/** Length of a leading ID3v2 tag, or 0. */
export function id3v2Length(b: Uint8Array): number {
  if (b.length < 10 || ascii(b, 0, 3) !== 'ID3') return 0;
  const size = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) | (b[9]! & 0x7f);
  const footer = (b[5]! & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

const MPEG_BITRATES: Record<string, number[]> = {
  // [version-layer] kbps by index 0..15
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, -1],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, -1],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, -1],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256, -1],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, -1],
};
const MPEG_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

export type MpegFrameHeader = { frameLength: number; sampleRate: number; samplesPerFrame: number; channels: number };

/** Parses an MPEG audio frame header at `at`, or null when the bytes there are not one. */
export function parseMpegHeader(b: Uint8Array, at: number): MpegFrameHeader | null {
  if (at + 4 > b.length) return null;
  const b0 = b[at]!, b1 = b[at + 1]!, b2 = b[at + 2]!, b3 = b[at + 3]!;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3; // 3 = MPEG1, 2 = MPEG2, 0 = MPEG2.5
  const layerBits = (b1 >> 1) & 3; // 3 = layer I, 2 = II, 1 = III
  if (versionBits === 1 || layerBits === 0) return null;
  const layer = 4 - layerBits;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const v1 = versionBits === 3;
  const table = v1 ? MPEG_BITRATES[`1-${layer}`] : MPEG_BITRATES[`2-${layer === 1 ? 1 : 2}`];
  const kbps = table![bitrateIndex]!;
  const sampleRate = MPEG_RATES[versionBits]![rateIndex]!;
  const padding = (b2 >> 1) & 1;
  const channels = (b3 >> 6) === 3 ? 1 : 2;
  let samplesPerFrame: number;
  let frameLength: number;
  if (layer === 1) {
    samplesPerFrame = 384;
    frameLength = (Math.floor((12 * kbps * 1000) / sampleRate) + padding) * 4;
  } else {
    samplesPerFrame = layer === 3 && !v1 ? 576 : 1152;
    frameLength = Math.floor(((samplesPerFrame / 8) * kbps * 1000) / sampleRate) + padding;
  }
  return { frameLength, sampleRate, samplesPerFrame, channels };
}

function isAdts(b: Uint8Array, at: number): boolean {
  return at + 7 <= b.length && b[at] === 0xff && (b[at + 1]! & 0xf6) === 0xf0;
}

/** The format of a file from its first bytes (at least the first 64 KiB are best), or null. */
export function sniffFormat(head: Uint8Array): SniffedFormat | null {
  if (head.length < 4) return null;
  if (ascii(head, 0, 4) === 'fLaC') return 'flac';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WAVE') return 'wav';
  if (ascii(head, 0, 4) === 'FORM' && (ascii(head, 8, 4) === 'AIFF' || ascii(head, 8, 4) === 'AIFC')) return 'aiff';
  if (ascii(head, 4, 4) === 'ftyp') return 'mp4';
  const skip = id3v2Length(head);
  if (skip > 0 && ascii(head, skip, 4) === 'fLaC') return 'flac';
  const at = skip;
  if (isAdts(head, at)) return 'aac';
  // Require two consecutive valid MPEG frames (one is too easy to hit by chance in random bytes),
  // unless the file is so short that only one fits.
  const h = parseMpegHeader(head, at);
  if (h) {
    const next = at + h.frameLength;
    if (next + 4 > head.length || parseMpegHeader(head, next)) return 'mp3';
  }
  if (skip > 0 && at < head.length) {
    // An ID3 tag followed by padding before the first frame: look a little further.
    for (let i = at; i < Math.min(head.length - 4, at + 4096); i++) {
      const hh = parseMpegHeader(head, i);
      if (hh && (i + hh.frameLength + 4 > head.length || parseMpegHeader(head, i + hh.frameLength))) return 'mp3';
    }
  }
  return null;
}
