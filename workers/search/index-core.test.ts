// The first build of the offline index (build: term frequencies counted in maps, MiniSearch made
// once by loadJS) makes the index that adding the documents one by one (upsert) makes: the same
// MiniSearch state, the same typo lexicon, the same answers; and it goes on as an upserted one.
import { describe, expect, it } from 'vitest';
import { makeDoc, type SearchDoc } from './documents.ts';
import { build, createIndex, remove, search, serialize, upsert, type IndexQuery, type SearchIndex } from './index-core.ts';
import { TypoLexicon } from './rules.ts';
import { trigramSimilarity, TYPO_SIMILARITY } from '../../src/domain/search.ts';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString();
const meta = (n: number) => ({ Id: id(n), OrganizationId: ORG, CreatedAtUtc: at(n), ModifiedAtUtc: at(n), Deleted: false, Version: n });

const programs = [
  { ...meta(1), Name: 'Morning Show', Description: 'News from the harbour', Language: 'en' },
  { ...meta(2), Name: 'Morgenmagazin', Description: 'Nachrichten aus der Stadt', Language: 'de' },
  { ...meta(3), Name: 'Rádio Manhã', Description: 'Notícias do porto', Language: 'pt' },
];
const words = ['mayor', 'mayors', 'running', 'harbour', 'ferry', 'ferries', 'budget', 'the', 'vote', 'Bürgermeisterin', 'Häuser', 'Hafen', 'und', 'porto', 'notícias', 'S10', '2024'];
const text = (n: number, length: number) => Array.from({ length }, (_, i) => words[(n * 7 + i * 3 + (i * i) % 5) % words.length]).join(' ');

function docs(): SearchDoc[] {
  const out = programs.map((row) => makeDoc({ kind: 'program', row, program: row }));
  for (let n = 10; n < 70; n++) {
    const program = programs[n % programs.length]!;
    const row = { ...meta(n), ProgramId: program.Id, Title: text(n, 4), Description: n % 4 === 0 ? '' : text(n + 1, 12), Tags: [words[n % words.length]], Season: n % 3 === 0 ? null : n % 12, Episode: n % 5, Visibility: 'Public' };
    out.push(makeDoc({ kind: 'clip', row, program }));
  }
  const recording = { ...meta(80), ProgramId: programs[0]!.Id, Title: 'Live hour', Description: 'ferry timetable', BreakType: 'News', Rating: 3 };
  out.push(makeDoc({ kind: 'recording', row: recording, program: programs[0], annotations: [{ Id: id(81), RecordingId: id(80), OffsetSeconds: 3, Text: 'the mayor speaks', Deleted: false }] }));
  return out;
}

/** The index as data, its terms in order (the radix tree's order follows insertion). */
function state(index: SearchIndex) {
  const plain = index.mini.toJSON();
  plain.index.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { plain, docs: [...index.docs.entries()], lexicon: index.lexicon.entries().sort(([a], [b]) => (a < b ? -1 : 1)) };
}

const q = (text: string, over: Partial<IndexQuery> = {}): IndexQuery => ({ kinds: ['clip', 'program', 'playlist', 'recording'], text, sort: 'Relevance', page: 1, pageSize: 100, ...over });
const QUERIES = [q('mayor'), q('mayors running'), q('"the mayor"'), q('goverment'), q('ferry -budget'), q('harbour or Hafen'), q('Bürgermeisterinnen'), q('S10'), q('porto', { fields: ['Title'] }), q('mayour', { sort: 'DateOldest' }), q('')];
const answers = (index: SearchIndex) => QUERIES.map((query) => search(index, query).hits.map((h) => [h.doc.key, h.score]));

describe('the first build of the offline index', () => {
  it('holds what adding the documents one by one holds, and answers alike', () => {
    const one = createIndex(ORG);
    upsert(one, docs());
    const built = build(ORG, docs());
    expect(state(built)).toEqual(state(one));
    expect(answers(built)).toEqual(answers(one));
    expect(answers(built).filter((a) => a.length > 0).length).toBeGreaterThan(8);
  });

  it('is kept up to date and saved as an upserted index is', () => {
    const one = createIndex(ORG);
    upsert(one, docs());
    const built = build(ORG, docs());
    const changed = makeDoc({ kind: 'clip', row: { ...meta(11), ProgramId: programs[0]!.Id, Title: 'Ferry strike', Description: 'budget vote', Tags: [], Season: null, Episode: null, Visibility: 'Public' }, program: programs[0] });
    for (const index of [one, built]) {
      expect(upsert(index, [changed])).toBe(1);
      expect(remove(index, [`clip:${id(12)}`, `clip:${id(13)}`])).toBe(2);
    }
    expect(state(built)).toEqual(state(one));
    expect(answers(built)).toEqual(answers(one));
    expect(search(built, q('strike')).hits.map((h) => h.doc.key)).toEqual([`clip:${id(11)}`]);
    expect(JSON.parse(serialize(built))).toEqual(JSON.parse(serialize(one)));
  });
});

describe('the typo lexicon', () => {
  it('offers exactly the words within TYPO_SIMILARITY of a query word, as trigramSimilarity measures it', () => {
    const words = ['mayor', 'mayors', 'major', 'manor', 'government', 'governments', 'govern', 'harbour', 'harbor', 'bürgermeisterin', 'bürgermeister', 'meister', 'interview', 'interviews', 'review', 'preview'];
    const lexicon = new TypoLexicon(words.map((w) => [w, 1]));
    const brute = (held: string[], word: string) => held.filter((w) => w !== word && trigramSimilarity(word, w) >= TYPO_SIMILARITY).sort();
    const queries = ['mayour', 'mayor', 'goverment', 'harbur', 'bürgermeisterinnen', 'interveiw', 'preview', 'xyzzy'];
    for (const word of queries) expect([...lexicon.typoWords(word)].sort(), word).toEqual(brute(words, word));
    expect(lexicon.typoWords('mayor')).toContain('mayors');
    // Kept up to date after its first use: a word added, a word gone.
    lexicon.add(['mayoral']);
    lexicon.remove(['mayors']);
    const now = [...words.filter((w) => w !== 'mayors'), 'mayoral'];
    for (const word of queries) expect([...lexicon.typoWords(word)].sort(), word).toEqual(brute(now, word));
    expect(lexicon.typoWords('mayor')).toContain('mayoral');
    expect(lexicon.typoWords('mayor')).not.toContain('mayors');
  });
});
