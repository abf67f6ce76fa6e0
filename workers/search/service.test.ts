import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalDb, type CastawayDb } from '../../src/db/db.ts';
import { applyPullPage } from '../../src/db/sync-store.ts';
import { createWrites } from '../../src/db/writes.ts';
import { loadSavedIndex, openSearchIndexDb } from '../../src/db/search-index-db.ts';
import { resetLocalData } from '../../src/db/reset.ts';
import type { PullResponse } from '../../src/protocol/sync.ts';
import { createSearchService, type SearchService } from './service.ts';
import type { IndexQuery } from './index-core.ts';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const EN = '00000000-0000-4000-8000-0000000000b1';
const DE = '00000000-0000-4000-8000-0000000000b2';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString();
const meta = (n: number) => ({ Id: id(n), OrganizationId: ORG, CreatedAtUtc: at(n), ModifiedAtUtc: at(n), Deleted: false, Version: n });

const program = (Id: string, Name: string, Language: string) => ({ ...meta(0), Id, Name, Language, Description: null });
const clip = (n: number, ProgramId: string, Title: string, over: Record<string, unknown> = {}) => ({ ...meta(n), ProgramId, Title, Description: '', Tags: [], Season: null, Episode: null, Visibility: 'Public', ...over });

function page(rows: PullResponse['rows'], tombstones: PullResponse['tombstones'] = [], cursor = 'c1'): PullResponse {
  return { cursor, rows, tombstones, hasMore: false, rebuild: false, permissions: [{ ObjectType: 'Organization', ObjectId: ORG, Permissions: { HasContentAccess: true } }] } as PullResponse;
}

let k = 0;
const opened: Array<{ store: CastawayDb; services: SearchService[]; indexName: string }> = [];
function fresh() {
  const store = openLocalDb(`search-test-${Date.now()}-${k}`);
  const entry = { store, services: [] as SearchService[], indexName: `castaway-search-test-${Date.now()}-${k++}` };
  opened.push(entry);
  const start = () => {
    const s = createSearchService({ store, indexDbName: entry.indexName, saveDelayMs: 10 });
    entry.services.push(s);
    return s;
  };
  return { store, start, indexName: entry.indexName };
}
afterEach(async () => {
  for (const { store, services } of opened.splice(0)) {
    for (const s of services) s.stop();
    store.close();
    await store.delete();
  }
});

const q = (text: string, over: Partial<IndexQuery> = {}): IndexQuery => ({ kinds: ['clip', 'program', 'playlist', 'recording'], text, sort: 'DateNewest', page: 1, pageSize: 50, ...over });
const titles = async (s: SearchService, query: IndexQuery) => (await s.search(ORG, query)).hits.map((h) => String(h.row['Title'] ?? h.row['Name']));

