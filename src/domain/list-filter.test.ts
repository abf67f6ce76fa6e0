import { describe, expect, it } from 'vitest';
import {
  applyListQuery,
  EMPTY_LIST_QUERY,
  foldText,
  isFiltered,
  listSort,
  parseNeedles,
  prepareClips,
  preparePlaylists,
  prepareRecordings,
  readListQuery,
  seasonEpisodeTokens,
  writeListQuery,
  type ListQuery,
} from './list-filter.ts';

type TestClip = { Id: string; Title: string | null; Description: string | null; Tags: string[]; Season: number | null; Episode: number | null; CreatedAtUtc: string; State: string; PublishState: string; Visibility: string };

let n = 0;
function clip(fields: Partial<TestClip>): TestClip {
  n += 1;
  return { Id: `c${String(n).padStart(3, '0')}`, Title: `Clip ${n}`, Description: null, Tags: [], Season: null, Episode: null, CreatedAtUtc: `2026-01-${String(n).padStart(2, '0')}T00:00:00.000Z`, State: 'Ready', PublishState: 'Published', Visibility: 'Public', ...fields };
}

const q = (fields: Partial<ListQuery>): ListQuery => ({ ...EMPTY_LIST_QUERY, ...fields });
const titles = (rows: Array<{ Title: string | null }>) => rows.map((r) => r.Title);

const mayor = clip({ Title: 'Town hall', Description: 'The Mayor answers listeners.', Tags: ['politics'], Season: 10, Episode: 3 });
const rueckblick = clip({ Title: 'Rückblick', Description: null, Tags: ['Jahresende'], Season: 1, Episode: 12, State: 'Draft', PublishState: 'Unpublished', Visibility: 'Private' });
const untitled = clip({ Title: null, Description: 'Raw tape', Season: 10, Episode: null, State: 'Processing', PublishState: 'Unpublished', Visibility: 'Private' });
const review9 = clip({ Title: 'Review 9', Season: null, Episode: 7, State: 'Warning', PublishState: 'Publishing', Visibility: 'Unlisted' });
const review10 = clip({ Title: 'Review 10', Season: 1, Episode: 2, State: 'Error', Visibility: 'Restricted' });
const clips = prepareClips([mayor, rueckblick, untitled, review9, review10], 'en-US');

