import { describe, expect, it } from 'vitest';
import { baseLocale, locales } from '../paraglide/runtime.js';
import { INTERFACE_LOCALES } from './locales.ts';

describe('interface languages', () => {
  it("the domain's list is the one Paraglide compiled, in the same order, the base locale first", () => {
    expect([...INTERFACE_LOCALES]).toEqual([...locales]);
    expect(INTERFACE_LOCALES[0]).toBe(baseLocale);
  });

  it('section 1 names six languages and the pseudo-locale', () => {
    expect(INTERFACE_LOCALES).toEqual(['en-US', 'de-DE', 'es-419', 'fr-FR', 'it-IT', 'pt-BR', 'en-XA']);
  });
});
