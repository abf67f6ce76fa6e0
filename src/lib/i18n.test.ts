import { describe, expect, it } from 'vitest';
import { isLocale, resolveLocale } from './i18n.ts';

describe('interface language codes (section 1)', () => {
  it.each([
    ['en', 'en-US'],
    ['pseudo', 'en-XA'],
    ['de-DE', 'de-DE'],
    ['es-419', 'es-419'],
    ['de', 'de-DE'],
    ['pt-PT', 'pt-BR'],
    ['fr-CA', 'fr-FR'],
    ['en-GB', 'en-US'],
    ['ja-JP', 'en-US'],
    [null, 'en-US'],
    ['', 'en-US'],
  ])('%s → %s', (code, locale) => expect(resolveLocale(code)).toBe(locale));

  it('knows the seven locales', () => {
    expect(isLocale('it-IT')).toBe(true);
    expect(isLocale('it')).toBe(false);
  });
});
