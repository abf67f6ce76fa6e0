// Server search (issue 32) on PGlite and PostgreSQL: the hand-written corpus queries
// (tests/search/corpus.ts), what the producer demo user may find, the parameters and their 400s,
// and the database keeping the vectors as rows, annotations and program languages change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexemeOf, TYPO_SIMILARITY, trigramSimilarity, trigramsOf } from '../../src/domain/search.ts';
import { seedId } from '../../sync-server/seed.ts';
import { AppClient, fields, seededApp } from '../server/app-client.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';
import { CORPUS_CLIPS, CORPUS_PROGRAMS, CORPUS_QUERIES, corpusClip, corpusRecording, insertCorpus, PRODUCER_PROGRAMS } from './corpus.ts';

/** Words whose stems PostgreSQL (ts_lexize) and the domain's Snowball stemmers must agree on. */
const ts_lexize_words = {
  english: ['running', 'runs', 'mayors', 'elections', 'electoral', 'generously', 'happiness', 'agreed', 'interviewing', 'cities', 'crying', 'dying', 'news', 'communities', 'skies', 'arguing', 'the', 'because', 'harbour', 'government'],
  german: ['häuser', 'bürgermeisterin', 'wahlen', 'gewählt', 'städte', 'nachrichten', 'fußball', 'gespräche', 'zeitungen', 'überschwemmungen', 'läuft', 'mädchen', 'schönen', 'kindern', 'größten', 'aufeinanderfolgenden', 'politischen', 'der', 'und', 'über'],
};

type Page = { Items: Array<{ Id: string; ProgramId: string }>; HasNext: boolean; Page: number };
const ALL_PROGRAMS = Object.values(CORPUS_PROGRAMS)
  .map((p) => p.id)
  .join(',');
const path = (kind: 'clip' | 'recording' | 'playlist', params: Record<string, string>) => `/api/v1/${kind}s/search?${new URLSearchParams({ programIds: ALL_PROGRAMS, pageSize: '100', ...params })}`;

