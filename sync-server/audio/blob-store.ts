// The blob store seam (ARCHITECTURE.md "a blob store folder by default, behind one small
// interface"): uploads stream to a temporary file and are renamed into place when complete, so a
// reader never sees half a file; nothing is held whole in memory.
import { createReadStream, createWriteStream, openAsBlob } from 'node:fs';
import { copyFile, link, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';

export class BlobTooLargeError extends Error {
  constructor(readonly received: number) {
    super('blob too large');
  }
}

export interface BlobStore {
  /** A folder of this machine, or an S3 bucket every instance reaches (tus.ts keeps partial uploads in a bucket). */
  readonly kind: 'folder' | 's3';
  /**
   * Streams `body` to `key`; throws BlobTooLargeError (and keeps nothing) past maxBytes. `accept`,
   * called with the size once the whole body is in, may throw to refuse it: nothing is kept then
   * either, and whatever `key` held before is left as it was.
   */
  put(key: string, body: ReadableStream<Uint8Array>, maxBytes: number, accept?: (size: number) => void): Promise<{ size: number }>;
  putBytes(key: string, bytes: Uint8Array | string): Promise<void>;
  /**
   * `to` gets the bytes of `from` (a hard link where the disk allows: no copy, and removing or
   * replacing either key later leaves the other whole, since nothing is ever written in place).
   */
  copy(from: string, to: string): Promise<{ size: number }>;
  size(key: string): Promise<number | null>;
  /** A file-backed Blob (read lazily, in slices). */
  blob(key: string): Promise<Blob>;
  /** Bytes [start, end] inclusive as a web stream. */
  stream(key: string, start: number, end: number): ReadableStream<Uint8Array>;
  remove(prefix: string): Promise<void>;
}

export function fsBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    const p = normalize(join(root, key));
    if (!p.startsWith(normalize(root) + sep)) throw new Error(`blob key escapes the store: ${key}`);
    return p;
  };
  return {
    kind: 'folder',
    async put(key, body, maxBytes, accept) {
      const final = pathOf(key);
      await mkdir(dirname(final), { recursive: true });
      const tmp = `${final}.${randomUUID()}.part`;
      const out = createWriteStream(tmp);
      let size = 0;
      try {
        const reader = body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > maxBytes) {
            await reader.cancel();
            throw new BlobTooLargeError(size);
          }
          if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
        }
        await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
        accept?.(size);
        await rename(tmp, final);
        return { size };
      } catch (e) {
        // Closed before the file is removed: a stream destroyed before its file was opened still
        // opens (then closes) it, which after the rm left a .part file behind.
        if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()).destroy());
        await rm(tmp, { force: true });
        throw e;
      }
    },
    async putBytes(key, bytes) {
      const final = pathOf(key);
      await mkdir(dirname(final), { recursive: true });
      const tmp = `${final}.${randomUUID()}.part`;
      await writeFile(tmp, bytes);
      await rename(tmp, final);
    },
    async copy(from, to) {
      const source = pathOf(from);
      const final = pathOf(to);
      await mkdir(dirname(final), { recursive: true });
      const tmp = `${final}.${randomUUID()}.part`;
      try {
        await link(source, tmp);
      } catch {
        await copyFile(source, tmp);
      }
      await rename(tmp, final);
      return { size: (await stat(final)).size };
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return null;
      }
    },
    blob: (key) => openAsBlob(pathOf(key)),
    stream: (key, start, end) => Readable.toWeb(createReadStream(pathOf(key), { start, end })) as ReadableStream<Uint8Array>,
    async remove(prefix) {
      await rm(pathOf(prefix), { recursive: true, force: true });
    },
  };
}

/** A small JSON document of the store, or null when there is none. */
export async function readJsonBlob<T>(blobs: BlobStore, key: string): Promise<T | null> {
  if ((await blobs.size(key)) === null) return null;
  return JSON.parse(await (await blobs.blob(key)).text()) as T;
}
