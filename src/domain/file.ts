// File rules of section 5, checked in the spec's order: cloud-only, empty, empty name, too large,
// extension. Sizes read in KB below 1 MB, else MB (binary units, as the OS file pickers show).
import { AUDIO_EXTENSIONS, AUDIO_FILE_MAX_BYTES } from './constants.ts';
import { formError, type FormError } from './form-errors.ts';

export type FileFacts = {
  name: string;
  size: number;
  /** A placeholder of a file that lives only in a cloud drive (size unknown until downloaded). */
  cloudOnly?: boolean;
};

export type FileOptions = { maxBytes?: number; extensions?: readonly string[] };

const KB = 1024;
const MB = 1024 * 1024;

/** A size in KB below 1 MB, else MB, with at most one decimal in the locale's own digits
 *  ('6.5 MB' in en-US, '6,5 MB' in de-DE). */
export function formatFileSize(bytes: number, locale = 'en-US'): string {
  const n = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, useGrouping: false });
  return bytes < MB ? `${n.format(bytes / KB)} KB` : `${n.format(bytes / MB)} MB`;
}

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function validateFile(file: FileFacts | null | undefined, options: FileOptions = {}): FormError | null {
  const maxBytes = options.maxBytes ?? AUDIO_FILE_MAX_BYTES;
  const extensions = options.extensions ?? AUDIO_EXTENSIONS;
  if (!file) return formError('required', 'domain_file_none');
  if (file.cloudOnly === true) return formError('cloudOnlyFile', 'domain_file_cloud_only');
  if (file.size === 0) return formError('emptyFile', 'domain_file_empty');
  if (file.name.trim() === '') return formError('emptyFileName', 'domain_file_name_empty');
  if (file.size > maxBytes) {
    return formError('fileTooLarge', 'domain_file_too_large', { maxSize: maxBytes, size: file.size });
  }
  if (!extensions.includes(fileExtension(file.name))) {
    return formError('invalidFileExtension', 'domain_file_extension', { formats: extensions.join(', ') });
  }
  return null;
}

export type FileField = 'file' | 'fileName';

/**
 * Every file rule that fails, each with the part of the upload it concerns, for request bodies
 * where the server reports all problems at once (screens show the first, via validateFile).
 */
export function fileErrors(file: FileFacts, options: FileOptions = {}): Array<{ field: FileField; error: FormError }> {
  const maxBytes = options.maxBytes ?? AUDIO_FILE_MAX_BYTES;
  const extensions = options.extensions ?? AUDIO_EXTENSIONS;
  const errors: Array<{ field: FileField; error: FormError }> = [];
  const add = (field: FileField, error: FormError) => errors.push({ field, error });
  if (file.cloudOnly === true) add('file', formError('cloudOnlyFile', 'domain_file_cloud_only'));
  if (file.size === 0) add('file', formError('emptyFile', 'domain_file_empty'));
  const named = file.name.trim() !== '';
  if (!named) add('fileName', formError('emptyFileName', 'domain_file_name_empty'));
  if (file.size > maxBytes) {
    add('file', formError('fileTooLarge', 'domain_file_too_large', { maxSize: maxBytes, size: file.size }));
  }
  if (named && !extensions.includes(fileExtension(file.name))) {
    add('fileName', formError('invalidFileExtension', 'domain_file_extension', { formats: extensions.join(', ') }));
  }
  return errors;
}
