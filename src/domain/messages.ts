// Turns typed errors and catalogue keys into text through the compiled Paraglide messages.
// The English wording lives only in locales/domain/en-US.json; the six other locales translate it.
// The domain area only (scripts/message-areas.ts): a lookup by key keeps every member it could reach.
import * as messages from '../paraglide/areas/domain.js';
import { getLocale, type Locale } from '../paraglide/runtime.js';
import { formatFileSize } from './file.ts';
import type { DomainMessageKey, FormError, FormErrorType, FormErrorParams } from './form-errors.ts';
import type { FieldError } from '../protocol/errors.ts';

/** What a server's field error says: its English words, and the catalogue key and inputs they came from. */
type ServerWords = Pick<FieldError, 'Message' | 'MessageKey' | 'Params'>;

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

/**
 * The inputs of a message that are sizes in bytes. They are given as numbers and put into words
 * in the message's own language here ('2.5 MB', '2,5 MB' in German), so a server's error sent in
 * English reads right in the user's language. A size given as text is used as it is: servers
 * of an earlier release sent '3 MB'.
 */
const SIZE_INPUTS: Partial<Record<DomainMessageKey, readonly string[]>> = {
  domain_file_too_large: ['maxSize', 'size'],
  domain_body_too_large: ['maxSize'],
};

/** Text of one domain catalogue message; `locale` defaults to Paraglide's current locale. */
export function domainMessage(key: DomainMessageKey, params: FormErrorParams = {}, locale?: Locale): string {
  const fn = (messages as unknown as Record<DomainMessageKey, MessageFn>)[key];
  let inputs = params;
  const sizes = SIZE_INPUTS[key];
  if (sizes) {
    inputs = { ...params };
    for (const name of sizes) {
      const bytes = params[name];
      if (typeof bytes === 'number') inputs[name] = formatFileSize(bytes, locale ?? getLocale());
    }
  }
  return locale === undefined ? fn(inputs) : fn(inputs, { locale });
}

/** The catalogue key whose message explains this error. */
export function formErrorMessageKey(error: FormError): DomainMessageKey {
  return error.message ?? DEFAULT_MESSAGE[error.type];
}

export function formatFormError(error: FormError, locale?: Locale): string {
  return domainMessage(formErrorMessageKey(error), error.params, locale);
}

function isDomainMessageKey(key: string): key is DomainMessageKey {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

/**
 * A field error of a server's 400 body in the user's language (or `locale`), from the catalogue
 * key and inputs the server names beside its English Message; null when this client cannot say
 * it: no key, a key it does not know (another catalogue, an older or newer server), inputs it
 * cannot pass on, or a catalogue whose English differs from the server's words (other inputs, a
 * changed message), so it never says something the server did not.
 */
export function domainFieldErrorText(error: ServerWords, locale?: Locale): string | null {
  if (error.MessageKey === undefined || !isDomainMessageKey(error.MessageKey)) return null;
  const params: FormErrorParams = {};
  for (const [name, value] of Object.entries(error.Params ?? {})) {
    if (typeof value !== 'string' && typeof value !== 'number') return null;
    params[name] = value;
  }
  if (domainMessage(error.MessageKey, params, 'en-US') !== error.Message) return null;
  return domainMessage(error.MessageKey, params, locale);
}

/** A server's field error in the user's language when this client can say it, else its words. */
export function fieldErrorText(error: ServerWords, locale?: Locale): string {
  return domainFieldErrorText(error, locale) ?? error.Message;
}

/** A 400's field errors for a form: each at its field when the form has one (the first per field),
 * else under 'form'. */
export function fieldErrorTexts<F extends string>(errors: readonly (ServerWords & { Field: string })[], fields: readonly F[]): Partial<Record<F | 'form', string>> {
  const out: Partial<Record<F | 'form', string>> = {};
  for (const error of errors) out[(fields as readonly string[]).includes(error.Field) ? (error.Field as F) : 'form'] ??= fieldErrorText(error);
  return out;
}
