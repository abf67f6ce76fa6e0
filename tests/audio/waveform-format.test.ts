import { describe, expect, it } from 'vitest';
import { analyzeAudio } from '../../src/media/analyze.ts';
import { waveformFromDat, waveformFromJson, waveformToDat, waveformToJson, WaveformFormatError } from '../../src/media/waveform-format.ts';
import type { Waveform } from '../../src/media/peaks.ts';
import { fixtureSource } from './fixtures.ts';

describe('audiowaveform data format', () => {
  it('the .dat (binary version 2) and JSON outputs read back identically', async () => {
    const a = await analyzeAudio(await fixtureSource('speech-12s-stereo.wav'));
    for (const w of a.waveforms) {
      const fromDat = waveformFromDat(waveformToDat(w));
      const fromJson = waveformFromJson(JSON.parse(JSON.stringify(waveformToJson(w))));
      expect(fromDat).toEqual(w);
      expect(fromJson).toEqual(w);
      expect(fromJson).toEqual(fromDat);
    }
  });

  it('writes the version 2 header: version, flags, sample rate, samples per pixel, length, channels', () => {
    const w: Waveform = { version: 2, channels: 1, sampleRate: 44100, samplesPerPixel: 256, bits: 8, length: 2, data: Int8Array.from([-3, 4, -128, 127]) };
    const dat = waveformToDat(w);
    const v = new DataView(dat.buffer);
    expect([v.getInt32(0, true), v.getUint32(4, true), v.getInt32(8, true), v.getInt32(12, true), v.getUint32(16, true), v.getInt32(20, true)])
      .toEqual([2, 1, 44100, 256, 2, 1]);
    expect(Array.from(dat.slice(24), (b) => (b << 24) >> 24)).toEqual([-3, 4, -128, 127]);
    expect(waveformToJson(w)).toEqual({ version: 2, channels: 1, sample_rate: 44100, samples_per_pixel: 256, bits: 8, length: 2, data: [-3, 4, -128, 127] });
    expect(waveformFromDat(dat)).toEqual(w);
  });

  it('rejects damaged data with a WaveformFormatError', () => {
    expect(() => waveformFromDat(new Uint8Array(10))).toThrow(WaveformFormatError);
    const dat = waveformToDat({ version: 2, channels: 1, sampleRate: 8000, samplesPerPixel: 256, bits: 16, length: 3, data: new Int16Array(6) });
    expect(() => waveformFromDat(dat.slice(0, dat.length - 1))).toThrow('Waveform data is shorter than its header says');
    expect(() => waveformFromJson({ version: 2, sample_rate: 8000, samples_per_pixel: 256, length: 3, data: [1, 2] })).toThrow(WaveformFormatError);
    expect(() => waveformFromJson('nope')).toThrow('Waveform JSON has no data array');
  });
});
