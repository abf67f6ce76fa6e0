import { describe, expect, it } from 'vitest';
import {
  analyzeDocument,
  compileQuery,
  documentMatches,
  highlight,
  lexemeOf,
  parseQuery,
  searchableFields,
  searchLanguageOf,
  searchTypesFor,
  SEARCH_TYPES,
  trigramSimilarity,
  validateSearchDate,
  validateSearchDateRange,
  type SearchableFields,
} from './search.ts';
import type { PermissionEntry } from './permissions.ts';

const fields = (Title: string, Description = '', Annotations = '', Transcript = ''): SearchableFields => ({ Title, Description, Annotations, Transcript });

describe('types (sections 2 and 6)', () => {
  const flags = { HasAnalyticsAccess: false, HasAuditAccess: false, HasContentAccess: false, HasCreateProgramAccess: false, HasManageOrganizationSettingsAccess: false, HasManageSettingsAccess: false, HasManageUserAccess: false };
  const entry = (more: Partial<typeof flags>): PermissionEntry => ({ ObjectId: 'c3a1f0e2-0000-4000-8000-000000000001', ObjectType: 'Program', Permissions: { ...flags, ...more } }) as PermissionEntry;

  it('starts with all; content access gives clips, programs and playlists, recordings for broadcasters', () => {
    expect(SEARCH_TYPES[0]).toBe('all');
    expect(searchTypesFor([entry({ HasContentAccess: true })], { Provider: 'Podcaster' })).toEqual(['all', 'clip', 'program', 'playlist']);
    expect(searchTypesFor([entry({ HasContentAccess: true })], { Provider: 'Broadcaster' })).toEqual(['all', 'clip', 'program', 'playlist', 'recording']);
    expect(searchTypesFor([entry({ HasAnalyticsAccess: true })], { Provider: 'Broadcaster' })).toEqual(['all', 'program']);
  });

  it('picks the configuration from the program language', () => {
    expect(searchLanguageOf('en-us')).toBe('english');
    expect(searchLanguageOf('de')).toBe('german');
    expect(searchLanguageOf('DE-AT')).toBe('german');
    expect(searchLanguageOf('fr')).toBe('simple');
    expect(searchLanguageOf(null)).toBe('simple');
  });
});

describe('parseQuery (websearch_to_tsquery syntax)', () => {
  it('ANDs words, keeps phrases, excludes with minus, ORs loosest', () => {
    const q = parseQuery('mayor "city hall" -budget or council');
    expect(q.groups).toHaveLength(2);
    expect(q.groups[0]!.must.map((o) => o.text)).toEqual(['mayor', '"city hall"']);
    expect(q.groups[0]!.not.map((o) => o.text)).toEqual(['budget']);
    expect(q.groups[1]!.must.map((o) => o.text)).toEqual(['council']);
  });
  it('ignores stray OR and minus, and runs an unclosed quote to the end', () => {
    expect(parseQuery('or mayor or').groups.map((g) => g.must.map((o) => o.text))).toEqual([['mayor']]);
    expect(parseQuery('mayor -').groups[0]!.not).toEqual([]);
    expect(parseQuery('"unclosed quote').groups[0]!.must[0]!.words).toEqual(['unclosed', 'quote']);
    expect(parseQuery('   ').groups).toEqual([]);
  });
  it('makes a word with inner punctuation a phrase, as PostgreSQL does', () => {
    expect(parseQuery('mayor--city').groups[0]!.must[0]!.words).toEqual(['mayor', 'city']);
  });
});

