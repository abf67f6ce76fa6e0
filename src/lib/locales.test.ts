import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pseudoLocalize } from '../../scripts/pseudo-locale.ts';

const read = (locale: string) => JSON.parse(readFileSync(`locales/app/${locale}.json`, 'utf8')) as Record<string, string>;
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort();
const en = read('en-US');
const keys = Object.keys(en).filter((k) => k !== '$schema');

describe('app catalogues', () => {
  it('every app_ key is prefixed and has an English text', () => {
    for (const k of keys) {
      expect(k).toMatch(/^app_[a-z0-9_]+$/);
      expect(en[k]).not.toBe('');
    }
  });

  for (const locale of ['de-DE', 'es-419', 'fr-FR', 'it-IT', 'pt-BR']) {
    it(`${locale} translates every key with the same placeholders`, () => {
      const t = read(locale);
      expect(Object.keys(t).filter((k) => k !== '$schema').sort()).toEqual([...keys].sort());
      for (const k of keys) expect(placeholders(t[k]!), `${locale} ${k}`).toEqual(placeholders(en[k]!));
    });
  }

  it('de-DE is a real translation, not a copy of English', () => {
    const de = read('de-DE');
    const same = keys.filter((k) => de[k] === en[k]).length;
    expect(same / keys.length).toBeLessThan(0.15);
    expect(de['app_manage_audio']).toBe('Audio verwalten');
  });
});

describe('pseudo-locale (en-XA)', () => {
  it('accents letters, brackets the text and makes it about 30% longer', () => {
    const text = 'Unsaved changes';
    const out = pseudoLocalize(text);
    expect(out.startsWith('[') && out.endsWith(']')).toBe(true);
    expect(out).not.toMatch(/[a-zA-Z]{3}/);
    expect(out.length).toBeGreaterThanOrEqual(Math.ceil(text.length * 1.3));
  });

  it('keeps placeholders untouched', () => {
    expect(placeholders(pseudoLocalize('This {entity} has unsaved changes'))).toEqual(['entity']);
    expect(pseudoLocalize('Version: {version}')).toContain('{version}');
  });

  it('the generated en-XA catalogue covers every English key', () => {
    const xa = JSON.parse(readFileSync('locales/app/en-XA.json', 'utf8')) as Record<string, string>;
    for (const k of keys) expect(xa[k], k).toBe(pseudoLocalize(en[k]!));
  });
});
