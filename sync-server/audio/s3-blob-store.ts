// The blob store on an S3-compatible bucket (AWS S3, MinIO, R2, …), the same BlobStore contract as
// fsBlobStore: a reader never sees half an object (an S3 PUT or a completed multipart upload
// appears whole), nothing is held whole in memory (uploads go up a few 5 MiB parts at a time;
// blob() reads a local copy of the object in slices).
import { createWriteStream, openAsBlob, rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createHash, randomUUID } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { BlobTooLargeError, type BlobStore } from './blob-store.ts';

// The SDK warns (NodeVersionSupportWarning, on stderr) whenever a client is made on Node < 22.
// The project runs on Node 20 on purpose (package.json engines) and the lockfile pins the SDK's
// version, so the warning asks for nothing we act on. It is checked in S3Client's
// constructor, hence set here, before any client; this SDK reads this name (not
// AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING). `??=`: an operator's own setting wins.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export type S3BlobStoreOptions = {
  client: S3Client;
  bucket: string;
  /** Where in the bucket the store's keys live ('studio' → 'studio/<key>'); default the whole bucket. */
  prefix?: string;
  /** A folder of this process only: blob() downloads objects here (the decoders read files in slices). */
  cacheDir: string;
  /** How much of cacheDir to keep, least recently used dropped first; default 2 GiB. */
  cacheBytes?: number;
};

const DEFAULT_CACHE_BYTES = 2 * 1024 ** 3;

