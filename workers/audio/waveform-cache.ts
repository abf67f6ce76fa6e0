// Waveform cache per audio, so a clip opened offline draws at once. Behind an interface with two
// implementations: IndexedDB (the default: its own small database, one record per audio holding
// every level as audiowaveform .dat bytes; src/db's Dexie database is left to the synced rows) and
// Cache Storage (where IndexedDB is missing).
import type { Waveform } from '../../src/media/peaks.ts';
import { waveformFromDat, waveformToDat } from '../../src/media/waveform-format.ts';
import { WAVEFORM_CACHE_NAME } from '../../src/protocol/cache-names.ts';

export type CachedWaveforms = { durationSeconds: number; sampleRate: number; waveforms: Waveform[] };

export interface WaveformCache {
  get(key: string): Promise<CachedWaveforms | null>;
  put(key: string, value: CachedWaveforms): Promise<void>;
  delete(key: string): Promise<void>;
}

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

export const WAVEFORM_DB_NAME = 'castaway-waveforms';
const STORE = 'waveforms';

type WaveformRecord = { key: string; durationSeconds: number; sampleRate: number; levels: ArrayBuffer[] };

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

/** One record per audio in its own IndexedDB database; written in one put, so never half there. */
export function indexedDbWaveformCacheOf(idb: IDBFactory, name = WAVEFORM_DB_NAME): WaveformCache {
  let db: Promise<IDBDatabase> | null = null;
  const open = () => {
    db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const r = idb.open(name, 1);
      r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: 'key' });
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error ?? new Error('IndexedDB open failed'));
    });
    return db;
  };
  const store = async (mode: IDBTransactionMode) => (await open()).transaction(STORE, mode).objectStore(STORE);
  return {
    async get(key) {
      const rec = await request((await store('readonly')).get(key) as IDBRequest<WaveformRecord | undefined>);
      if (!rec) return null;
      return { durationSeconds: rec.durationSeconds, sampleRate: rec.sampleRate, waveforms: rec.levels.map((b) => waveformFromDat(new Uint8Array(b))) };
    },
    async put(key, value) {
      const levels = value.waveforms.map((w) => waveformToDat(w).buffer as ArrayBuffer);
      const rec: WaveformRecord = { key, durationSeconds: value.durationSeconds, sampleRate: value.sampleRate, levels };
      await request((await store('readwrite')).put(rec));
    },
    async delete(key) {
      await request((await store('readwrite')).delete(key));
    },
  };
}

let shared: WaveformCache | null = null;

/** The cache this browser keeps: IndexedDB, else Cache Storage, else none (null). */
export async function defaultWaveformCache(): Promise<WaveformCache | null> {
  if (shared) return shared;
  if (typeof indexedDB !== 'undefined') shared = indexedDbWaveformCacheOf(indexedDB);
  else if (typeof caches !== 'undefined') shared = cacheStorageWaveformCacheOf(caches);
  return shared;
}
