// WAV (RIFF, incl. WAVE_FORMAT_EXTENSIBLE) and AIFF/AIFF-C header parsing and sample conversion.
// Only headers are read whole; the sample data is streamed in chunks by decode.ts.
import { MediaError, MediaErrorCode } from './errors.ts';
import type { ByteSource } from './source.ts';

export type PcmEncoding = {
  container: 'wav' | 'aiff';
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  float: boolean;
  bigEndian: boolean;
  /** 8-bit WAV is unsigned; every other integer PCM is signed. */
  unsigned8: boolean;
  dataOffset: number;
  dataLength: number;
  /** Frames announced by the header (AIFF's numSampleFrames, WAV's data size / block align). */
  declaredFrames: number;
};

const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

/** IEEE 754 80-bit extended (AIFF's sample rate). */
function readExtended(v: DataView, at: number): number {
  const exp = v.getUint16(at) & 0x7fff;
  const sign = v.getUint16(at) & 0x8000 ? -1 : 1;
  const hi = v.getUint32(at + 2);
  const lo = v.getUint32(at + 6);
  if (exp === 0 && hi === 0 && lo === 0) return 0;
  return sign * (hi * 2 ** (exp - 16383 - 31) + lo * 2 ** (exp - 16383 - 63));
}

function unsupported(what: string): never {
  throw new MediaError(MediaErrorCode.UnsupportedEncoding, `Unsupported audio encoding: ${what}`, { encoding: what });
}

/** Walks the chunk list (reading 8-byte chunk headers only) and returns the sample layout. */
export async function readPcmHeader(src: ByteSource, container: 'wav' | 'aiff'): Promise<PcmEncoding> {
  const big = container === 'aiff';
  let pos = 12;
  let fmt: Omit<PcmEncoding, 'dataOffset' | 'dataLength' | 'declaredFrames' | 'container'> | null = null;
  let declaredFrames = -1;
  while (pos + 8 <= src.size) {
    const h = await src.read(pos, 8);
    if (h.length < 8) break;
    const id = fourcc(h, 0);
    const hv = new DataView(h.buffer, h.byteOffset, 8);
    const len = hv.getUint32(4, !big);
    const body = pos + 8;
    if (!big && id === 'fmt ') {
      const b = await src.read(body, Math.min(len, 64));
      const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
      if (b.length < 16) throw new MediaError(MediaErrorCode.Truncated, 'The WAV header is cut short');
      let tag = v.getUint16(0, true);
      const channels = v.getUint16(2, true);
      const sampleRate = v.getUint32(4, true);
      const bits = v.getUint16(14, true);
      if (tag === 0xfffe && b.length >= 26) tag = v.getUint16(24, true); // extensible: SubFormat GUID's first two bytes
      if (tag !== 1 && tag !== 3) unsupported(`WAV format tag ${tag}`);
      fmt = { sampleRate, channels, bitsPerSample: bits, float: tag === 3, bigEndian: false, unsigned8: bits === 8 };
    } else if (big && id === 'COMM') {
      const b = await src.read(body, Math.min(len, 64));
      const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
      if (b.length < 18) throw new MediaError(MediaErrorCode.Truncated, 'The AIFF header is cut short');
      const channels = v.getInt16(0);
      declaredFrames = v.getUint32(2);
      const bits = v.getInt16(6);
      const sampleRate = readExtended(v, 8);
      let float = false;
      let bigEndian = true;
      if (b.length >= 22) {
        const comp = fourcc(b, 18);
        if (comp === 'sowt') bigEndian = false;
        else if (comp === 'fl32' || comp === 'FL32' || comp === 'fl64' || comp === 'FL64') float = true;
        else if (comp !== 'NONE' && comp !== 'twos') unsupported(`AIFF-C compression ${comp}`);
      }
      fmt = { sampleRate, channels, bitsPerSample: float && /64/.test(fourcc(b, 18)) ? 64 : bits, float, bigEndian, unsigned8: false };
    } else if ((!big && id === 'data') || (big && id === 'SSND')) {
      if (!fmt) throw new MediaError(MediaErrorCode.NotAudio, `The ${container.toUpperCase()} file has no format chunk before its data`);
      let dataOffset = body;
      let dataLength = Math.min(len, src.size - body);
      if (big) {
        const o = await src.read(body, 8);
        const off = new DataView(o.buffer, o.byteOffset, 8).getUint32(0);
        dataOffset = body + 8 + off;
        dataLength = Math.min(len - 8 - off, src.size - dataOffset);
      }
      if (![8, 16, 24, 32, 64].includes(fmt.bitsPerSample) || (fmt.float && fmt.bitsPerSample < 32)) unsupported(`${fmt.bitsPerSample}-bit samples`);
      if (fmt.channels < 1 || fmt.sampleRate <= 0) throw new MediaError(MediaErrorCode.NotAudio, 'The audio header has no channels or sample rate');
      const blockAlign = (fmt.bitsPerSample / 8) * fmt.channels;
      const frames = Math.floor((big ? len - 8 : len) / blockAlign);
      return { container, ...fmt, dataOffset, dataLength: Math.max(0, dataLength), declaredFrames: big && declaredFrames >= 0 ? declaredFrames : frames };
    }
    pos = body + len + (len & 1);
  }
  throw new MediaError(MediaErrorCode.Truncated, `The ${container.toUpperCase()} file has no audio data`);
}

/**
 * Converts whole frames of interleaved PCM to planar float in [-1, 1]; into views of `into` (one
 * plane per channel, long enough) when given, else into new arrays.
 */
export function pcmToFloat(bytes: Uint8Array, enc: PcmEncoding, into?: readonly Float32Array[]): Float32Array[] {
  const bps = enc.bitsPerSample / 8;
  const nch = enc.channels;
  const frames = Math.floor(bytes.length / (bps * nch));
  const out = Array.from({ length: nch }, (_, c) => into?.[c] && into[c].length >= frames ? into[c].subarray(0, frames) : new Float32Array(frames));
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = !enc.bigEndian;
  let p = 0;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < nch; c++) {
      let x: number;
      if (enc.float) x = bps === 4 ? v.getFloat32(p, le) : v.getFloat64(p, le);
      else if (bps === 2) x = v.getInt16(p, le) / 32768;
      else if (bps === 3) {
        const b0 = bytes[p]!, b1 = bytes[p + 1]!, b2 = bytes[p + 2]!;
        let n = le ? b0 | (b1 << 8) | (b2 << 16) : b2 | (b1 << 8) | (b0 << 16);
        if (n & 0x800000) n -= 0x1000000;
        x = n / 8388608;
      } else if (bps === 4) x = v.getInt32(p, le) / 2147483648;
      else x = enc.unsigned8 ? (bytes[p]! - 128) / 128 : v.getInt8(p) / 128;
      out[c]![i] = x;
      p += bps;
    }
  }
  return out;
}
