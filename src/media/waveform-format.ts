// BBC audiowaveform data format, so the server's files and the worker's are the same thing.
// Binary (.dat) version 2, little-endian:
//   int32 version (2) | uint32 flags (bit 0: 1 = 8-bit, 0 = 16-bit) | int32 sample_rate |
//   int32 samples_per_pixel | uint32 length (pixels) | int32 channels | data: per pixel, per channel,
//   min then max (int8 or int16).
// JSON: { version, channels, sample_rate, samples_per_pixel, bits, length, data: [min, max, ...] }.
import type { Waveform } from './peaks.ts';

export class WaveformFormatError extends Error {
  override readonly name = 'WaveformFormatError';
}

export function waveformToDat(w: Waveform): Uint8Array {
  const bytesPer = w.bits === 8 ? 1 : 2;
  const out = new Uint8Array(24 + w.data.length * bytesPer);
  const v = new DataView(out.buffer);
  v.setInt32(0, 2, true);
  v.setUint32(4, w.bits === 8 ? 1 : 0, true);
  v.setInt32(8, w.sampleRate, true);
  v.setInt32(12, w.samplesPerPixel, true);
  v.setUint32(16, w.length, true);
  v.setInt32(20, w.channels, true);
  for (let i = 0; i < w.data.length; i++) {
    if (bytesPer === 1) v.setInt8(24 + i, w.data[i]!);
    else v.setInt16(24 + i * 2, w.data[i]!, true);
  }
  return out;
}

export function waveformFromDat(bytes: Uint8Array): Waveform {
  if (bytes.length < 20) throw new WaveformFormatError('Waveform data is shorter than its header');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = v.getInt32(0, true);
  if (version !== 1 && version !== 2) throw new WaveformFormatError(`Unknown waveform data version ${version}`);
  const bits = v.getUint32(4, true) & 1 ? 8 : 16;
  const sampleRate = v.getInt32(8, true);
  const samplesPerPixel = v.getInt32(12, true);
  const length = v.getUint32(16, true);
  const channels = version === 2 ? v.getInt32(20, true) : 1;
  const start = version === 2 ? 24 : 20;
  const n = length * channels * 2;
  const bytesPer = bits === 8 ? 1 : 2;
  if (bytes.length < start + n * bytesPer) throw new WaveformFormatError('Waveform data is shorter than its header says');
  const data = bits === 8 ? new Int8Array(n) : new Int16Array(n);
  for (let i = 0; i < n; i++) data[i] = bits === 8 ? v.getInt8(start + i) : v.getInt16(start + i * 2, true);
  return { version: 2, channels, sampleRate, samplesPerPixel, bits, length, data };
}

export type WaveformJson = {
  version: 2;
  channels: number;
  sample_rate: number;
  samples_per_pixel: number;
  bits: 8 | 16;
  length: number;
  data: number[];
};

export function waveformToJson(w: Waveform): WaveformJson {
  return {
    version: 2,
    channels: w.channels,
    sample_rate: w.sampleRate,
    samples_per_pixel: w.samplesPerPixel,
    bits: w.bits,
    length: w.length,
    data: Array.from(w.data),
  };
}

export function waveformFromJson(j: unknown): Waveform {
  const o = j as Partial<WaveformJson> | null;
  if (!o || typeof o !== 'object' || !Array.isArray(o.data)) throw new WaveformFormatError('Waveform JSON has no data array');
  const channels = o.channels ?? 1;
  const bits = o.bits === 8 ? 8 : 16;
  const length = o.length ?? o.data.length / (2 * channels);
  if (typeof o.sample_rate !== 'number' || typeof o.samples_per_pixel !== 'number') throw new WaveformFormatError('Waveform JSON lacks sample_rate or samples_per_pixel');
  if (o.data.length !== length * channels * 2) throw new WaveformFormatError('Waveform JSON data length does not match its length field');
  const data = bits === 8 ? Int8Array.from(o.data) : Int16Array.from(o.data);
  return { version: 2, channels, sampleRate: o.sample_rate, samplesPerPixel: o.samples_per_pixel, bits, length, data };
}

/** Keeps every pixel whose index is in [from, to), for drawing a window of a long waveform. */
export function waveformSlice(w: Waveform, from: number, to: number): Waveform {
  const a = Math.max(0, Math.min(w.length, from));
  const b = Math.max(a, Math.min(w.length, to));
  const per = w.channels * 2;
  return { ...w, length: b - a, data: w.data.slice(a * per, b * per) };
}
