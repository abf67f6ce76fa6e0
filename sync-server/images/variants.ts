// An image's pixels, with sharp (libvips, prebuilt for this platform from the npm registry): what
// an image is (type, size), whether it decodes to the end, and its square size variants.
//
// A variant is the largest centred square of the (EXIF-rotated) image, scaled to the variant's
// side, never up: a 1400×1400 source asked as large (3000) is 1400×1400, a 1400×1000 one is
// 1000×1000 (IMAGE_VARIANTS of section 3 are upper bounds; a picture is never made blurrier
// than it came). JPEG stays JPEG and PNG stays PNG (transparency kept); metadata is dropped.
import sharp, { type Metadata } from 'sharp';
import { IMAGE_VARIANTS } from '../../src/domain/constants.ts';
import { IMAGE_MAX_PIXELS, type ImageType } from '../../src/domain/artwork.ts';
import type { ImageVariant } from '../../src/domain/image.ts';

// libvips' operation cache holds decoded images of past requests: not useful for one-off files,
// and memory a long-running server would keep.
sharp.cache(false);

export type ImageFacts = { type: ImageType; width: number; height: number };

/** Why an image's bytes cannot be used: a 400 naming the body. */
export class ImageProblem extends Error {
  constructor(
    readonly problem: 'tooManyPixels' | 'undecodable',
    readonly details: Record<string, number> = {},
  ) {
    super(problem);
  }
}

/** Decoding options of every read: a header that claims more than IMAGE_MAX_PIXELS is refused
 * before decoding, and a file that ends early (truncated) fails rather than being padded grey. */
const input = (bytes: Uint8Array) => sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'truncated' });

/** The image's type and size from its header (no pixel decoded). */
export async function imageFacts(bytes: Uint8Array, type: ImageType): Promise<ImageFacts> {
  let meta: Metadata;
  try {
    // The header only: no pixel limit yet, so a header claiming too many is refused by the check below, not read as undecodable.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageProblem('undecodable');
  }
  const { width, height } = meta;
  if (!width || !height) throw new ImageProblem('undecodable');
  if (width * height > IMAGE_MAX_PIXELS) throw new ImageProblem('tooManyPixels', { maxPixels: IMAGE_MAX_PIXELS, pixels: width * height });
  return { type, width, height };
}

export type Variant = { bytes: Buffer; width: number; height: number };

/** One square variant (see the header). Throws ImageProblem('undecodable') for a file that does
 * not decode to its end. */
export async function makeVariant(bytes: Uint8Array, facts: ImageFacts, size: ImageVariant): Promise<Variant> {
  const side = Math.min(IMAGE_VARIANTS[size], facts.width, facts.height);
  const pipeline = input(bytes).rotate().resize(side, side, { fit: 'cover', position: 'centre' });
  const encoded = facts.type === 'image/png' ? pipeline.png({ compressionLevel: 8 }) : pipeline.jpeg({ quality: 85 });
  try {
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch {
    throw new ImageProblem('undecodable');
  }
}
