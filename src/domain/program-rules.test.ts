import { describe, expect, it } from 'vitest';
import { normaliseProgramPatch, programFieldErrors, programPodcast, type ProgramReference } from './program-rules.ts';

const REFERENCE: ProgramReference = {
  languages: [{ Code: 'en' }, { Code: 'de' }],
  categories: [
    { Id: 'news', Subcategories: [{ Id: 'news.politics' }] },
    { Id: 'history', Subcategories: [] },
  ],
};
const types = (errors: Record<string, { type: string }>) => Object.fromEntries(Object.entries(errors).map(([f, e]) => [f, e.type]));

describe('program podcast fields', () => {
  it('reads absent fields of an old row as null, false and []', () => {
    expect(programPodcast({ Name: 'Old' })).toMatchObject({ Author: null, Explicit: false, Locked: false, Persons: [], ItunesType: null });
    expect(programPodcast({ Explicit: true, Language: 'de' })).toMatchObject({ Explicit: true, Language: 'de' });
  });

  it('normalises texts: trimmed, empty is none, the language code in lower case', () => {
    expect(normaliseProgramPatch({ Author: '  Ada ', Copyright: ' ', Language: 'EN', Persons: [{ Name: ' Bo ', Role: 'guest ', Href: '' }] })).toEqual({
      Author: 'Ada',
      Copyright: null,
      Language: 'en',
      Persons: [{ Name: 'Bo', Role: 'guest', Href: null }],
    });
  });

  it('accepts a complete valid change and nothing at all', () => {
    expect(programFieldErrors({}, {}, REFERENCE)).toEqual({});
    const ok = normaliseProgramPatch({ OwnerEmail: 'a@example.com', Language: 'de', Category: 'news', Subcategory: 'news.politics', FundingUrl: 'https://x.example/give', FundingText: 'Give', Link: 'https://x.example' });
    expect(programFieldErrors({}, ok, REFERENCE)).toEqual({});
  });

  it('refuses the e-mail, URLs, reference values and persons with section 5 types', () => {
    const errors = programFieldErrors(
      {},
      { OwnerEmail: 'nope', Link: 'ftp://x.example', Language: 'xx', Category: 'nope', FundingText: 'Give', Persons: [{ Name: '', Role: '', Href: 'not a url' }] },
      REFERENCE,
    );
    expect(types(errors)).toEqual({
      OwnerEmail: 'emailInvalid',
      Link: 'urlInvalid',
      Language: 'invalid',
      Category: 'invalid',
      FundingUrl: 'required',
      'Persons[0].Name': 'required',
      'Persons[0].Role': 'required',
      'Persons[0].Href': 'urlInvalid',
    });
  });

  it('judges a subcategory against the category the program will have', () => {
    expect(types(programFieldErrors({}, { Subcategory: 'news.politics' }, REFERENCE))).toEqual({ Category: 'required' });
    expect(types(programFieldErrors({ Category: 'history' }, { Subcategory: 'news.politics' }, REFERENCE))).toEqual({ Subcategory: 'invalid' });
    expect(programFieldErrors({ Category: 'news' }, { Subcategory: 'news.politics' }, REFERENCE)).toEqual({});
    // Clearing the category while a subcategory stays is refused too.
    expect(types(programFieldErrors({ Category: 'news', Subcategory: 'news.politics' }, { Category: null }, REFERENCE))).toEqual({ Category: 'required' });
  });

  it('leaves membership to the server when the device has no reference lists', () => {
    expect(programFieldErrors({}, { Language: 'xx', Category: 'nope' }, { languages: null, categories: null })).toEqual({});
  });
});
