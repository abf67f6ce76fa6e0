// Waveform cache per audio, so a clip opened offline draws at once. Behind an interface: the
// implementation here uses Cache Storage (available in windows and workers, and kept with the
// app's other offline data); an IndexedDB table can replace it once src/db offers one (STYLE.md:
// src/db is the only module that imports dexie).
import type { Waveform } from '../../src/media/peaks.ts';
import { waveformFromDat, waveformToDat } from '../../src/media/waveform-format.ts';

export type CachedWaveforms = { durationSeconds: number; sampleRate: number; waveforms: Waveform[] };

export interface WaveformCache {
  get(key: string): Promise<CachedWaveforms | null>;
  put(key: string, value: CachedWaveforms): Promise<void>;
  delete(key: string): Promise<void>;
}

export const WAVEFORM_CACHE_NAME = 'castaway-waveforms-v1';

/** One entry per audio: a small index JSON plus one audiowaveform .dat per level. */
export function cacheStorageWaveformCacheOf(caches: CacheStorage, name = WAVEFORM_CACHE_NAME): WaveformCache {
  const url = (key: string, part: string) => `/__castaway/waveforms/${encodeURIComponent(key)}/${part}`;
  return {
    async get(key) {
      const cache = await caches.open(name);
      const index = await cache.match(url(key, 'index.json'));
      if (!index) return null;
      const meta = (await index.json()) as { durationSeconds: number; sampleRate: number; levels: number[] };
      const waveforms: Waveform[] = [];
      for (const spp of meta.levels) {
        const res = await cache.match(url(key, `${spp}.dat`));
        if (!res) return null;
        waveforms.push(waveformFromDat(new Uint8Array(await res.arrayBuffer())));
      }
      return { durationSeconds: meta.durationSeconds, sampleRate: meta.sampleRate, waveforms };
    },
    async put(key, value) {
      const cache = await caches.open(name);
      for (const w of value.waveforms) {
        await cache.put(url(key, `${w.samplesPerPixel}.dat`), new Response(waveformToDat(w) as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/octet-stream' } }));
      }
      const meta = { durationSeconds: value.durationSeconds, sampleRate: value.sampleRate, levels: value.waveforms.map((w) => w.samplesPerPixel) };
      // The index goes last: a half-written entry is never found.
      await cache.put(url(key, 'index.json'), new Response(JSON.stringify(meta), { headers: { 'content-type': 'application/json' } }));
    },
    async delete(key) {
      const cache = await caches.open(name);
      await cache.delete(url(key, 'index.json'));
    },
  };
}

/** The Cache Storage cache, or null where the environment has none (e.g. an insecure origin). */
export async function cacheStorageWaveformCache(): Promise<WaveformCache | null> {
  return typeof caches === 'undefined' ? null : cacheStorageWaveformCacheOf(caches);
}
