// The file rules of section 5 for an uploaded audio body, as domain FormErrors (their words come
// from the domain catalogue via fieldError). The order is the spec's: empty file, empty name,
// too large, extension.
// TODO(domain): use src/domain's validateFile once it lands; keep this module's signature.
import { AUDIO_EXTENSIONS, AUDIO_FILE_MAX_BYTES } from '../../src/domain/constants.ts';
import { formError, type FormError } from '../../src/domain/form-errors.ts';

/** 'Sizes display in KB below 1 MB, else MB' (section 5). */
export function displaySize(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes < MB) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${Math.round((bytes / MB) * 10) / 10} MB`;
}

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

export function audioUploadErrors(fileName: string | undefined, size: number, maxBytes: number = AUDIO_FILE_MAX_BYTES): Array<[string, FormError]> {
  const errors: Array<[string, FormError]> = [];
  if (size === 0) errors.push(['file', formError('emptyFile', 'domain_file_empty')]);
  const name = (fileName ?? '').trim();
  if (name === '') errors.push(['fileName', formError('emptyFileName', 'domain_file_name_empty')]);
  if (size > maxBytes) errors.push(['file', formError('fileTooLarge', 'domain_file_too_large', { maxSize: displaySize(maxBytes), size: displaySize(size) })]);
  if (name !== '' && !(AUDIO_EXTENSIONS as readonly string[]).includes(extensionOf(name))) {
    errors.push(['fileName', formError('invalidFileExtension', 'domain_file_extension', { formats: AUDIO_EXTENSIONS.join(', ') })]);
  }
  return errors;
}
