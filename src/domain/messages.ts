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

/** The catalogue key whose message explains this error. */
export function formErrorMessageKey(error: FormError): DomainMessageKey {
  return error.message ?? DEFAULT_MESSAGE[error.type];
}

export function formatFormError(error: FormError, locale?: Locale): string {
  return domainMessage(formErrorMessageKey(error), error.params, locale);
}

function isDomainMessageKey(key: string): key is DomainMessageKey {
  return Object.prototype.hasOwnProperty.call(messages, key) && key.startsWith('domain_');
}

/**
 * A field error of a server's 400 body in the user's language (or `locale`): the server writes
 * its Message in English, and names the catalogue key and inputs it came from. An error without
 * a key this client knows (another catalogue, an older server, a newer message), or with inputs
 * it cannot pass on, keeps the server's words: they say what is wrong, if not in this language.
 */
export function fieldErrorText(error: { Message: string; MessageKey?: string | undefined; Params?: Record<string, unknown> | undefined }, locale?: Locale): string {
  if (error.MessageKey === undefined || !isDomainMessageKey(error.MessageKey)) return error.Message;
  const params: FormErrorParams = {};
  for (const [name, value] of Object.entries(error.Params ?? {})) {
    // An input that is not text or a number would be said as "undefined": keep the server's words.
    if (typeof value !== 'string' && typeof value !== 'number') return error.Message;
    params[name] = value;
  }
  return domainMessage(error.MessageKey, params, locale);
}