describe('The program list filter: what matches', () => {
  it('a word of the description, a tag and a part of a word all match, in any case', () => {
    expect(titles(applyListQuery(clips, q({ text: 'mayor' }), 'clips'))).toEqual(['Town hall']);
    expect(titles(applyListQuery(clips, q({ text: 'POLITICS' }), 'clips'))).toEqual(['Town hall']);
    expect(titles(applyListQuery(clips, q({ text: '#jahres' }), 'clips'))).toEqual(['Rückblick']);
    expect(titles(applyListQuery(clips, q({ text: 'answer listen' }), 'clips'))).toEqual(['Town hall']);
  });

  it('accents and ß are folded on both sides', () => {
    expect(foldText('Rückblick STRAßE Éa')).toBe('ruckblick strasse ea');
    expect(titles(applyListQuery(clips, q({ text: 'ruckblick' }), 'clips'))).toEqual(['Rückblick']);
    expect(titles(applyListQuery(clips, q({ text: 'RÜCK' }), 'clips'))).toEqual(['Rückblick']);
  });

  it('season and episode labels: S10, E3, S10E3 and S10/E3 find their clips, and S1 is not S10', () => {
    expect(titles(applyListQuery(clips, q({ text: 'S10' }), 'clips'))).toEqual([null, 'Town hall']);
    expect(titles(applyListQuery(clips, q({ text: 'e3' }), 'clips'))).toEqual(['Town hall']);
    expect(titles(applyListQuery(clips, q({ text: 'S10E3' }), 'clips'))).toEqual(['Town hall']);
    expect(titles(applyListQuery(clips, q({ text: 's10/e3' }), 'clips'))).toEqual(['Town hall']);
    expect(titles(applyListQuery(clips, q({ text: 'S1' }), 'clips'))).toEqual(['Review 10', 'Rückblick']);
    expect(titles(applyListQuery(clips, q({ text: 'S10 E3' }), 'clips'))).toEqual(['Town hall']);
  });

  it("the interface language's own label counts too (German F for Folge)", () => {
    expect(seasonEpisodeTokens(10, 3, 'de-DE')).toEqual(expect.arrayContaining(['s10', 'e3', 's10e3', 's10/e3', 's10/f3', 's10f3', 'f3']));
    expect(seasonEpisodeTokens(null, 3, 'es-419')).toEqual(['e3', 'e3', 'e3', 'e3']);
    expect(seasonEpisodeTokens(null, null)).toEqual([]);
    const german = prepareClips([mayor], 'de-DE');
    expect(titles(applyListQuery(german, q({ text: 'F3' }), 'clips'))).toEqual(['Town hall']);
  });

  it('"quoted phrases" must appear whole and -words must not', () => {
    expect(parseNeedles('"the mayor"  -raw #tag "unclosed')).toEqual({ include: ['the mayor', 'tag', 'unclosed'], exclude: ['raw'] });
    expect(parseNeedles(' - "" # ')).toEqual({ include: [], exclude: [] });
    expect(titles(applyListQuery(clips, q({ text: '"the mayor"' }), 'clips'))).toEqual(['Town hall']);
    expect(titles(applyListQuery(clips, q({ text: '"mayor the"' }), 'clips'))).toEqual([]);
    expect(titles(applyListQuery(clips, q({ text: 'review -S1' }), 'clips'))).toEqual(['Review 9']);
  });

  it('State (as shown), PublishState and Visibility narrow the list, and values of another list are ignored', () => {
    expect(titles(applyListQuery(clips, q({ state: 'ready' }), 'clips'))).toEqual(['Review 9', 'Town hall']);
    expect(titles(applyListQuery(clips, q({ state: 'ingesting' }), 'clips'))).toEqual([null]);
    expect(titles(applyListQuery(clips, q({ publish: 'Unpublished', visibility: 'Private' }), 'clips'))).toEqual([null, 'Rückblick']);
    expect(titles(applyListQuery(clips, q({ visibility: 'Restricted', text: 'review' }), 'clips'))).toEqual(['Review 10']);
    expect(applyListQuery(clips, q({ state: 'Finalized', publish: 'Sideways', sort: 'nonsense' }), 'clips')).toHaveLength(5);
    expect(isFiltered(q({ state: 'Finalized' }), 'clips')).toBe(false);
    expect(isFiltered(q({ state: 'Finalized' }), 'recordings')).toBe(true);
    expect(isFiltered(q({ text: '  ' }), 'clips')).toBe(false);
    expect(isFiltered(q({ publish: 'Published' }), 'playlists')).toBe(false);
    expect(isFiltered(q({ visibility: 'Public' }), 'playlists')).toBe(true);
    expect(isFiltered(q({ visibility: 'Public' }), 'recordings')).toBe(false);
  });
});

describe('The program list filter: order', () => {
  it('clips are newest first unless asked; oldest reverses it', () => {
    expect(listSort(EMPTY_LIST_QUERY, 'clips')).toBe('newest');
    expect(titles(applyListQuery(clips, EMPTY_LIST_QUERY, 'clips'))).toEqual(['Review 10', 'Review 9', null, 'Rückblick', 'Town hall']);
    expect(titles(applyListQuery(clips, q({ sort: 'oldest' }), 'clips'))).toEqual(['Town hall', 'Rückblick', null, 'Review 9', 'Review 10']);
  });

  it('title order reads numbers as numbers and puts untitled clips last', () => {
    expect(titles(applyListQuery(clips, q({ sort: 'title' }), 'clips', 'en-US'))).toEqual(['Review 9', 'Review 10', 'Rückblick', 'Town hall', null]);
  });

  it('episode order: season, then episode, first to last; missing numbers after', () => {
    expect(titles(applyListQuery(clips, q({ sort: 'episode' }), 'clips'))).toEqual(['Review 10', 'Rückblick', 'Town hall', null, 'Review 9']);
  });

  it('equal keys fall back to the newest, then the Id, so every device shows one order', () => {
    const a = clip({ Title: 'Same', CreatedAtUtc: '2026-03-01T00:00:00.000Z', Id: 'b' });
    const b = clip({ Title: 'Same', CreatedAtUtc: '2026-03-01T00:00:00.000Z', Id: 'a' });
    const c = clip({ Title: null, CreatedAtUtc: '2026-03-01T00:00:00.000Z', Id: 'c' });
    expect(applyListQuery(prepareClips([a, c, b]), q({ sort: 'title' }), 'clips').map((r) => r.Id)).toEqual(['a', 'b', 'c']);
    expect(applyListQuery(prepareClips([c, a, b]), q({ sort: 'title' }), 'clips').map((r) => r.Id)).toEqual(['a', 'b', 'c']);
  });
});