describe('the match', () => {
  it('stems English and German and drops stop words', () => {
    expect(lexemeOf('elections', 'english')).toBe('elect');
    expect(lexemeOf('the', 'english')).toBeNull();
    expect(lexemeOf('häuser', 'german')).toBe('haus');
    expect(lexemeOf('the', 'simple')).toBe('the');
    expect(documentMatches('election', fields('Elections in the city'), 'english')).toBe(true);
    expect(documentMatches('Wahl', fields('Die Wahlen in der Stadt'), 'german')).toBe(true);
    expect(documentMatches('"Wahl"', fields('Die Wahlen in der Stadt'), 'german')).toBe(true);
    expect(documentMatches('"Wahl"', fields('Die Wahlen in der Stadt'), 'simple')).toBe(false);
  });

  it('matches phrases by position, stop words counted', () => {
    const doc = fields('The mayor of London speaks', 'London mayor race');
    expect(documentMatches('"mayor of london"', doc, 'english')).toBe(true);
    expect(documentMatches('"london mayor"', doc, 'english')).toBe(true);
    expect(documentMatches('"mayor london"', doc, 'english')).toBe(false);
  });

  it('excludes, ORs, and restricts to fields', () => {
    const doc = fields('Mayor interview', 'About the budget', 'cold open');
    expect(documentMatches('mayor -budget', doc, 'english')).toBe(false);
    expect(documentMatches('mayor -budget or cold', doc, 'english')).toBe(true);
    expect(documentMatches('budget', doc, 'english', { fields: ['Title'] })).toBe(false);
    expect(documentMatches('budget', doc, 'english', { fields: ['Description'] })).toBe(true);
    expect(documentMatches('cold', doc, 'english', { fields: ['Annotations'] })).toBe(true);
  });

  it('finds typos and partial words by pg_trgm similarity, but not in quotes', () => {
    expect(trigramSimilarity('goverment', 'government')).toBeCloseTo(0.61538464, 6);
    expect(trigramSimilarity('mayr', 'mayor')).toBeCloseTo(0.375, 6);
    const doc = fields('Government shutdown explained');
    expect(documentMatches('goverment', doc, 'english')).toBe(true);
    expect(documentMatches('"goverment"', doc, 'english')).toBe(false);
    expect(documentMatches('-goverment', doc, 'english')).toBe(true); // an exclusion is exact
  });

  it('matches nothing for a query of stop words, everything for a blank one', () => {
    expect(documentMatches('the of', fields('The mayor'), 'english')).toBe(false);
    expect(documentMatches('', fields('The mayor'), 'english')).toBe(true);
    expect(compileQuery('the', 'english').empty).toBe(true);
  });

  it('makes season and episode labels, tags and annotations searchable', () => {
    const clip = searchableFields('clip', { Title: 'Weekly news', Tags: ['politics', 'Berlin'], Season: 10, Episode: 3, Description: 'x' });
    expect(clip.Title).toBe('Weekly news politics Berlin S10 E3 S10E3');
    expect(documentMatches('s10', clip, 'english')).toBe(true);
    expect(documentMatches('S10E3', clip, 'english')).toBe(true);
    const rec = searchableFields('recording', { Title: 'Morning show' }, { annotations: [{ Id: 'b', OffsetSeconds: 20, Text: 'traffic' }, { Id: 'a', OffsetSeconds: 5, Text: 'weather' }] });
    expect(rec.Annotations).toBe('weather traffic');
    expect(analyzeDocument(rec, 'english').lexemes.get('traffic')).toEqual([{ pos: 4, field: 'Annotations' }]);
  });

  it('highlights matching words', () => {
    expect(highlight('The Elections today', 'election', 'english')).toEqual([
      { text: 'The ', match: false },
      { text: 'Elections', match: true },
      { text: ' today', match: false },
    ]);
    expect(highlight('nothing here', 'election', 'english')).toEqual([{ text: 'nothing here', match: false }]);
  });

  it('checks created dates', () => {
    expect(validateSearchDate('2025-02-30')?.type).toBe('dateInvalid');
    expect(validateSearchDate('2025-02-28')).toBeNull();
    expect(validateSearchDateRange('2025-03-01', '2025-02-01')?.type).toBe('reversed');
  });
});
