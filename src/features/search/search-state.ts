// The search screen's state as the URL holds it (/{organizationId}/search?q=…): Back, reload and a
// shared link show the same search. One place reads and writes it; values the screen does not
// know (an old link, a hand-edited URL) read as their defaults.
import { defaultSort, SEARCH_FIELDS, SEARCH_SORTS, SEARCH_TYPES, type SearchField, type SearchSort, type SearchType } from '../../domain/search.ts';
import { parseIsoDate } from '../../domain/dates.ts';
import { isGuid } from '../../domain/validators.ts';
import { VISIBILITY_FILTERS } from '../../domain/list-filter.ts';

export type SearchState = {
  text: string;
  type: SearchType;
  /** Search-by fields; empty: all four. */
  fields: SearchField[];
  /** One visibility, or null for any. */
  visibility: string | null;
  /** One program, or null for all. */
  programId: string | null;
  /** Created on or after / on or before these local dates (YYYY-MM-DD). */
  from: string | null;
  to: string | null;
  /** The sort asked for; null: the default for the text (Relevance with words, else newest). */
  sort: SearchSort | null;
};

export const EMPTY_SEARCH: SearchState = { text: '', type: 'all', fields: [], visibility: null, programId: null, from: null, to: null, sort: null };

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | null => (v !== null && (values as readonly string[]).includes(v) ? (v as T) : null);
const date = (v: string | null) => (v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v) && parseIsoDate(v) !== null ? v : null);

export function readSearchState(search: string): SearchState {
  const p = new URLSearchParams(search);
  const fields = (p.get('by') ?? '').split(',').map((f) => oneOf(SEARCH_FIELDS, f)).filter((f): f is SearchField => f !== null);
  const program = p.get('program');
  return {
    text: p.get('q') ?? '',
    type: oneOf(SEARCH_TYPES, p.get('type')) ?? 'all',
    fields: SEARCH_FIELDS.filter((f) => fields.includes(f)),
    visibility: oneOf(VISIBILITY_FILTERS, p.get('vis')),
    programId: program !== null && isGuid(program) ? program.toLowerCase() : null,
    from: date(p.get('from')),
    to: date(p.get('to')),
    sort: oneOf(SEARCH_SORTS, p.get('sort')),
  };
}

export function searchStateQuery(state: SearchState): string {
  const p = new URLSearchParams();
  if (state.text) p.set('q', state.text);
  if (state.type !== 'all') p.set('type', state.type);
  if (state.fields.length > 0 && state.fields.length < SEARCH_FIELDS.length) p.set('by', state.fields.join(','));
  if (state.visibility) p.set('vis', state.visibility);
  if (state.programId) p.set('program', state.programId);
  if (state.from) p.set('from', state.from);
  if (state.to) p.set('to', state.to);
  if (state.sort) p.set('sort', state.sort);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The sort in effect. */
export function sortOf(state: SearchState): SearchSort {
  return state.sort ?? defaultSort(state.text);
}

/** How many of the filters behind "Filters" are set (shown on its summary). */
export function activeFilterCount(state: SearchState): number {
  return [state.fields.length > 0 && state.fields.length < SEARCH_FIELDS.length, state.visibility, state.programId, state.from, state.to].filter(Boolean).length;
}
