// The waveform cache a clip opened offline draws from: IndexedDB round trip of every level, in
// the audiowaveform format, per audio key.
import { IDBFactory } from 'fake-indexeddb';
import { openAsBlob } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeAudio } from '../../src/media/analyze.ts';
import { blobSource } from '../../src/media/source.ts';
import { fixturePath } from '../../tests/audio/fixtures.ts';
import { indexedDbWaveformCacheOf } from './waveform-cache.ts';

describe('IndexedDB waveform cache', () => {
  it('gives back every level exactly, per audio, and forgets a deleted one', async () => {
    const a = await analyzeAudio(blobSource(await openAsBlob(fixturePath('speech-12s.flac'))));
    const cache = indexedDbWaveformCacheOf(new IDBFactory());
    expect(await cache.get('clip-1|/api/media/clips/1/waveform-high.dat|12')).toBeNull();
    await cache.put('clip-1|/api/media/clips/1/waveform-high.dat|12', { durationSeconds: a.durationSeconds, sampleRate: a.sampleRate, waveforms: a.waveforms });
    const back = await cache.get('clip-1|/api/media/clips/1/waveform-high.dat|12');
    expect(back?.durationSeconds).toBe(12);
    expect(back?.sampleRate).toBe(a.sampleRate);
    expect(back?.waveforms.map((w) => w.samplesPerPixel)).toEqual([256, 1024, 4096, 16384, 65536]);
    back!.waveforms.forEach((w, i) => {
      expect(w.length).toBe(a.waveforms[i]!.length);
      expect(Array.from(w.data)).toEqual(Array.from(a.waveforms[i]!.data));
    });
    expect(await cache.get('clip-2')).toBeNull();
    await cache.delete('clip-1|/api/media/clips/1/waveform-high.dat|12');
    expect(await cache.get('clip-1|/api/media/clips/1/waveform-high.dat|12')).toBeNull();
  });
});
