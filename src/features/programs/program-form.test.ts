import { describe, expect, it } from 'vitest';
import type { Program } from '../../protocol/entities.ts';
import { programFormErrors, toFormValues, toPatch } from './program-form.ts';

const program = {
  Id: 'p1',
  Name: 'Book Club',
  Slug: 'book-club',
  NetworkId: null,
  Description: null,
  Category: 'news',
  Subcategory: 'news.politics',
} as unknown as Program;
const REFERENCE = { languages: [{ Code: 'de' }], categories: [{ Id: 'news', Subcategories: [{ Id: 'news.politics' }] }, { Id: 'history', Subcategories: [] }] };
const types = (e: Record<string, { type: string }>) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v.type]));

describe('program settings form', () => {
  it('shows a row made before the podcast fields with empty values', () => {
    expect(toFormValues(program)).toMatchObject({ Name: 'Book Club', NetworkId: '', Author: '', Explicit: false, Persons: [], Category: 'news' });
  });

  it('saves only what changed, empty text as none, and clears the subcategory with a new category', () => {
    expect(toPatch({ Author: '  ', Category: 'history' })).toEqual({ Author: null, Category: 'history', Subcategory: null });
    expect(toPatch({ NetworkId: 'n1', Persons: [{ Name: ' Ada ', Role: 'host', Href: '' }] })).toEqual({ NetworkId: 'n1', Persons: [{ Name: 'Ada', Role: 'host', Href: null }] });
  });

  it('refuses a missing name, a slug another program holds here, and the podcast rules before queueing', () => {
    const taken = (slug: string) => slug === 'film-club';
    expect(types(programFormErrors(program, toPatch({ Name: ' ', Slug: 'film-club', OwnerEmail: 'x' }), REFERENCE, taken))).toEqual({ Name: 'required', Slug: 'invalid', OwnerEmail: 'emailInvalid' });
    // A saved slug cannot be cleared (section 5); the program's own slug is not "taken".
    expect(types(programFormErrors(program, toPatch({ Slug: '' }), REFERENCE, taken))).toEqual({ Slug: 'required' });
    expect(programFormErrors(program, toPatch({ Slug: 'book-club', Language: 'de' }), REFERENCE, () => true)).toEqual({});
    // A new program needs its name whatever else it has.
    expect(types(programFormErrors(null, { Slug: null }, REFERENCE, taken))).toEqual({ Name: 'required' });
  });
});
