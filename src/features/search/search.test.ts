import { describe, expect, it } from 'vitest';
import { localDayStart, searchDeviceRows, type DeviceRows, type Row, type SearchRequest } from './device-search.ts';
import { activeFilterCount, EMPTY_SEARCH, readSearchState, searchStateQuery, sortOf } from './search-state.ts';
import { snippet } from './snippet.ts';
import { highlight } from '../../domain/search.ts';

const P_EN = '00000000-0000-4000-8000-000000000001';
const P_DE = '00000000-0000-4000-8000-000000000002';
const P_GONE = '00000000-0000-4000-8000-000000000003';

const program = (Id: string, Name: string, Language: string, Deleted = false): Row => ({ Id, Name, Language, Description: null, Deleted, CreatedAtUtc: '2025-01-01T00:00:00.000Z', ModifiedAtUtc: '2025-01-01T00:00:00.000Z' });
const clip = (Id: string, ProgramId: string, fields: Record<string, unknown>): Row => ({
  Id,
  ProgramId,
  Title: null,
  Description: null,
  Tags: [],
  Season: null,
  Episode: null,
  Visibility: 'Public',
  Deleted: false,
  CreatedAtUtc: '2025-03-01T12:00:00.000Z',
  ModifiedAtUtc: '2025-03-01T12:00:00.000Z',
  ...fields,
});

const programs = [program(P_EN, 'City Desk', 'en'), program(P_DE, 'Stadtgespräch', 'de'), program(P_GONE, 'Old show', 'en', true)];
const data: DeviceRows = {
  rows: {
    clip: [
      clip('c1', P_EN, { Title: 'Budget night', Description: 'The mayor presents the budget.', CreatedAtUtc: '2025-03-01T10:00:00.000Z' }),
      clip('c2', P_EN, { Title: 'Mayors of the region', Description: 'A talk.', Tags: ['politics'], Season: 10, Episode: 3, Visibility: 'Private', CreatedAtUtc: '2025-03-02T23:30:00.000Z' }),
      clip('c3', P_DE, { Title: 'Die Bürgermeisterin', Description: 'Gespräche über Häuser und Straßen.', CreatedAtUtc: '2025-03-03T10:00:00.000Z' }),
      clip('c4', P_GONE, { Title: 'The mayor, archived', CreatedAtUtc: '2025-03-04T10:00:00.000Z' }),
      clip('c5', P_EN, { Title: 'The mayor, deleted', Deleted: true }),
    ],
    playlist: [],
    recording: [{ Id: 'r1', ProgramId: P_EN, Title: 'Morning', Description: null, Deleted: false, CreatedAtUtc: '2025-03-01T06:00:00.000Z', ModifiedAtUtc: '2025-03-01T06:00:00.000Z' }],
    program: programs,
  },
  programs: new Map(programs.map((p) => [p.Id, p])),
  annotations: new Map([['r1', [{ Id: 'a1', RecordingId: 'r1', OffsetSeconds: 12, Text: 'Listener call about the mayor', Deleted: false, ModifiedAtUtc: '2025-03-01T06:00:00.000Z' }]]]),
};

const req = (fields: Partial<SearchRequest>): SearchRequest => ({ kind: 'clip', text: '', fields: [], visibility: null, programId: null, from: null, to: null, sort: 'DateNewest', page: 1, pageSize: 20, timeZone: 'UTC', ...fields });
const ids = (r: SearchRequest) => searchDeviceRows(r, data).hits.map((h) => h.row.Id);

describe('Search on this device', () => {
  it('matches by the shared rule, stems in the program language, and leaves out deleted rows and programs', () => {
    expect(ids(req({ text: 'mayor' }))).toEqual(['c2', 'c1']);
    expect(ids(req({ text: 'haus' }))).toEqual(['c3']);
    expect(ids(req({ text: 'S10E3' }))).toEqual(['c2']);
    expect(ids(req({ text: 'politics' }))).toEqual(['c2']);
    expect(ids(req({ kind: 'recording', text: 'listener' }))).toEqual(['r1']);
    expect(ids(req({ kind: 'program', text: 'stadtgespräch' }))).toEqual([P_DE]);
  });

  it('search-by fields, visibility and program narrow the matches', () => {
    expect(ids(req({ text: 'mayor', fields: ['Title'] }))).toEqual(['c2']);
    expect(ids(req({ text: 'mayor', fields: ['Description'] }))).toEqual(['c1']);
    expect(ids(req({ text: 'mayor', visibility: 'Public' }))).toEqual(['c1']);
    expect(ids(req({ programId: P_DE }))).toEqual(['c3']);
    expect(ids(req({ kind: 'recording', text: 'listener', fields: ['Title'] }))).toEqual([]);
  });

  it('created dates are whole local days in the time zone', () => {
    expect(localDayStart('2025-03-02', 'Europe/Berlin')).toBe('2025-03-01T23:00:00.000Z');
    expect(localDayStart('2025-03-02', 'UTC', 1)).toBe('2025-03-03T00:00:00.000Z');
    expect(ids(req({ from: '2025-03-02', to: '2025-03-02' }))).toEqual(['c2']);
    // 23:30 UTC on the 2nd is the 3rd in Berlin.
    expect(ids(req({ from: '2025-03-03', to: '2025-03-03', timeZone: 'Europe/Berlin' }))).toEqual(['c3', 'c2']);
  });

  it('sorts newest, oldest or by relevance (the weights of the fields that match), and pages', () => {
    expect(ids(req({ sort: 'DateOldest' }))).toEqual(['c1', 'c2', 'c3']);
    expect(ids(req({ text: 'mayor', sort: 'Relevance' }))).toEqual(['c2', 'c1']);
    // Budget in the title and the description outranks region in the title only.
    expect(ids(req({ text: 'budget OR region', sort: 'Relevance' }))).toEqual(['c1', 'c2']);
    const first = searchDeviceRows(req({ pageSize: 2 }), data);
    expect([first.hits.map((h) => h.row.Id), first.hasNext, first.page]).toEqual([['c3', 'c2'], true, 1]);
    const second = searchDeviceRows(req({ pageSize: 2, page: 2 }), data);
    expect([second.hits.map((h) => h.row.Id), second.hasNext]).toEqual([['c1'], false]);
  });
});

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