describe('Playlists and recordings', () => {
  const playlists = preparePlaylists([
    { Id: 'p1', Title: 'Main feed', Description: 'Every episode', CreatedAtUtc: '2026-01-01T00:00:00.000Z', Visibility: 'Public' },
    { Id: 'p2', Title: 'Bonus', Description: null, CreatedAtUtc: '2026-02-01T00:00:00.000Z', Visibility: 'Private' },
    { Id: 'p3', Title: ' ', Description: null, CreatedAtUtc: '2026-03-01T00:00:00.000Z', Visibility: 'Private' },
  ]);
  const recordings = prepareRecordings([
    { Id: 'r1', Title: 'Morning show', Description: 'Traffic and weather', CaptureStartUtc: '2026-01-05T06:00:00.000Z', CreatedAtUtc: '2026-02-01T00:00:00.000Z', State: 'Finalized' },
    { Id: 'r2', Title: null, Description: null, CaptureStartUtc: null, CreatedAtUtc: '2026-01-06T00:00:00.000Z', State: 'Live' },
  ]);

  it('playlists filter on title and description and by visibility, by title first', () => {
    expect(applyListQuery(playlists, EMPTY_LIST_QUERY, 'playlists').map((r) => r.Id)).toEqual(['p2', 'p1', 'p3']);
    expect(applyListQuery(playlists, q({ text: 'episode' }), 'playlists').map((r) => r.Id)).toEqual(['p1']);
    expect(applyListQuery(playlists, q({ visibility: 'Private', sort: 'newest' }), 'playlists').map((r) => r.Id)).toEqual(['p3', 'p2']);
    expect(applyListQuery(playlists, q({ sort: 'episode', state: 'ready' }), 'playlists').map((r) => r.Id)).toEqual(['p2', 'p1', 'p3']);
  });

  it('recordings filter on title and description and by State, dated by their capture', () => {
    expect(applyListQuery(recordings, EMPTY_LIST_QUERY, 'recordings').map((r) => r.Id)).toEqual(['r2', 'r1']);
    expect(applyListQuery(recordings, q({ text: 'weather' }), 'recordings').map((r) => r.Id)).toEqual(['r1']);
    expect(applyListQuery(recordings, q({ state: 'Live', visibility: 'Public' }), 'recordings').map((r) => r.Id)).toEqual(['r2']);
    expect(applyListQuery(recordings, q({ sort: 'title' }), 'recordings').map((r) => r.Id)).toEqual(['r1', 'r2']);
  });
});

describe('The query in the URL', () => {
  it('reads and writes q, state, publish, vis and sort, keeping other parameters', () => {
    const params = new URLSearchParams('tab=recordings&q=mayor&state=ready&publish=&vis=Public&sort=title');
    expect(readListQuery(params)).toEqual({ text: 'mayor', state: 'ready', publish: null, visibility: 'Public', sort: 'title' });
    writeListQuery(params, q({ text: 'S10', sort: 'oldest' }));
    expect(params.toString()).toBe('tab=recordings&q=S10&sort=oldest');
    expect(readListQuery(new URLSearchParams())).toEqual(EMPTY_LIST_QUERY);
  });
});
