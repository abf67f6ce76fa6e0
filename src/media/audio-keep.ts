// Audio kept on this device so Play works offline. The players stream audio with range requests
// (plain-player.ts), which the browser keeps only in memory: a reload offline had nothing to play.
// Once a file has played online it is downloaded whole, in the background, into Cache Storage
// (AUDIO_CACHE_NAME, deleted at log-out with the user's other caches), and Play offline plays that
// copy. Bounded, because the files are large and the device's storage is shared with the synced
// rows: a file over KEEP_AUDIO_MAX_BYTES is not kept, and past KEEP_AUDIO_MAX_FILES the one kept
// longest ago is dropped.
//
//   not kept ──played online──> downloading ──whole file stored──> kept ──(eviction | log-out)──> not kept
//                                     └── too large, failed, storage full ──> not kept (tried again at the next Play)
import { AUDIO_CACHE_NAME } from '../protocol/cache-names.ts';
import { fetchMedia } from './source.ts';

/** A 3-hour talk show at 48 kb/s is about 65 MB; a longer or richer file stays online only. */
export const KEEP_AUDIO_MAX_BYTES = 80 * 1024 * 1024;
/** About a day's work of recordings and clips. */
export const KEEP_AUDIO_MAX_FILES = 12;

export type AudioKeeper = {
  /** The kept copy of `url`, or null when this device has none. */
  find(url: string): Promise<Blob | null>;
  /** Downloads `url` whole and keeps it (nothing when kept already or over the size limit).
   *  Resolves true when the file is kept; never rejects: keeping is a convenience. */
  keep(url: string): Promise<boolean>;
};

export function audioKeeperOf(
  storage: CacheStorage,
  options: { name?: string; maxBytes?: number; maxFiles?: number; fetch?: typeof fetchMedia } = {},
): AudioKeeper {
  const name = options.name ?? AUDIO_CACHE_NAME;
  const maxBytes = options.maxBytes ?? KEEP_AUDIO_MAX_BYTES;
  const maxFiles = options.maxFiles ?? KEEP_AUDIO_MAX_FILES;
  const get = options.fetch ?? fetchMedia;
  // One download per file at a time: Play pressed twice starts one.
  const downloading = new Map<string, Promise<boolean>>();

  const download = async (url: string): Promise<boolean> => {
    const cache = await storage.open(name);
    if (await cache.match(url)) return true;
    const head = await get(url, { method: 'HEAD', credentials: 'same-origin' });
    const size = Number(head.headers.get('content-length') ?? NaN);
    if (!Number.isFinite(size) || size > maxBytes) return false;
    const res = await get(url, { credentials: 'same-origin' });
    const blob = await res.blob();
    if (blob.size > maxBytes) return false;
    await cache.put(url, new Response(blob, { headers: { 'content-type': res.headers.get('content-type') ?? 'application/octet-stream', 'content-length': String(blob.size) } }));
    // Cache Storage lists its entries in the order they were put: the first ones were kept longest ago.
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - maxFiles))) await cache.delete(old);
    return true;
  };

  return {
    async find(url) {
      try {
        const hit = await (await storage.open(name)).match(url);
        return hit ? await hit.blob() : null;
      } catch {
        // Cache Storage refused (private mode, storage cleared under us): nothing kept.
        return null;
      }
    },
    keep(url) {
      const running = downloading.get(url);
      if (running) return running;
      const job = download(url).catch(() => false).finally(() => downloading.delete(url));
      downloading.set(url, job);
      return job;
    },
  };
}

let shared: AudioKeeper | null = null;

/** The device's keeper; null where there is no Cache Storage (an insecure origin, Node). */
export function defaultAudioKeeper(): AudioKeeper | null {
  if (typeof caches === 'undefined') return null;
  shared ??= audioKeeperOf(caches);
  return shared;
}
