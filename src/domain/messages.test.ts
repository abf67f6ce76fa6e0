import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { domainMessage, formatFormError } from './messages.ts';
import { FormErrorType, formError, type DomainMessageKey } from './form-errors.ts';
import * as compiled from '../paraglide/messages/_index.js';

const catalogue = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../locales/domain/${locale}.json`, import.meta.url), 'utf8')) as Record<string, string>;
const en = catalogue('en-US');
const keys = Object.keys(en).filter((k) => k !== '$schema') as DomainMessageKey[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

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

describe.each(['de-DE', 'es-419', 'fr-FR', 'it-IT', 'pt-BR'] as const)('%s catalogue', (locale) => {
  const translated = catalogue(locale);

  it('has every domain message, with the same placeholders', () => {
    for (const key of keys) {
      expect(translated[key], key).toBeTypeOf('string');
      expect(placeholders(translated[key]!), key).toEqual(placeholders(en[key]!));
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
