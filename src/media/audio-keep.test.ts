// Audio kept on the device for offline Play: kept whole once played, found again by its URL, not
// kept over the size limit, the oldest dropped past the count, and a failed download is no error.
import { describe, expect, it } from 'vitest';
import { audioKeeperOf } from './audio-keep.ts';
import { MediaError, MediaErrorCode } from './errors.ts';

/** Cache Storage as the browser has it, in memory: entries listed in the order they were put. */
function memoryCaches(): CacheStorage & { entries(name: string): string[] } {
  const stores = new Map<string, Map<string, Response>>();
  const open = async (name: string) => {
    let store = stores.get(name);
    if (!store) stores.set(name, (store = new Map()));
    const s = store;
    const keyOf = (r: RequestInfo | URL) => (typeof r === 'string' ? r : r instanceof URL ? r.href : r.url);
    return {
      match: async (r: RequestInfo | URL) => s.get(keyOf(r))?.clone(),
      put: async (r: RequestInfo | URL, res: Response) => {
        s.delete(keyOf(r));
        s.set(keyOf(r), res);
      },
      keys: async () => [...s.keys()].map((url) => ({ url }) as Request),
      delete: async (r: RequestInfo | URL) => s.delete(keyOf(r)),
    } as unknown as Cache;
  };
  return { open, entries: (name: string) => [...(stores.get(name)?.keys() ?? [])] } as unknown as CacheStorage & { entries(name: string): string[] };
}

/** A server of audio files by URL, counting the whole-file downloads. */
function server(files: Record<string, number>) {
  const downloads: string[] = [];
  const fetch = async (url: string, init: RequestInit = {}) => {
    const size = files[url];
    if (size === undefined) throw new MediaError(MediaErrorCode.NotAvailable, `${url} answered 404`, { status: 404 });
    if (init.method === 'HEAD') return new Response(null, { headers: { 'content-length': String(size) } });
    downloads.push(url);
    return new Response(new Uint8Array(size).fill(7), { headers: { 'content-type': 'audio/mpeg' } });
  };
  return { fetch, downloads };
}

describe('audio kept on this device', () => {
  it('a file played is kept whole and found again by its URL; one not played is not there', async () => {
    const caches = memoryCaches();
    const net = server({ '/a.mp3': 1000, '/b.mp3': 500 });
    const keeper = audioKeeperOf(caches, { name: 't', fetch: net.fetch });
    expect(await keeper.find('/a.mp3')).toBeNull();
    expect(await keeper.keep('/a.mp3')).toBe(true);
    const blob = await keeper.find('/a.mp3');
    expect(blob?.size).toBe(1000);
    expect(new Uint8Array(await blob!.arrayBuffer())[999]).toBe(7);
    expect(await keeper.find('/b.mp3')).toBeNull();
    // Kept already: not downloaded again.
    expect(await keeper.keep('/a.mp3')).toBe(true);
    expect(net.downloads).toEqual(['/a.mp3']);
  });

  it('Play pressed twice downloads once', async () => {
    const net = server({ '/a.mp3': 1000 });
    const keeper = audioKeeperOf(memoryCaches(), { name: 't', fetch: net.fetch });
    expect(await Promise.all([keeper.keep('/a.mp3'), keeper.keep('/a.mp3')])).toEqual([true, true]);
    expect(net.downloads).toEqual(['/a.mp3']);
  });

  it('a file over the size limit is not downloaded, and stays online only', async () => {
    const net = server({ '/long.mp3': 2001 });
    const keeper = audioKeeperOf(memoryCaches(), { name: 't', fetch: net.fetch, maxBytes: 2000 });
    expect(await keeper.keep('/long.mp3')).toBe(false);
    expect(net.downloads).toEqual([]);
    expect(await keeper.find('/long.mp3')).toBeNull();
  });

  it('past the count, the file kept longest ago is dropped', async () => {
    const caches = memoryCaches();
    const net = server({ '/1.mp3': 10, '/2.mp3': 10, '/3.mp3': 10 });
    const keeper = audioKeeperOf(caches, { name: 't', fetch: net.fetch, maxFiles: 2 });
    for (const url of ['/1.mp3', '/2.mp3', '/3.mp3']) await keeper.keep(url);
    expect(caches.entries('t')).toEqual(['/2.mp3', '/3.mp3']);
    expect(await keeper.find('/1.mp3')).toBeNull();
  });

  it('a download that fails keeps nothing and does not throw; the next Play tries again', async () => {
    const files: Record<string, number> = {};
    const net = server(files);
    const keeper = audioKeeperOf(memoryCaches(), { name: 't', fetch: net.fetch });
    expect(await keeper.keep('/later.mp3')).toBe(false);
    files['/later.mp3'] = 20;
    expect(await keeper.keep('/later.mp3')).toBe(true);
    expect((await keeper.find('/later.mp3'))?.size).toBe(20);
  });
});