export function s3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const { client, bucket } = options;
  const root = options.prefix?.replace(/^\/+|\/+$/g, '') ?? '';
  const base = root === '' ? '' : `${root}/`;
  const cache = fileCache(options.cacheDir, options.cacheBytes ?? DEFAULT_CACHE_BYTES);

  /**
   * The object key of a store key: normalized as fsBlobStore's path.join does ('a//b/../c' is
   * 'a/c', a leading '/' is dropped), and refused, as there, when it leaves the store or names
   * the store itself ('', '.', '..', 'a/../..').
   */
  const objectKey = (key: string) => {
    const p = posix.normalize(key.replace(/^\/+/, '')).replace(/\/+$/, '');
    if (p === '' || p === '.' || p === '..' || p.startsWith('../')) throw new Error(`blob key escapes the store: ${key}`);
    return base + p;
  };
  // x-amz-copy-source is a URL path: each segment encoded, the slashes kept.
  const copySource = (key: string) => `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;

  async function head(key: string) {
    try {
      const h = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { size: h.ContentLength ?? 0, etag: h.ETag ?? '' };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }
  const deleteObject = (key: string) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));

  /** Downloads `key` as it was at `etag` to `path` (written aside, then renamed: never half a file there). */
  async function download(storeKey: string, key: string, etag: string, size: number, path: string) {
    const tmp = `${path}.${randomUUID()}.tmp`;
    try {
      let got;
      try {
        got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(etag !== '' && { IfMatch: etag }) }));
      } catch (e) {
        if (isNotFound(e)) throw missing(storeKey);
        if (statusOf(e) === 412) throw new ObjectChanged();
        throw e;
      }
      // Not every S3-compatible server honours If-Match (s3rver does not): check the answer too.
      if ((got.ETag ?? '') !== etag || !got.Body) throw new ObjectChanged();
      await pipeline(Readable.fromWeb(got.Body.transformToWebStream() as NodeReadableStream<Uint8Array>), createWriteStream(tmp));
      const written = (await stat(tmp)).size;
      if (written !== size) throw new Error(`blob download of ${storeKey} ended after ${written} of ${size} bytes`);
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }

  return {
    kind: 's3',
    async put(key, body, maxBytes, accept) {
      const final = objectKey(key);
      // An upload appears whole or not at all, so without `accept` it goes straight to `key`. With
      // it, the body must be all in before it may replace `key`: it goes to a temporary key beside
      // it (removed with its folder like fsBlobStore's .part files) and is copied over on accept.
      const target = accept ? `${final}.${randomUUID()}.part` : final;
      let size = 0;
      // Counted as it passes: past maxBytes the stream errors, which cancels `body` (the client's
      // upload stops) and makes Upload abort its multipart upload, waiting for the abort.
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            size += chunk.byteLength;
            if (size > maxBytes) throw new BlobTooLargeError(size);
            controller.enqueue(chunk);
          },
        }),
      );
      try {
        await new Upload({ client, params: { Bucket: bucket, Key: target, Body: counted } }).done();
      } catch (e) {
        // Upload may report the failure of a part still in flight rather than the body's error.
        if (size > maxBytes) throw new BlobTooLargeError(size);
        throw e;
      }
      if (!accept) return { size };
      try {
        accept(size);
        // CopyObject copies up to 5 GB in one request (larger needs UploadPartCopy); the puts with
        // an accept (audio and image uploads) stop at AUDIO_FILE_MAX_BYTES, 2 GiB by default.
        await client.send(new CopyObjectCommand({ Bucket: bucket, Key: final, CopySource: copySource(target) }));
      } finally {
        // Best effort: the put's own outcome is what the caller needs, and a temporary object left
        // behind goes with its folder's remove(), as a .part file a crash leaves in fsBlobStore.
        await deleteObject(target).catch(() => undefined);
      }
      return { size };
    },
    async putBytes(key, bytes) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: objectKey(key), Body: bytes }));
    },
    // A server-side copy (up to 5 GB, as in put): the two objects share nothing afterwards, as
    // fsBlobStore's hard links, since neither is ever written in place.
    async copy(from, to) {
      const source = objectKey(from);
      const target = objectKey(to);
      if (source !== target) {
        try {
          await client.send(new CopyObjectCommand({ Bucket: bucket, Key: target, CopySource: copySource(source) }));
        } catch (e) {
          throw isNotFound(e) ? missing(from) : e;
        }
      }
      const copied = await head(target);
      if (!copied) throw missing(to);
      return { size: copied.size };
    },
    async size(key) {
      let k;
      try {
        k = objectKey(key);
      } catch {
        return null; // as fsBlobStore, whose stat() failure on any bad key answers null
      }
      return (await head(k))?.size ?? null;
    },
    // A Blob over a local copy: the decoders read audio in slices, hundreds of MB per file, which
    // a ranged GET per slice would make slow and a Blob in memory impossible. The copy's name holds
    // the ETag, so a replaced object is fetched again; an object replaced mid-download, once more.
    async blob(key) {
      const k = objectKey(key);
      for (let attempt = 1; ; attempt++) {
        const found = await head(k);
        if (!found) throw missing(key);
        const name = createHash('sha256').update(`${k}\n${found.etag}\n${found.size}`).digest('hex');
        try {
          return await cache.open(name, (path) => download(key, k, found.etag, found.size, path));
        } catch (e) {
          if (!(e instanceof ObjectChanged) || attempt === 3) throw e;
        }
      }
    },
    stream(key, start, end) {
      const k = objectKey(key);
      // As createReadStream, which throws ERR_OUT_OF_RANGE; S3 would answer the whole object.
      if (start > end) throw new RangeError(`blob stream start ${start} is after its end ${end}`);
      const abort = new AbortController();
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      // The signature is synchronous (range.ts hands the stream to a Response), so the GET is
      // made by the first pull.
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            if (!reader) {
              let got;
              try {
                got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: k, Range: `bytes=${start}-${end}` }), { abortSignal: abort.signal });
              } catch (e) {
                // A range starting past the end: no bytes, as createReadStream gives.
                if (statusOf(e) === 416) return controller.close();
                throw isNotFound(e) ? missing(key) : e;
              }
              const body = got.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined;
              if (!body) return controller.close();
              reader = body.getReader();
            }
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          } catch (e) {
            controller.error(e);
          }
        },
        async cancel(reason) {
          abort.abort();
          await reader?.cancel(reason);
        },
      });
    },
    // fsBlobStore's rm(recursive) removes a file or a folder: here the object named `prefix` and
    // every object under `prefix/` ('a/b' keeps 'a/bc/x').
    async remove(prefix) {
      const k = objectKey(prefix);
      await deleteObject(k);
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${k}/`, ContinuationToken: token }));
        // A page holds at most 1,000 keys, which is also DeleteObjects' limit.
        const objects = (page.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [{ Key: o.Key }]));
        if (objects.length > 0) {
          const done = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
          const failed = done.Errors?.[0];
          if (failed) throw new Error(`blob store could not delete ${failed.Key}: ${failed.Code} ${failed.Message}`);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

/** The S3 client of the CASTAWAY_S3_* variables (s3BlobStoreFromEnv). */
export function s3ClientFromEnv(env: NodeJS.ProcessEnv): S3Client {
  const endpoint = setting(env, 'CASTAWAY_S3_ENDPOINT');
  const accessKeyId = setting(env, 'CASTAWAY_S3_ACCESS_KEY_ID');
  const secretAccessKey = setting(env, 'CASTAWAY_S3_SECRET_ACCESS_KEY');
  if (accessKeyId === undefined && secretAccessKey !== undefined) throw new Error(bothKeys('CASTAWAY_S3_ACCESS_KEY_ID', 'CASTAWAY_S3_SECRET_ACCESS_KEY'));
  if (accessKeyId !== undefined && secretAccessKey === undefined) throw new Error(bothKeys('CASTAWAY_S3_SECRET_ACCESS_KEY', 'CASTAWAY_S3_ACCESS_KEY_ID'));
  if (endpoint !== undefined && !URL.canParse(endpoint)) throw new Error(`CASTAWAY_S3_ENDPOINT is not a URL: ${endpoint}`);
  return new S3Client({
    region: setting(env, 'CASTAWAY_S3_REGION') ?? 'us-east-1',
    ...(endpoint !== undefined && {
      endpoint,
      // Servers other than AWS mostly serve buckets as paths, not as host names.
      forcePathStyle: true,
      // The SDK's default since 3.729 sends CRC32 checksums with every upload, which some
      // S3-compatible servers refuse; WHEN_REQUIRED sends them where S3 requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
    // Without keys, the SDK's default chain: AWS_* variables, a profile, an instance or task role.
    ...(accessKeyId !== undefined && secretAccessKey !== undefined && { credentials: { accessKeyId, secretAccessKey } }),
  });
}

const S3_VARIABLES = ['CASTAWAY_S3_ENDPOINT', 'CASTAWAY_S3_REGION', 'CASTAWAY_S3_PREFIX', 'CASTAWAY_S3_ACCESS_KEY_ID', 'CASTAWAY_S3_SECRET_ACCESS_KEY', 'CASTAWAY_S3_CACHE_DIR'];

/**
 * The S3 blob store when CASTAWAY_S3_BUCKET is set, else null (the folder store). Other
 * CASTAWAY_S3_* variables without the bucket are an error, not a silent fall back to local disk.
 */
export function s3BlobStoreFromEnv(env: NodeJS.ProcessEnv): BlobStore | null {
  const bucket = setting(env, 'CASTAWAY_S3_BUCKET');
  if (bucket === undefined) {
    const stray = S3_VARIABLES.find((name) => setting(env, name) !== undefined);
    if (stray) throw new Error(`CASTAWAY_S3_BUCKET is not set but ${stray} is: set the bucket to keep blobs in S3, or unset ${stray}`);
    return null;
  }
  return s3BlobStore({
    client: s3ClientFromEnv(env),
    bucket,
    prefix: setting(env, 'CASTAWAY_S3_PREFIX') ?? '',
    cacheDir: setting(env, 'CASTAWAY_S3_CACHE_DIR') ?? join(env.CASTAWAY_DATA_DIR ?? '.data', 's3-cache'),
  });
}

/** A variable's value; an empty one counts as unset. */
function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

const bothKeys = (unset: string, set: string) =>
  `${unset} is not set but ${set} is: set both, or neither to use the AWS SDK's default credentials`;

/** What fsBlobStore's stream() and copy() fail with for a missing file (createReadStream, link). */
function missing(key: string): Error {
  return Object.assign(new Error(`ENOENT: no such blob: ${key}`), { code: 'ENOENT' });
}

/** The object changed between HeadObject and GetObject. */
class ObjectChanged extends Error {}

const statusOf = (e: unknown) => (e as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;

// A HEAD answer has no body, so a missing key comes back as 'NotFound' with only its 404 status.
// (A missing bucket looks the same to HeadObject; the server's first write would then fail.)
function isNotFound(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || (e.name !== 'NoSuchBucket' && statusOf(e) === 404);
}

type CacheEntry = { path: string; size: number; pins: number; ready: Promise<void> };

/**
 * Downloaded objects in `dir`, at most `maxBytes` of them (least recently used removed first).
 * A file is pinned while a Blob over it is alive (a Blob reads its file by path: removing it would
 * fail the decoder mid-file), unpinned when that Blob is garbage collected; so the folder may pass
 * maxBytes while the files in use alone do. One download per name at a time, shared by its callers.
 * Files a previous run left are adopted; the folder must be this process's alone.
 */
function fileCache(dir: string, maxBytes: number) {
  const entries = new Map<string, CacheEntry>(); // in order of use, least recent first
  let total = 0;
  const released = new FinalizationRegistry<CacheEntry>((entry) => {
    entry.pins--;
    evict();
  });

  function evict() {
    for (const [name, entry] of entries) {
      if (total <= maxBytes) return;
      if (entry.pins > 0) continue;
      entries.delete(name);
      total -= entry.size;
      // Synchronous: a new download of the same name must not be renamed in before this removal.
      rmSync(entry.path, { force: true });
    }
  }

  let adopted: Promise<void> | undefined;
  async function adopt() {
    await mkdir(dir, { recursive: true });
    const found = [];
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      if (name.endsWith('.tmp')) await rm(path, { force: true }); // a download cut short
      else if (/^[0-9a-f]{64}$/.test(name)) {
        const s = await stat(path);
        found.push({ name, path, size: s.size, used: s.mtimeMs });
      }
    }
    for (const f of found.sort((a, b) => a.used - b.used)) {
      entries.set(f.name, { path: f.path, size: f.size, pins: 0, ready: Promise.resolve() });
      total += f.size;
    }
    evict();
  }

  return {
    /** A Blob over the file `name`, which `fill(path)` writes when the cache has none. */
    async open(name: string, fill: (path: string) => Promise<void>): Promise<Blob> {
      await (adopted ??= adopt());
      for (let attempt = 1; ; attempt++) {
        let entry = entries.get(name);
        if (entry) entries.delete(name); // moved to the most recent end below
        else {
          const e: CacheEntry = { path: join(dir, name), size: 0, pins: 0, ready: Promise.resolve() };
          e.ready = (async () => {
            try {
              await fill(e.path);
              e.size = (await stat(e.path)).size;
              total += e.size;
            } catch (err) {
              if (entries.get(name) === e) entries.delete(name); // the next call tries again
              throw err;
            }
          })();
          entry = e;
        }
        entries.set(name, entry);
        // Pinned before waiting, so no other download's eviction removes it under this caller.
        entry.pins++;
        try {
          await entry.ready;
          const blob = await openAsBlob(entry.path);
          released.register(blob, entry);
          evict();
          return blob;
        } catch (err) {
          entry.pins--;
          // The file went from under the cache (removed by hand): forget it, download it again.
          // (Node 20's openAsBlob says ERR_INVALID_ARG_VALUE for a missing file, not ENOENT.)
          if (attempt === 1 && entries.get(name) === entry && !(await stat(entry.path).catch(() => null))) {
            entries.delete(name);
            total -= entry.size;
            continue;
          }
          throw err;
        }
      }
    },
  };
}
