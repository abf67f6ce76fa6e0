import { describe, expect, it } from 'vitest';
import { pageLocale, pageWords } from './page-words.ts';

describe('the public pages’ words', () => {
  it('pick the studio locale of the program’s language, English for one it has none of or none at all', () => {
    expect(pageLocale('de')).toBe('de-DE');
    expect(pageLocale('pt-br')).toBe('pt-BR');
    expect(pageLocale('es')).toBe('es-419');
    expect(pageLocale('nl')).toBe('en-US');
    expect(pageLocale(null)).toBe('en-US');
    expect(pageLocale('')).toBe('en-US');
  });

  it('say the page’s lang as the program gives it, English when it gives none or no language tag', () => {
    expect(pageWords('fr').lang).toBe('fr');
    expect(pageWords('fr').episodes).toBe('Épisodes');
    expect(pageWords('fr').allEpisodes('Radio')).toBe('Tous les épisodes de Radio');
    expect(pageWords(null).lang).toBe('en');
    expect(pageWords('not a tag!').lang).toBe('en');
    expect(pageWords('it').listen('Uno')).toBe('Ascolta: Uno');
    expect(pageWords('de').date.format(Date.UTC(2026, 4, 1))).toBe('01.05.2026');
  });
});
