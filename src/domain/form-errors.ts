// The form error types of specification section 5 and the typed error every validator returns.
// Validators never format text: the catalogue key in `message` (plus `params`) is turned into
// words by formatFormError (messages.ts), in the screens and in the server's 400 bodies alike.
import type en from '../../locales/domain/en-US.json';

export const FormErrorType = {
  required: 'required',
  invalid: 'invalid',
  dateInvalid: 'dateInvalid',
  reversed: 'reversed',
  emailInvalid: 'emailInvalid',
  urlInvalid: 'urlInvalid',
  tooShort: 'tooShort',
  tooLong: 'tooLong',
  outOfRange: 'outOfRange',
  doesNotMatch: 'doesNotMatch',
  previouslyRejected: 'previouslyRejected',
  fileTooLarge: 'fileTooLarge',
  emptyFile: 'emptyFile',
  emptyFileName: 'emptyFileName',
  invalidFileExtension: 'invalidFileExtension',
  cloudOnlyFile: 'cloudOnlyFile',
} as const;
export type FormErrorType = (typeof FormErrorType)[keyof typeof FormErrorType];

/** A key of the domain message catalogue (locales/domain/en-US.json). */
export type DomainMessageKey = Exclude<keyof typeof en, '$schema'>;

export type FormErrorParams = Record<string, string | number>;

export type FormError = {
  type: FormErrorType;
  /** Which catalogue message explains this error; without it the type's default message is used. */
  message?: DomainMessageKey;
  params?: FormErrorParams;
  /** Extra detail a caller may branch on (for example 'underflow' or 'overflow' for outOfRange). */
  reason?: string;
};

export function formError(type: FormErrorType, message?: DomainMessageKey, params?: FormErrorParams, reason?: string): FormError {
  const error: FormError = { type };
  if (message !== undefined) error.message = message;
  if (params !== undefined) error.params = params;
  if (reason !== undefined) error.reason = reason;
  return error;
}
