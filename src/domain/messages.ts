// Turns typed errors and catalogue keys into text through the compiled Paraglide messages.
// The English wording lives only in locales/domain/en-US.json; the six other locales translate it.
// The domain area only (scripts/message-areas.ts): a lookup by key keeps every member it could reach.
import * as messages from '../paraglide/areas/domain.js';
import type { Locale } from '../paraglide/runtime.js';
import type { DomainMessageKey, FormError, FormErrorType, FormErrorParams } from './form-errors.ts';

type MessageFn = (inputs?: Record<string, unknown>, options?: { locale?: Locale }) => string;

/** The message used when a validator names only the type (section 5 lists types without text). */
const DEFAULT_MESSAGE: Record<FormErrorType, DomainMessageKey> = {
  required: 'domain_required',
  invalid: 'domain_invalid',
  dateInvalid: 'domain_date_invalid',
  reversed: 'domain_date_reversed',
  emailInvalid: 'domain_contact_email_invalid',
  urlInvalid: 'domain_url_invalid',
  tooShort: 'domain_invalid',
  tooLong: 'domain_invalid',
  outOfRange: 'domain_invalid',
  doesNotMatch: 'domain_password_does_not_match',
  previouslyRejected: 'domain_password_previously_rejected',
  fileTooLarge: 'domain_file_too_large',
  emptyFile: 'domain_file_empty',
  emptyFileName: 'domain_file_name_empty',
  invalidFileExtension: 'domain_file_extension',
  cloudOnlyFile: 'domain_file_cloud_only',
};

/** Text of one domain catalogue message; `locale` defaults to Paraglide's current locale. */
export function domainMessage(key: DomainMessageKey, params: FormErrorParams = {}, locale?: Locale): string {
  const fn = (messages as unknown as Record<DomainMessageKey, MessageFn>)[key];
  return locale === undefined ? fn(params) : fn(params, { locale });
}

export function formatFormError(error: FormError, locale?: Locale): string {
  return domainMessage(error.message ?? DEFAULT_MESSAGE[error.type], error.params, locale);
}
