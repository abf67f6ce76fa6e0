// Server error codes of section 5 that are not form error types, and the message each shows.
// SlugExists has two wordings: a clip slug is unique within its program, a playlist or program
// slug within the organization.
import { formError, type DomainMessageKey, type FormError } from './form-errors.ts';

export const SlugErrorCode = {
  SlugExists: 'SlugExists',
  SlugReservationFailed: 'SlugReservationFailed',
} as const;
export type SlugErrorCode = (typeof SlugErrorCode)[keyof typeof SlugErrorCode];

export type SlugOwner = 'clip' | 'playlist' | 'program';

export function slugErrorMessageKey(code: SlugErrorCode, owner: SlugOwner): DomainMessageKey {
  if (code === 'SlugReservationFailed') return 'domain_slug_reserved';
  return owner === 'clip' ? 'domain_slug_exists_in_program' : 'domain_slug_exists';
}

/** The field error shown under the slug input for a server code; null for other codes. */
export function slugServerError(code: string, owner: SlugOwner): FormError | null {
  if (code !== SlugErrorCode.SlugExists && code !== SlugErrorCode.SlugReservationFailed) return null;
  return formError('invalid', slugErrorMessageKey(code, owner), undefined, code);
}
