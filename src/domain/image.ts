// Image size variants (section 3): the smallest square variant that covers the requested box,
// else large, asked for with a size query parameter.
import { IMAGE_VARIANTS } from './constants.ts';

export type ImageVariant = keyof typeof IMAGE_VARIANTS;
const ORDER: readonly ImageVariant[] = ['thumbnail', 'small', 'medium', 'large'];

export function imageVariant(width: number, height: number): ImageVariant {
  const need = Math.max(width, height);
  return ORDER.find((v) => IMAGE_VARIANTS[v] >= need) ?? 'large';
}

export type ImageUrlResult = { ok: true; url: string } | { ok: false; error: 'MultipleQueryMarks' };

export function imageUrlForSize(url: string, width: number, height: number): ImageUrlResult {
  const marks = url.split('?').length - 1;
  if (marks > 1) return { ok: false, error: 'MultipleQueryMarks' };
  const size = `size=${imageVariant(width, height)}`;
  return { ok: true, url: marks === 1 ? `${url}&${size}` : `${url}?${size}` };
}
