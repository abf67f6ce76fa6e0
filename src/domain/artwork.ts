// Artwork of networks, programs, playlists and clips (section 3 "Image" format and "Image size
// variants"; section 7 "PUT …/image", "POST /v1/chapters/images", "POST /internal/images"): the
// limits the studio and the server share, and what an image is, decided by its bytes.
import { IMAGE_EXTENSIONS } from './constants.ts';
import { validateFile, type FileFacts } from './file.ts';
import type { FormError } from './form-errors.ts';

/**
 * The largest image file accepted: 20 MB. Artwork is at most 3000×3000 (the large variant); a
 * photographic PNG of that size is 12–20 MB, a JPEG a few MB. Anything larger is not artwork,
 * and the server holds at most this much of a request on disk while it checks it.
 */
export const IMAGE_FILE_MAX_BYTES = 20 * 1024 * 1024;

/**
 * The most pixels an image may declare: 25 million (5000×5000). Far beyond artwork and most
 * cameras' photos, and a decoded image of that size is bounded (100 MB as RGBA); a small file
 * claiming more (a decompression bomb: a 50 KB PNG can say 50,000×50,000) is refused from its
 * header, before any pixel is decoded.
 */
export const IMAGE_MAX_PIXELS = 25_000_000;

/** What may own artwork (section 7's PUT …/image), and the images that belong to no row. */
export const IMAGE_OWNER_KINDS = ['network', 'program', 'playlist', 'clip'] as const;
export type ImageOwnerKind = (typeof IMAGE_OWNER_KINDS)[number];
/** chapter: POST /v1/chapters/images; upload: POST /internal/images; user: a user's own picture
 * (PUT /internal/users/me/image), which belongs to the user and to no organization. */
export const IMAGE_KINDS = [...IMAGE_OWNER_KINDS, 'chapter', 'upload', 'user'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export type ImageType = 'image/jpeg' | 'image/png';

/**
 * The type of an image from its first bytes (a Content-Type or a file name can say anything):
 * JPEG starts FF D8 FF, PNG with its 8-byte signature. Anything else (GIF, WebP, text) is null.
 */
export function imageTypeOf(head: Uint8Array): ImageType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= 8 && png.every((b, i) => head[i] === b)) return 'image/png';
  return null;
}

/** The file rules of section 5 for an image the user picks: not empty, at most
 * IMAGE_FILE_MAX_BYTES, a jpeg, jpg or png name. */
export function validateImageFile(file: FileFacts | null | undefined): FormError | null {
  return validateFile(file, { maxBytes: IMAGE_FILE_MAX_BYTES, extensions: IMAGE_EXTENSIONS });
}
