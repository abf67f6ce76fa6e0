import { describe, expect, it } from 'vitest';
import { activeFilterCount, EMPTY_SEARCH, readSearchState, searchStateQuery, sortOf } from './search-state.ts';
import { snippet } from './snippet.ts';
import { highlight } from '../../domain/search.ts';

const P_EN = '00000000-0000-4000-8000-000000000001';

describe('The search in the URL', () => {
  it('round-trips every part and reads unknown values as defaults', () => {
    const state = { text: 'mayor "city hall"', type: 'clip' as const, fields: ['Description' as const, 'Title' as const], visibility: 'Public', programId: P_EN, from: '2025-01-01', to: '2025-02-01', sort: 'DateOldest' as const };
    expect(readSearchState(searchStateQuery(state))).toEqual(state);
    expect(readSearchState('?type=podcast&by=Title,Nope&vis=Secret&program=x&from=2025-13-01&to=yesterday&sort=Random')).toEqual({ ...EMPTY_SEARCH, fields: ['Title'] });
    expect(searchStateQuery(EMPTY_SEARCH)).toBe('');
    expect(searchStateQuery({ ...EMPTY_SEARCH, fields: ['Annotations', 'Description', 'Title', 'Transcript'] })).toBe('');
  });

  it('the sort defaults to Relevance with words and to the newest without; filters are counted', () => {
    expect(sortOf({ ...EMPTY_SEARCH, text: 'mayor' })).toBe('Relevance');
    expect(sortOf(EMPTY_SEARCH)).toBe('DateNewest');
    expect(activeFilterCount({ ...EMPTY_SEARCH, fields: ['Title'], from: '2025-01-01', text: 'x' })).toBe(2);
  });
});

describe('Snippets', () => {
  it('a long text is cut at a word a little before its first match, with ellipses', () => {
    const text = `${'word '.repeat(60)}the mayor spoke ${'more '.repeat(60)}`;
    const cut = snippet(highlight(text, 'mayor', 'english'), 100);
    const shown = cut.map((s) => s.text).join('');
    expect(shown.startsWith('…word')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(cut.filter((s) => s.match).map((s) => s.text)).toEqual(['mayor']);
    expect(snippet(highlight('short text', 'mayor', 'english'))).toEqual([{ text: 'short text', match: false }]);
  });
});
