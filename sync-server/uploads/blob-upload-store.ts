// A tus data store whose bytes are in the blob store (an S3 bucket when one is configured) and whose
// records are in the database: instances that share nothing but the database and the bucket can
// each take any PATCH of any upload. @tus/s3-store would do this with the bucket's own multipart
// uploads, but it resumes by listing an upload's parts (ListParts), which the S3-compatible server
// the tests run (s3rver) does not implement; this store needs only PUT, GET, HEAD and DELETE.
//
// Each PATCH is one object, named by the offset it starts at: uploads/<id>/<offset, 15 digits>.
// The record's offset is the upload's: it moves only once a part is stored whole, so a part that
// did not finish (an instance killed mid-PATCH) is as if never sent, and the client resends it
// from the last offset (a part written again at the same offset replaces the old one). A PATCH
// whose connection drops ends its body early but normally (tus.ts hands @tus/server the Node
// request), so what arrived before the drop is kept as a shorter part.
//
// Reading walks the parts from offset 0, each starting where the last ended, up to the record's
// offset: parts left past it by an unfinished PATCH are never read, and go with the upload.
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { DataStore, ERRORS, Upload, type KvStore } from '@tus/server';
import { BlobTooLargeError, type BlobStore } from '../audio/blob-store.ts';

/** Where an upload's parts are in the blob store. */
export const uploadPartsFolder = (id: string) => `uploads/${id}`;
const partKey = (id: string, offset: number) => `${uploadPartsFolder(id)}/${String(offset).padStart(15, '0')}`;

/** tus ids are made by @tus/server (hex); anything else would name a key outside the upload's folder. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,200}$/;

export type BlobUploadStoreOptions = {
  blobs: BlobStore;
  records: Required<KvStore<Upload>>;
  expirationPeriodInMilliseconds: number;
  /** The largest upload: no part is accepted past it. */
  maxBytes: number;
};

export class BlobUploadStore extends DataStore {
  private readonly blobs: BlobStore;
  private readonly records: Required<KvStore<Upload>>;
  private readonly expiresMs: number;
  private readonly maxBytes: number;

  constructor(options: BlobUploadStoreOptions) {
    super();
    this.blobs = options.blobs;
    this.records = options.records;
    this.expiresMs = options.expirationPeriodInMilliseconds;
    this.maxBytes = options.maxBytes;
    this.extensions = ['creation', 'creation-with-upload', 'creation-defer-length', 'termination', 'expiration'];
  }

  private async record(id: string): Promise<Upload> {
    if (!SAFE_ID.test(id)) throw ERRORS.FILE_NOT_FOUND;
    const info = await this.records.get(id);
    if (!info) throw ERRORS.FILE_NOT_FOUND;
    return new Upload({
      id,
      offset: info.offset ?? 0,
      ...(info.size === undefined ? {} : { size: info.size }),
      ...(info.metadata === undefined ? {} : { metadata: info.metadata }),
      ...(info.creation_date === undefined ? {} : { creation_date: info.creation_date }),
      storage: { type: 'blob', path: uploadPartsFolder(id) },
    });
  }

  override async create(upload: Upload): Promise<Upload> {
    if (!SAFE_ID.test(upload.id)) throw ERRORS.FILE_NOT_FOUND;
    upload.offset = 0;
    upload.storage = { type: 'blob', path: uploadPartsFolder(upload.id) };
    await this.records.set(upload.id, upload);
    return upload;
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const upload = await this.record(id);
    // @tus/server holds the upload's lock and has checked Upload-Offset against getUpload's.
    if (offset !== upload.offset) throw ERRORS.INVALID_OFFSET;
    const room = (upload.size ?? this.maxBytes) - offset;
    let size: number;
    try {
      ({ size } = await this.blobs.put(partKey(id, offset), Readable.toWeb(readable) as ReadableStream<Uint8Array>, room));
    } catch (e) {
      throw e instanceof BlobTooLargeError ? ERRORS.ERR_SIZE_EXCEEDED : ERRORS.FILE_WRITE_ERROR;
    }
    // An empty part (a PATCH with no body) changes nothing; its object is left for the folder's removal.
    if (size === 0) return offset;
    upload.offset = offset + size;
    await this.records.set(id, upload);
    return upload.offset;
  }

  override getUpload(id: string): Promise<Upload> {
    return this.record(id);
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    const upload = await this.record(id);
    upload.size = length;
    await this.records.set(id, upload);
  }

  override async remove(id: string): Promise<void> {
    if (!SAFE_ID.test(id)) throw ERRORS.FILE_NOT_FOUND;
    await this.blobs.remove(uploadPartsFolder(id));
    await this.records.delete(id);
  }

  override getExpiration(): number {
    return this.expiresMs;
  }

  /** The upload's bytes so far, its parts one after the other (the hand-over reads the whole file). */
  read(id: string): Readable {
    const out = new PassThrough();
    void (async () => {
      const { offset } = await this.record(id);
      for (let at = 0; at < offset; ) {
        const key = partKey(id, at);
        const size = await this.blobs.size(key);
        if (size === null || size === 0) throw new Error(`upload ${id}: no part at offset ${at} of ${offset}`);
        // Never past the record's offset (a longer part there was not recorded whole).
        const take = Math.min(size, offset - at);
        const part = Readable.fromWeb(this.blobs.stream(key, 0, take - 1) as NodeReadableStream<Uint8Array>);
        for await (const chunk of part) if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
        at += take;
      }
      out.end();
    })().catch((e: unknown) => out.destroy(e instanceof Error ? e : new Error(String(e))));
    return out;
  }
}
