import { describe, expect, it } from 'vitest';
import { IMAGE_FILE_MAX_BYTES, imageTypeOf, validateImageFile } from './artwork.ts';
import { formatFormError } from './messages.ts';

describe('artwork', () => {
  it('an image is JPEG or PNG by its first bytes, whatever it is called', () => {
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageTypeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(imageTypeOf(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(imageTypeOf(new TextEncoder().encode('RIFF\0\0\0\0WEBP'))).toBeNull();
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8]))).toBeNull();
  });

  it('the file rules of section 5 for a chosen image: not empty, the size limit, jpeg, jpg or png', () => {
    expect(validateImageFile({ name: 'cover.JPG', size: 1000 })).toBeNull();
    expect(validateImageFile({ name: 'cover.png', size: 0 })?.type).toBe('emptyFile');
    expect(validateImageFile({ name: 'cover.gif', size: 10 })?.type).toBe('invalidFileExtension');
    const tooLarge = validateImageFile({ name: 'cover.png', size: IMAGE_FILE_MAX_BYTES + 1 });
    expect(formatFormError(tooLarge!, 'en-US')).toBe('File cannot be larger than 20 MB (received 20 MB)');
  });
});