describe.each(storeKinds)('server search on %s', (kind) => {
  let t: TestStore;
  let demo: AppClient;
  let producer: AppClient;

  beforeAll(async () => {
    t = await openTestStore(kind);
    const { app } = await seededApp(t.store);
    await insertCorpus(t.store);
    demo = new AppClient(app);
    await demo.login('demo@example.com');
    demo.organizationId = seedId('org:demo');
    producer = new AppClient(app);
    await producer.login('producer@example.com');
    producer.organizationId = seedId('org:demo');
  }, 120_000);
  afterAll(async () => t?.drop());

  const ids = async (client: AppClient, kind: 'clip' | 'recording' | 'playlist', params: Record<string, string>) => {
    const reply = await client.get(path(kind, params));
    expect(reply.status, reply.text).toBe(200);
    return (reply.body as Page).Items.map((i) => i.Id);
  };

  it('answers every corpus query as written by hand', async () => {
    for (const q of CORPUS_QUERIES) {
      const found = await ids(demo, q.kind, q.params);
      if (q.all) expect([...found].sort(), q.name).toEqual([...q.all].sort());
      if (q.top) expect(found.slice(0, q.top.length), q.name).toEqual(q.top);
      let at = 0;
      for (const tier of q.tiers ?? []) {
        expect([...found.slice(at, at + tier.length)].sort(), q.name).toEqual([...tier].sort());
        at += tier.length;
      }
    }
  });

  it('shows the producer nothing from programs they may not read', async () => {
    const readable = new Set(PRODUCER_PROGRAMS.map((p) => CORPUS_PROGRAMS[p].id));
    for (const q of CORPUS_QUERIES) {
      const reply = await producer.get(path(q.kind, q.params));
      expect(reply.status, reply.text).toBe(200);
      const items = (reply.body as Page).Items;
      expect(items.every((i) => readable.has(i.ProgramId)), q.name).toBe(true);
      // …and everything of theirs that the demo user finds.
      const expected = (q.all ?? []).filter((id) => {
        const clip = CORPUS_CLIPS.find((x) => x.id === id);
        return clip ? readable.has(CORPUS_PROGRAMS[clip.program].id) : true;
      });
      if (q.kind === 'clip' && q.all) expect(items.map((i) => i.Id).sort(), q.name).toEqual(expected.sort());
    }
    // Asked for a program they may not read: nothing, not an error.
    expect(await ids(producer, 'clip', { filter: 'harbour', programIds: CORPUS_PROGRAMS.world.id })).toEqual([]);
    expect(await ids(producer, 'clip', {})).not.toContain(corpusClip('budget-mayor'));
  });

  it('pages per section 7', async () => {
    const first = await demo.get(path('clip', { filter: 'mayor', sortBy: 'DateOldest', pageSize: '3' }));
    expect(first.body).toMatchObject({ HasNext: true, Page: 1 });
    const second = await demo.get(path('clip', { filter: 'mayor', sortBy: 'DateOldest', pageSize: '3', page: '2' }));
    expect(second.body).toMatchObject({ HasNext: false, Page: 2 });
    expect([...(first.body as Page).Items, ...(second.body as Page).Items].map((i) => i.Id)).toEqual([
      corpusClip('mayor-tram'),
      corpusClip('mayor-desc'),
      corpusClip('budget-mayor'),
      corpusClip('private-mayor'),
    ]);
    // No filter: the readable rows, newest first.
    const all = await ids(demo, 'clip', { pageSize: '2500' });
    expect(all).toHaveLength(CORPUS_CLIPS.length);
    expect(all[0]).toBe(corpusClip('de-rathaus'));
  });

  it('filters by created dates in a time zone', async () => {
    // mayor-desc was created 2025-03-01T09:00Z, budget-mayor 13:00Z, private-mayor 2025-03-01T23:00Z
    // (2025-03-02 in Berlin).
    expect((await ids(demo, 'clip', { filter: 'mayor', createdStartDate: '2025-03-02', timeZoneIanaId: 'Europe/Berlin' })).sort()).toEqual([corpusClip('private-mayor')]);
    expect((await ids(demo, 'clip', { filter: 'mayor', createdEndDate: '2025-03-01', timeZoneIanaId: 'Europe/Berlin' })).length).toBe(3);
    expect((await ids(demo, 'clip', { filter: 'mayor', createdStartDate: '2025-03-01', createdEndDate: '2025-03-01' })).length).toBe(4);
  });

  it('honours permissionFilter and hiddenProgramContentFilter', async () => {
    expect(await ids(producer, 'clip', { filter: 'mayor', permissionFilter: 'HasAnalyticsAccess' })).toEqual([]);
    expect((await ids(demo, 'clip', { filter: 'mayor', permissionFilter: 'HasAnalyticsAccess' })).length).toBe(4);
    expect(await ids(demo, 'clip', { filter: 'mayor', hiddenProgramContentFilter: 'Only' })).toEqual([]);
  });

  it('refuses bad parameters with a 400 naming the field', async () => {
    const bad: Array<[Record<string, string>, string]> = [
      [{ sortBy: 'Loudest' }, 'sortBy'],
      [{ filterBy: 'Title,Colour' }, 'filterBy'],
      [{ visibilityFilter: 'Secret' }, 'visibilityFilter'],
      [{ programIds: 'not-a-guid' }, 'programIds'],
      [{ createdStartDate: '2025-02-30' }, 'createdStartDate'],
      [{ createdStartDate: '2025-03-02', createdEndDate: '2025-03-01' }, 'createdEndDate'],
      [{ createdStartDate: '2025-03-02', timeZoneIanaId: 'Mars/Olympus' }, 'timeZoneIanaId'],
      [{ page: '0' }, 'page'],
      [{ pageSize: '2501' }, 'pageSize'],
      [{ hiddenProgramContentFilter: 'Sometimes' }, 'hiddenProgramContentFilter'],
      [{ permissionFilter: 'HasEverything' }, 'permissionFilter'],
      [{ filter: 'x'.repeat(501) }, 'filter'],
    ];
    for (const [params, field] of bad) {
      const reply = await demo.get(path('clip', params));
      expect(reply.status, JSON.stringify(params)).toBe(400);
      expect(fields(reply).map(([f]) => f)).toContain(field);
    }
    const rating = await demo.get(path('recording', { rating: 'five' }));
    expect(rating.status).toBe(400);
    expect(fields(rating).map(([f]) => f)).toContain('rating');
  });

  it('keeps the vectors as rows, annotations and languages change, and as clips are deleted', async () => {
    const morning = CORPUS_PROGRAMS.morning.id;
    // A new annotation makes its recording findable at once.
    await t.store.query(
      `INSERT INTO annotations (id, organization_id, recording_id, data, created_at_utc, modified_at_utc, version) VALUES ($1, $2, $3, $4, now(), now(), next_row_version())`,
      [seedId('search:annotation:extra'), seedId('org:demo'), corpusRecording('rec-traffic'), JSON.stringify({ OffsetSeconds: 5, Text: 'Zeppelin sighting' })],
    );
    expect(await ids(demo, 'recording', { filter: 'zeppelin' })).toEqual([corpusRecording('rec-traffic')]);
    await t.store.query(`UPDATE annotations SET deleted = true WHERE id = $1`, [seedId('search:annotation:extra')]);
    expect(await ids(demo, 'recording', { filter: 'zeppelin' })).toEqual([]);
    // A title change through the API is searchable at once.
    const patch = await demo.patch(`/api/v1/clips/${corpusClip('bakery')}`, { Title: 'The oldest patisserie in town' });
    expect(patch.status, patch.text).toBe(200);
    expect(await ids(demo, 'clip', { filter: 'patisserie' })).toEqual([corpusClip('bakery')]);
    // The program's language decides the stemming: English 'elections' → 'elect'; simple keeps words.
    expect((await ids(demo, 'clip', { filter: 'elect', programIds: morning })).length).toBe(1);
    await t.store.query(`UPDATE programs SET data = data || '{"Language": "fr"}' WHERE id = $1`, [morning]);
    expect(await ids(demo, 'clip', { filter: '"elect"', programIds: morning })).toEqual([]);
    await t.store.query(`UPDATE programs SET data = data || '{"Language": "en"}' WHERE id = $1`, [morning]);
    expect((await ids(demo, 'clip', { filter: 'elect', programIds: morning })).length).toBe(1);
    // A deleted clip is found no more (clip_search follows the row: migrations/0547).
    expect((await demo.delete(`/api/v1/clips/${corpusClip('bakery')}`)).status).toBe(204);
    expect(await ids(demo, 'clip', { filter: 'patisserie' })).toEqual([]);
  });

  it("finds a typo's lexicon words by the domain's trigram rule, which is pg_trgm's (PostgreSQL: against pg_trgm itself)", async () => {
    const words = (await t.store.query<{ word: string }>(`SELECT DISTINCT word FROM search_lexicon ORDER BY word`)).map((r) => r.word);
    expect(words.length).toBeGreaterThan(200);
    // Each word learned (search_learn, migrations/0651) with the domain's trigrams, and their count.
    const kept = await t.store.query<{ word: string; trigram: string; trigrams: number }>(`SELECT word, trigram, trigrams FROM search_lexicon_trigram`);
    const byWord = new Map<string, typeof kept>();
    for (const r of kept) byWord.set(r.word, [...(byWord.get(r.word) ?? []), r]);
    expect([...byWord.keys()].sort()).toEqual(words);
    for (const [word, rows] of byWord) {
      const expected = [...trigramsOf(word)].sort();
      expect([...new Set(rows.map((r) => r.trigram))].sort(), word).toEqual(expected);
      expect(new Set(rows.map((r) => r.trigrams)), word).toEqual(new Set([expected.length]));
    }
    // Typos, partial words, another case, umlauts and a word with a hyphen, and every 25th word.
    const terms = ['mayr', 'majors', 'councel', 'Elektion', 'harbor', 'bürgermeistr', 'strasse', 'patiserie', 'well-known', 'xyzzyq', ...words.filter((_, i) => i % 25 === 0)];
    const similar = async (term: string) => (await t.store.query<{ s: string | null }>(`SELECT search_similar_words($1, $2) AS s`, [term, TYPO_SIMILARITY]))[0]!.s;
    let withMatches = 0;
    for (const term of terms) {
      const expected = words.filter((w) => trigramSimilarity(w, term) >= TYPO_SIMILARITY);
      expect((await similar(term))?.split(' or ') ?? [], term).toEqual(expected);
      if (expected.length > 0) withMatches++;
    }
    // Not vacuous: the every-25th words find at least themselves, and some typos find words.
    expect(withMatches).toBeGreaterThan(terms.length / 2);
    // pg_trgm is not there to be called: its code crashes PGlite (migrations/0650).
    expect(await t.store.query(`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`)).toEqual([]);
    if (kind !== 'postgres') return;
    // The rule is pg_trgm's: compared with its similarity() in a scratch schema (PGlite's pg_trgm
    // is never called: migrations/0650_search_lexicon_trigrams.sql).
    await t.store.exec(`CREATE SCHEMA trgm_check; CREATE EXTENSION pg_trgm SCHEMA trgm_check;`);
    try {
      for (const term of terms) {
        const [row] = await t.store.query<{ s: string | null }>(
          `SELECT string_agg(word, ' or ' ORDER BY word) AS s FROM (SELECT DISTINCT word FROM search_lexicon) l WHERE trgm_check.similarity(word, $1) >= $2`,
          [term, TYPO_SIMILARITY],
        );
        expect(await similar(term), term).toBe(row!.s);
      }
    } finally {
      await t.store.exec(`DROP SCHEMA trgm_check CASCADE;`);
    }
  });

  it('stems as the domain does (ts_lexize against src/domain/search.ts)', async () => {
    const [row] = await t.store.query<{ v: number }>(`SELECT current_setting('server_version_num')::int AS v`);
    const differ: string[] = [];
    for (const [config, words] of Object.entries(ts_lexize_words)) {
      const rows = await t.store.query<{ w: string; l: string[] | null }>(`SELECT w, ts_lexize('${config}_stem', w) AS l FROM unnest($1::text[]) AS w`, [words]);
      for (const { w, l } of rows) if ((lexemeOf(w, config as 'english' | 'german') ?? null) !== (l && l.length > 0 ? l[0] : null)) differ.push(`${config} ${w}`);
    }
    // The domain stems as PostgreSQL up to 16 does. PostgreSQL 17 (PGlite) has the newer German
    // Snowball stemmer, which also strips the feminine -erin: only such words may differ there.
    expect(differ).toEqual(row!.v >= 170000 ? ['german bürgermeisterin'] : []);
  });
});