describe('the offline search index', () => {
  it('is built from the store, follows pulls and local edits, and forgets deleted rows', async () => {
    const { store, start } = fresh();
    await applyPullPage(store, page([
      { entity: 'programs', row: program(EN, 'Morning Show', 'en') },
      { entity: 'programs', row: program(DE, 'Morgenmagazin', 'de') },
      { entity: 'clips', row: clip(1, EN, 'The mayor is running again', { Tags: ['politics'], Season: 10, Episode: 3 }) },
      { entity: 'clips', row: clip(2, DE, 'Die Bürgermeisterin läuft', { Description: 'Neue Häuser am Hafen' }) },
    ]));
    const s = start();
    expect((await s.prepare(ORG)).loadedFrom).toBe('built');
    // English stems (runs → run), the season label and a tag, German stems (Häusern → haus).
    expect(await titles(s, q('mayor runs'))).toEqual(['The mayor is running again']);
    expect(await titles(s, q('S10 politics'))).toEqual(['The mayor is running again']);
    expect(await titles(s, q('Häusern', { fields: ['Description'] }))).toEqual(['Die Bürgermeisterin läuft']);
    expect(await titles(s, q('Häusern', { fields: ['Title'] }))).toEqual([]);
    // A typo (pg_trgm similarity) and an exclusion.
    expect(await titles(s, q('mayour'))).toEqual(['The mayor is running again']);
    expect(await titles(s, q('mayor -politics'))).toEqual([]);

    // A pulled page: a new clip, and a tombstone for an old one.
    await applyPullPage(store, page([{ entity: 'clips', row: clip(3, EN, 'Harbour budget vote') }], [{ entity: 'clips', id: id(2) }], 'c2'));
    await s.settled();
    expect(await titles(s, q('budget'))).toEqual(['Harbour budget vote']);
    expect(await titles(s, q('Bürgermeisterin'))).toEqual([]);

    // A local edit (the outbox's write) is searchable at once, under its new words only.
    await createWrites(store).updateClip(id(3), { Title: 'Harbour ferry timetable' });
    await s.settled();
    expect(await titles(s, q('ferry'))).toEqual(['Harbour ferry timetable']);
    expect(await titles(s, q('budget'))).toEqual([]);
  });

  it('is saved and loaded on the next start, not built again, and catches up with what changed meanwhile', async () => {
    const { store, start, indexName } = fresh();
    await applyPullPage(store, page([{ entity: 'programs', row: program(EN, 'Morning Show', 'en') }, ...Array.from({ length: 30 }, (_, i) => ({ entity: 'clips' as const, row: clip(10 + i, EN, `Episode ${i} about gardens`) }))]));
    const first = start();
    await first.prepare(ORG);
    await first.flush();
    first.stop();
    const saved = await loadSavedIndex(openSearchIndexDb(indexName), ORG);
    expect(saved?.cursor).toBe('c1');

    // While no search worker listens: a clip is renamed.
    await createWrites(store).updateClip(id(10), { Title: 'Episode zero about bees' });
    const second = start();
    const status = await second.prepare(ORG);
    expect(status).toMatchObject({ loadedFrom: 'saved', documents: 31 });
    expect(await titles(second, q('bees'))).toEqual(['Episode zero about bees']);
    const oldest = await second.search(ORG, q('garden', { sort: 'DateOldest', pageSize: 10 }));
    expect(oldest.hits.map((h) => h.row.Id)).toEqual(Array.from({ length: 10 }, (_, i) => id(11 + i)));
    expect(oldest.hasNext).toBe(true);
    const last = await second.search(ORG, q('garden', { sort: 'DateOldest', pageSize: 10, page: 3 }));
    expect([last.hits.length, last.hasNext, last.total]).toEqual([9, false, 29]);
  });

  it('filters by type, program, visibility, created instant, and recordings by break type and rating with their annotations', async () => {
    const { store, start } = fresh();
    const rec = { ...meta(5), ProgramId: EN, Title: 'Live hour', Description: null, BreakType: 'News', Rating: 4, State: 'Finalized' };
    await applyPullPage(store, page([
      { entity: 'programs', row: program(EN, 'Morning Show', 'en') },
      { entity: 'clips', row: clip(1, EN, 'Weather report', { Visibility: 'Private' }) },
      { entity: 'clips', row: clip(2, EN, 'Weather outlook') },
      { entity: 'playlists', row: { ...meta(3), ProgramId: EN, Title: 'Weather collection', Description: null, Visibility: 'Public', ClipIds: [] } },
      { entity: 'recordings', row: rec },
      { entity: 'annotations', row: { ...meta(6), RecordingId: id(5), OffsetSeconds: 12, DurationSeconds: null, Text: 'storm warning for the coast' } },
    ]));
    const s = start();
    expect(await titles(s, q('weather', { kinds: ['clip'] }))).toEqual(['Weather outlook', 'Weather report']);
    expect(await titles(s, q('weather', { kinds: ['clip'], visibilities: ['Public'] }))).toEqual(['Weather outlook']);
    expect(await titles(s, q('weather', { kinds: ['clip', 'playlist'], createdFrom: at(2), createdBefore: at(3) }))).toEqual(['Weather outlook']);
    expect(await titles(s, q('weather', { programIds: [DE] }))).toEqual([]);
    expect(await titles(s, q('storms', { fields: ['Annotations'] }))).toEqual(['Live hour']);
    expect(await titles(s, q('storm', { kinds: ['recording'], breakTypes: ['News'], ratings: [4] }))).toEqual(['Live hour']);
    expect(await titles(s, q('storm', { kinds: ['recording'], ratings: [5] }))).toEqual([]);
    // An annotation deleted: the recording no longer matches its text.
    await applyPullPage(store, page([], [{ entity: 'annotations', id: id(6) }], 'c2'));
    await s.settled();
    expect(await titles(s, q('storm'))).toEqual([]);
  });

  it('forgets everything when the local store is reset (log-out), in memory and on the device', async () => {
    const { store, start, indexName } = fresh();
    await applyPullPage(store, page([{ entity: 'programs', row: program(EN, 'Morning Show', 'en') }, { entity: 'clips', row: clip(1, EN, 'Secret plans') }]));
    const s = start();
    await s.prepare(ORG);
    await s.flush();
    expect((await loadSavedIndex(openSearchIndexDb(indexName), ORG))?.json).toContain('Secret plans');
    await resetLocalData(store);
    await s.settled();
    await s.flush();
    expect(await titles(s, q('secret'))).toEqual([]);
    expect((await loadSavedIndex(openSearchIndexDb(indexName), ORG))?.json ?? '').not.toContain('Secret');
  });
});
