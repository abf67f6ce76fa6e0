// The message catalogues of every area under locales/ (app, domain, media, account, and any area
// added later): each translated locale has exactly the base locale's keys, no empty text, and the
// same {placeholders} as en-US in every text; en-XA is what the generator makes from en-US.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pseudoLocalize, pseudoValue } from '../../scripts/pseudo-locale.ts';

type Settings = { baseLocale: string; locales: string[]; 'plugin.inlang.messageFormat': { pathPattern: string[] } };
/** A message: a text, or inlang variants (declarations, selectors and a text per match key). */
type Variants = { declarations: string[]; selectors: string[]; match: Record<string, string> }[];
type Catalogue = Record<string, string | Variants>;

const settings = JSON.parse(readFileSync('project.inlang/settings.json', 'utf8')) as Settings;
const BASE = settings.baseLocale;
const PSEUDO = 'en-XA';
const TRANSLATED = settings.locales.filter((l) => l !== BASE && l !== PSEUDO);
const AREAS = readdirSync('locales', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

const read = (area: string, locale: string) => JSON.parse(readFileSync(`locales/${area}/${locale}.json`, 'utf8')) as Catalogue;
const keysOf = (c: Catalogue) => Object.keys(c).filter((k) => k !== '$schema');
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort();
/** Every text of a message by variant ('' for a plain text), to compare locale with locale. */
function texts(message: string | Variants | undefined): Map<string, string> {
  if (typeof message === 'string') return new Map([['', message]]);
  return new Map((message ?? []).flatMap((v, i) => Object.entries(v.match).map(([when, text]) => [`${i}:${when}`, text] as const)));
}
/** The variants' shape without their texts: what a translation must keep. */
const shape = (message: string | Variants | undefined) => (typeof message === 'string' ? 'text' : (message ?? []).map((v) => ({ declarations: v.declarations, selectors: v.selectors })));

it('finds the areas, and Paraglide compiles each of them', () => {
  expect(AREAS).toEqual(expect.arrayContaining(['account', 'app', 'domain', 'media']));
  for (const area of AREAS) expect(settings['plugin.inlang.messageFormat'].pathPattern, area).toContain(`./locales/${area}/{locale}.json`);
  expect(TRANSLATED).toEqual(['de-DE', 'es-419', 'fr-FR', 'it-IT', 'pt-BR']);
});

for (const area of AREAS) {
  describe(`${area} catalogues`, () => {
    const en = read(area, BASE);
    const keys = keysOf(en);

    it(`every key is prefixed ${area}_ and has an English text`, () => {
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) {
        expect(k).toMatch(new RegExp(`^${area}_[a-z0-9_]+$`));
        for (const text of texts(en[k]).values()) expect(text.trim(), k).not.toBe('');
      }
    });

    for (const locale of TRANSLATED) {
      it(`${locale} translates every key, with no empty text and the same placeholders`, () => {
        const t = read(area, locale);
        expect(keysOf(t).sort()).toEqual([...keys].sort());
        for (const k of keys) {
          expect(shape(t[k]), `${locale} ${k}`).toEqual(shape(en[k]));
          const theirs = texts(t[k]);
          const ours = texts(en[k]);
          // A translation may need more plural forms than English ('many'); none may go missing.
          for (const variant of ours.keys()) expect(theirs.has(variant), `${locale} ${k} ${variant}`).toBe(true);
          for (const [variant, text] of theirs) {
            const english = ours.get(variant) ?? ours.get(variant.replace(/=[^=]*$/, '=*'));
            expect(text.trim(), `${locale} ${k} ${variant}`).not.toBe('');
            expect(placeholders(text), `${locale} ${k} ${variant}`).toEqual(placeholders(english ?? ''));
          }
        }
      });
    }

    it('the generated en-XA catalogue is the pseudo-localised English of every key', () => {
      const xa = read(area, PSEUDO);
      expect(keysOf(xa).sort()).toEqual([...keys].sort());
      for (const k of keys) expect(xa[k], k).toEqual(pseudoValue(en[k]));
    });
  });
}

describe('translations', () => {
  const all = AREAS.flatMap((area) => {
    const en = read(area, BASE);
    return keysOf(en).map((k) => ({ area, k, english: JSON.stringify(en[k]) }));
  });
  for (const locale of TRANSLATED) {
    it(`${locale} is a real translation, not a copy of English`, () => {
      const catalogues = new Map(AREAS.map((area) => [area, read(area, locale)]));
      const same = all.filter(({ area, k, english }) => JSON.stringify(catalogues.get(area)?.[k]) === english).length;
      expect(same / all.length).toBeLessThan(0.15);
    });
  }

  it('de-DE says Audio verwalten', () => {
    expect(read('app', 'de-DE')['app_manage_audio']).toBe('Audio verwalten');
  });
});

describe('plural forms', () => {
  // A count is worded by the catalogue's plural variants (Intl.PluralRules of the locale), never by
  // a separate "_one" message chosen with count === 1: French and Portuguese put 0 in the singular.
  it('no message has a separate _one form beside its plural', () => {
    const pairs = AREAS.flatMap((area) => {
      const keys = new Set(keysOf(read(area, BASE)));
      return [...keys].filter((k) => k.endsWith('_one') && keys.has(k.slice(0, -'_one'.length)));
    });
    expect(pairs).toEqual([]);
  });

  it('0 is singular in French and Portuguese, plural in English, German, Spanish and Italian', async () => {
    const { app_program_clip_count, app_logout_unsent } = await import('../paraglide/messages.js');
    const clips = (locale: 'en-US' | 'de-DE' | 'es-419' | 'fr-FR' | 'it-IT' | 'pt-BR', count: number) => app_program_clip_count({ count, countText: String(count) }, { locale });
    expect(clips('fr-FR', 0)).toBe('0 clip');
    expect(clips('fr-FR', 1)).toBe('1 clip');
    expect(clips('fr-FR', 2)).toBe('2 clips');
    expect(clips('pt-BR', 0)).toBe('0 clipe');
    expect(clips('pt-BR', 2)).toBe('2 clipes');
    expect(clips('en-US', 0)).toBe('0 clips');
    expect(clips('en-US', 1)).toBe('1 clip');
    expect(clips('de-DE', 0)).toBe('0 Clips');
    expect(app_logout_unsent({ count: 1 }, { locale: 'en-US' })).toMatch(/^1 change on this device has not/);
    expect(app_logout_unsent({ count: 3 }, { locale: 'fr-FR' })).toMatch(/^3 modifications sur cet appareil n'ont pas/);
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
});
