// The file rules of section 5 for an uploaded audio body, from src/domain (one copy of the rule):
// every failing rule with the request part it concerns ('file' for the body, 'fileName' for the query).
import { AUDIO_FILE_MAX_BYTES } from '../../src/domain/constants.ts';
import { fileErrors } from '../../src/domain/file.ts';
import type { FormError } from '../../src/domain/form-errors.ts';

export function audioUploadErrors(fileName: string | undefined, size: number, maxBytes: number = AUDIO_FILE_MAX_BYTES): Array<[string, FormError]> {
  return fileErrors({ name: fileName ?? '', size }, { maxBytes }).map(({ field, error }) => [field, error]);
}
