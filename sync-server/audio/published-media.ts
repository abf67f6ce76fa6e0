// What a clip serves to the public (the feed's enclosure, the public audio route, the show page's
// player): its PUBLISHED VERSION, a media folder of its own made by the processing pipeline from the
// clip's original upload and its saved cut (cut-render.ts), named by clips/{id}/published.json:
//
//   clips/{id}/published.json ──> clips/{id}/versions/{version}/audio   (MP3 or M4A: what podcast apps play)
//                                                          /waveform-{high|low}.{dat|json}
//
// A version is never written in place: a new cut or a new upload makes a new folder, published.json
// is switched to it with the clip's row, and the old folder is removed later by the sweep job
// (version-sweep.ts), so a listener mid-download of the previous file finishes it.
//
// Clips with no published.json (the demo's seeded clips, uploads processed before versions existed)
// publish their upload as it is: the file named by audio.json (media-paths.ts).
import { readContainerInfo } from '../../src/media/container.ts';
import type { LoudnessFigures } from '../../src/domain/loudness.ts';
import { blobSource } from '../../src/media/source.ts';
import { readJsonBlob, type BlobStore } from './blob-store.ts';
import type { DemoMedia } from './demo-media.ts';
import type { VersionBumpers } from './intro-outro-render.ts';
import { clipKeys, clipMediaFolder, demoKeys, mediaFiles, type UploadMeta } from './media-paths.ts';

/** The file a clip serves publicly. */
export type PublishedAudio = {
  /** Blob key of the file (BlobStore: size, blob, stream for HTTP Range). */
  key: string;
  /** 'audio/mpeg' for MP3, 'audio/mp4' for M4A, 'video/mp4' for a video clip's MP4. */
  contentType: string;
  /** The file extension for public URLs and downloads, without the dot: 'mp3', 'm4a', 'mp4', … */
  ext: string;
  /** Bytes: the feed's enclosure length. */
  size: number;
  /** A strong ETag, quotes included, the same for as long as this file is the one served. */
  etag: string;
  /** The file's length in seconds (ms precision): the clip's DurationSeconds once it is processed. */
  durationSeconds: number;
};

/** A clip's published.json: the version it serves and what it was made from. */
export type PublishedVersion = {
  /** Random id of this version; also its folder name and the `v` of the clip's media URLs. */
  version: string;
  /** Media folder: clips/{id}/versions/{version} (or the upload's own folder, never written to). */
  folder: string;
  contentType: string;
  ext: string;
  size: number;
  durationSeconds: number;
  /** uploadId of the original upload it was made from (audio.json). */
  upload: string;
  /** sha256 of the cut.json it renders, or null for the whole upload. */
  edit: string | null;
  /** sha256 of the chapters written into it as ID3 CHAP frames (id3-chapters.ts), or absent/null for none. */
  chapters?: string | null;
  /** Its audio measured to EBU R128 (absent on versions made before loudness was measured, or that did not decode). */
  loudness?: LoudnessFigures;
  /** The loudness normalization rendered into it (loudness-job.ts): the preset and the gain before the limiter. */
  normalization?: { presetId: string; gainDb: number; ceilingDbtp: number };
  /** The program's intro and outro rendered around the episode (intro-outro-render.ts); absent or null: none. */
  bumpers?: VersionBumpers | null;
};

const EXT_BY_TYPE: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'video/mp4': 'mp4', 'audio/aac': 'aac', 'audio/wav': 'wav', 'audio/flac': 'flac', 'audio/aiff': 'aiff' };

/** The extension a file of this content type is published with ('bin' for one we do not know). */
export const publishedExt = (contentType: string, fileName?: string) =>
  EXT_BY_TYPE[contentType] ?? (fileName?.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : 'bin');

export const readPublishedVersion = (blobs: BlobStore, clipId: string) => readJsonBlob<PublishedVersion>(blobs, clipKeys.published(clipId));

/**
 * The file the clip serves publicly, or null when it has none (no audio, or audio that did not
 * process: the processing job writes published.json only for a good file).
 */
export async function publishedAudio(blobs: BlobStore, clipId: string): Promise<PublishedAudio | null> {
  const published = await readPublishedVersion(blobs, clipId);
  if (published) {
    const key = mediaFiles.audio(published.folder);
    const size = await blobs.size(key);
    if (size === null) return null;
    const { contentType, ext, durationSeconds } = published;
    return { key, contentType, ext, size, etag: `"${published.version}"`, durationSeconds };
  }
  // No version: the upload itself (seeded demo clips, and uploads processed before versions).
  const meta = await readJsonBlob<UploadMeta>(blobs, clipKeys.meta(clipId));
  if (!meta) return null;
  const folder = clipMediaFolder(clipId, meta);
  const key = mediaFiles.audio(folder);
  const size = await blobs.size(key);
  if (size === null) return null;
  const demo = meta.media?.startsWith('demo/') ? await readJsonBlob<DemoMedia>(blobs, demoKeys.info(meta.media.slice('demo/'.length))) : null;
  const durationSeconds = demo?.durationSeconds ?? (await containerSeconds(blobs, key));
  if (durationSeconds === null) return null;
  // The demo folder is named by a hash of its bytes; an own upload by its uploadId (new per file).
  const etag = `"${meta.uploadId ?? folder.replaceAll('/', '-')}-${size}"`;
  return { key, contentType: meta.contentType, ext: publishedExt(meta.contentType, meta.fileName), size, etag, durationSeconds };
}

async function containerSeconds(blobs: BlobStore, key: string): Promise<number | null> {
  try {
    const info = await readContainerInfo(blobSource(await blobs.blob(key)));
    return info.durationSeconds === null ? null : Math.round(info.durationSeconds * 1000) / 1000;
  } catch {
    return null;
  }
}
