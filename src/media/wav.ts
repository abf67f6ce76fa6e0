// A 16-bit PCM WAV writer for rendered previews: header first (sizes patched by the caller when the
// length was not known up front), then interleaved samples block by block.
import type { PcmBlock } from './decode.ts';

export function wavHeader(sampleRate: number, channels: number, frames: number): Uint8Array {
  const dataBytes = frames * channels * 2;
  const h = new Uint8Array(44);
  const v = new DataView(h.buffer);
  const put = (at: number, s: string) => { for (let i = 0; i < 4; i++) h[at + i] = s.charCodeAt(i); };
  put(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * channels * 2, true);
  v.setUint16(32, channels * 2, true);
  v.setUint16(34, 16, true);
  put(36, 'data');
  v.setUint32(40, dataBytes, true);
  return h;
}

export function pcm16(block: PcmBlock): Uint8Array {
  const nch = block.channels.length;
  const n = block.channels[0]?.length ?? 0;
  const out = new Uint8Array(n * nch * 2);
  const v = new DataView(out.buffer);
  let p = 0;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < nch; c++) {
      const x = block.channels[c]![i]!;
      v.setInt16(p, x >= 1 ? 32767 : x <= -1 ? -32768 : Math.round(x * 32767), true);
      p += 2;
    }
  }
  return out;
}
