// The file rules of section 5 for an uploaded audio body, from src/domain (one copy of the rule):
// every failing rule with the request part it concerns ('file' for the body, 'fileName' for the query),
// and receiving such a body into the blob store under those rules.
import type { Context } from 'hono';
import { AUDIO_FILE_MAX_BYTES } from '../../src/domain/constants.ts';
import { fileErrors } from '../../src/domain/file.ts';
import type { FormError } from '../../src/domain/form-errors.ts';
import { assertValid } from '../errors.ts';
import { BlobTooLargeError, type BlobStore } from './blob-store.ts';

export function audioUploadErrors(fileName: string | undefined, size: number, maxBytes: number = AUDIO_FILE_MAX_BYTES): Array<[string, FormError]> {
  return fileErrors({ name: fileName ?? '', size }, { maxBytes }).map(({ field, error }) => [field, error]);
}

const CONTENT_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg', m4a: 'audio/mp4', mp4: 'video/mp4', aac: 'audio/aac', wav: 'audio/wav', flac: 'audio/flac', aif: 'audio/aiff', aiff: 'audio/aiff',
};

/** The Content-Type an accepted file is served with, from its extension. */
export function audioContentType(fileName: string): string {
  return CONTENT_TYPES[fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Streams a request's file body (query fileName) to the blob store at `key` under the section-5
 * rules: every broken rule is a 400 with a body (a declared size over the limit before any byte is
 * read; an actual one as it is reached; an empty body once it has ended), and a refused body
 * leaves whatever `key` held before untouched. Returns the trimmed name and the size.
 */
export async function receiveAudioUpload(c: Context, blobs: BlobStore, key: string, maxBytes: number): Promise<{ fileName: string; size: number }> {
  const fileName = c.req.query('fileName');
  const declared = Number(c.req.header('content-length') ?? NaN);
  // Rules we can check before reading the body (a 2 GB upload is refused at once).
  assertValid(audioUploadErrors(fileName, Number.isFinite(declared) ? declared : 1, maxBytes));
  const body = c.req.raw.body;
  if (!body) assertValid(audioUploadErrors(fileName, 0, maxBytes));
  try {
    // The whole body is checked before it replaces the key's file (a chunked empty body, say).
    const { size } = await blobs.put(key, body!, maxBytes, (received) => assertValid(audioUploadErrors(fileName, received, maxBytes)));
    return { fileName: fileName!.trim(), size };
  } catch (e) {
    if (e instanceof BlobTooLargeError) assertValid(audioUploadErrors(fileName, e.received, maxBytes));
    throw e;
  }
}
