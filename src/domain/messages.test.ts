import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { domainMessage, fieldErrorText, formatFormError } from './messages.ts';
import { FormErrorType, formError, type DomainMessageKey } from './form-errors.ts';
import * as compiled from '../paraglide/messages/_index.js';

/** A message: its text, or its variants (a plural's forms), each with its own text. */
type Entry = string | { match: Record<string, string> }[];
const catalogue = (locale: string): Record<string, Entry> =>
  JSON.parse(readFileSync(new URL(`../../locales/domain/${locale}.json`, import.meta.url), 'utf8')) as Record<string, Entry>;
const en = catalogue('en-US');
const keys = Object.keys(en).filter((k) => k !== '$schema') as DomainMessageKey[];
const texts = (entry: Entry): string[] => (typeof entry === 'string' ? [entry] : entry.flatMap((variant) => Object.values(variant.match)));
/** The inputs a message names, in any of its variants. */
const placeholders = (entry: Entry) => [...new Set(texts(entry).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();

describe('compiled Paraglide messages', () => {
  it('renders a compiled message (an empty compile fails here)', () => {
    expect(compiled.domain_email_invalid({ value: 'ann@' }, { locale: 'en-US' })).toBe('"ann@" is not a valid email address');
    expect(Object.keys(compiled).filter((k) => k.startsWith('domain_'))).toHaveLength(keys.length);
  });

  it('formats the spec wording with parameters', () => {
    expect(formatFormError(formError('tooShort', 'domain_password_too_short', { minPasswordLength: 8 }), 'en-US')).toBe(
      'Password must be 8 characters or longer',
    );
    expect(formatFormError(formError('tooLong', 'domain_file_too_large', { maxSize: '2 MB', size: '3.5 MB' }), 'en-US')).toBe(
      'File cannot be larger than 2 MB (received 3.5 MB)',
    );
    expect(domainMessage('domain_date_range_limit', { numberOfDaysLimit: 31 }, 'en-US')).toBe('Date range cannot exceed 31 day(s)');
  });

  it.each(Object.values(FormErrorType))('every form error type %s has a default message', (type) => {
    expect(formatFormError({ type }, 'en-US')).not.toBe('');
  });

  it('uses the current locale when none is given', () => {
    expect(formatFormError({ type: 'required' })).toBe('This field is required');
  });
});

describe("a server's field error in the user's language", () => {
  // As a 400 body or a refused sync change carries it (sync-server/errors.ts fieldError).
  const tooLarge = {
    Field: 'file',
    Code: 'fileTooLarge',
    Message: 'File cannot be larger than 3 MB (received 4 MB)',
    MessageKey: 'domain_file_too_large',
    Params: { maxSize: '3 MB', size: '4 MB' },
  };

  it('is worded from its catalogue key and inputs', () => {
    expect(fieldErrorText(tooLarge, 'de-DE')).toBe('Die Datei darf nicht größer als 3 MB sein (erhalten: 4 MB)');
    expect(fieldErrorText({ Message: 'This slug is already in use in this program', MessageKey: 'domain_slug_exists_in_program' }, 'fr-FR')).toBe(
      domainMessage('domain_slug_exists_in_program', {}, 'fr-FR'),
    );
    expect(fieldErrorText(tooLarge, 'en-US')).toBe(tooLarge.Message);
  });

  it("words sizes given in bytes in the user's language, and sizes given as text (an earlier server) as they are", () => {
    const sized = { ...tooLarge, Message: 'File cannot be larger than 2 MB (received 2.5 MB)', Params: { maxSize: 2 * 1024 * 1024, size: 2.5 * 1024 * 1024 } };
    expect(fieldErrorText(sized, 'en-US')).toBe('File cannot be larger than 2 MB (received 2.5 MB)');
    expect(fieldErrorText(sized, 'de-DE')).toBe('Die Datei darf nicht größer als 2 MB sein (erhalten: 2,5 MB)');
    expect(fieldErrorText(sized, 'fr-FR')).toBe('Le fichier ne peut pas dépasser 2 MB (reçu : 2,5 MB)');
    expect(fieldErrorText({ ...tooLarge, Message: 'File cannot be larger than 2 MB (received 2.5 MB)', Params: { maxSize: '2 MB', size: '2.5 MB' } }, 'de-DE')).toBe(
      'Die Datei darf nicht größer als 2 MB sein (erhalten: 2.5 MB)',
    );
    expect(formatFormError(formError('fileTooLarge', 'domain_file_too_large', { maxSize: 512 * 1024, size: 600 * 1024 + 512 }), 'it-IT')).toBe(
      'Il file non può superare 512 KB (ricevuto: 600,5 KB)',
    );
  });

  it("keeps the server's words without a key this client knows", () => {
    expect(fieldErrorText({ Message: 'The request body is larger than 1 MB' }, 'de-DE')).toBe('The request body is larger than 1 MB');
    expect(fieldErrorText({ Message: 'Something new', MessageKey: 'domain_from_a_newer_server' }, 'de-DE')).toBe('Something new');
    // Only the domain catalogue: other exports of the message module are not message keys.
    expect(fieldErrorText({ Message: 'Menu', MessageKey: 'app_title' }, 'de-DE')).toBe('Menu');
  });

  it("keeps the server's words when this catalogue's English is not them (other inputs, a changed message)", () => {
    expect(fieldErrorText({ ...tooLarge, Params: { maxSize: '3 MB' } }, 'de-DE')).toBe(tooLarge.Message);
    expect(fieldErrorText({ ...tooLarge, Message: 'Files must be under 3 MB (this one is 4 MB)' }, 'de-DE')).toBe('Files must be under 3 MB (this one is 4 MB)');
  });

  it("keeps the server's words when an input is not text or a number", () => {
    expect(fieldErrorText({ ...tooLarge, Params: { maxSize: '3 MB', size: { bytes: 4 } } }, 'de-DE')).toBe(tooLarge.Message);
  });
});

describe.each(['de-DE', 'es-419', 'fr-FR', 'it-IT', 'pt-BR'] as const)('%s catalogue', (locale) => {
  const translated = catalogue(locale);

  it('has every domain message, with the same placeholders', () => {
    for (const key of keys) {
      expect(translated[key], key).toBeDefined();
      expect(placeholders(translated[key]!), key).toEqual(placeholders(en[key]!));
      for (const text of texts(translated[key]!)) expect(text, key).toBeTypeOf('string');
    }
  });

  it('translates a domain message (not equal to English)', () => {
    const english = formatFormError(formError('required', 'domain_name_required'), 'en-US');
    const local = formatFormError(formError('required', 'domain_name_required'), locale);
    expect(english).toBe('You must enter a name');
    expect(local).not.toBe(english);
    expect(domainMessage('domain_untitled_clip', {}, locale)).not.toBe('Untitled clip');
  });
});
