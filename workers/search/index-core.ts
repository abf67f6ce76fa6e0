// The offline search index of one organization: MiniSearch over the documents of documents.ts,
// plus the documents themselves (what the filters, the sorts and the final match rule read).
// Pure: no Dexie, no worker; the worker (search.worker.ts through service.ts) feeds it rows and
// persists what serialize() returns. Tested in node (index-core.test.ts).
//
//   query ─ parse ─> per alternative: AND of (OR of candidate terms per word) ─MiniSearch─> candidates
//                                                 (prefix and typo leaves widen it: a superset)
//         ─ rules.matches on the searched fields' text ─> the match set, the server's
//         ─ filters (type, program, visibility, created, break type, rating) ─ sort ─ page
import MiniSearch, { type AsPlainObject, type Query, type SearchResult } from 'minisearch';
import { analyzeDocument, compileQuery, matchesAnalyzed, parseQuery, SEARCH_LANGUAGES, type HiddenProgramContentFilter } from '../../src/domain/search.ts';
import { candidateQuery, docTermLists, docTerms, SEARCH_FIELD_NAMES, TypoLexicon, type DocTerms, type SearchField } from './rules.ts';
import type { SearchDoc, SearchKind } from './documents.ts';

/** Changes whenever what is indexed or how changes: an index saved under another is rebuilt. */
export const INDEX_FORMAT = 2;

export type SearchSort = 'DateNewest' | 'DateOldest' | 'Relevance';

export type IndexQuery = {
  kinds: readonly SearchKind[];
  text?: string | undefined;
  /** The fields searched; none or empty: all four. */
  fields?: readonly SearchField[] | undefined;
  programIds?: readonly string[] | undefined;
  visibilities?: readonly string[] | undefined;
  /** Created at or after (UTC instant, ISO). */
  createdFrom?: string | undefined;
  /** Created before (UTC instant, ISO). */
  createdBefore?: string | undefined;
  breakTypes?: readonly string[] | undefined;
  ratings?: readonly number[] | undefined;
  /** Content of deleted programs: Exclude (default), Include, Only. */
  hiddenPrograms?: HiddenProgramContentFilter | undefined;
  sort: SearchSort;
  page: number;
  pageSize: number;
};

export type IndexHit = { doc: SearchDoc; score: number };
export type IndexPage = { hits: IndexHit[]; hasNext: boolean; page: number; total: number };

export type SearchIndex = {
  organizationId: string;
  mini: MiniSearch<SearchDoc>;
  docs: Map<string, SearchDoc>;
  lexicon: TypoLexicon;
};

/** Title matches weigh most, as ts_rank's A..D weights do on the server (RANK_WEIGHTS). */
const BOOST: Record<SearchField, number> = { Title: 5, Description: 2, Annotations: 1, Transcript: 1 };

/** The terms of the document being added (docTerms, made once per document in upsert). */
let adding: DocTerms | null = null;

const options = {
  idField: 'key',
  fields: [...SEARCH_FIELD_NAMES],
  // Each document is analysed by the domain's rules in its own language; MiniSearch sees its terms.
  extractField: (doc: SearchDoc, field: string) => (field === 'key' ? doc.key : adding!.fields[field as SearchField]),
  tokenize: (text: string) => (text === '' ? [] : text.split(' ')),
  processTerm: (term: string) => term,
  searchOptions: { processTerm: (term: string) => term, tokenize: (text: string) => [text] },
  autoVacuum: { minDirtCount: 200, minDirtFactor: 0.2, batchSize: 5000, batchWait: 0 },
};

export function createIndex(organizationId: string): SearchIndex {
  return { organizationId, mini: new MiniSearch<SearchDoc>(options), docs: new Map(), lexicon: new TypoLexicon() };
}

function forget(index: SearchIndex, held: SearchDoc): void {
  index.mini.discard(held.key);
  index.lexicon.remove(docTerms(held.text, held.language).lexicon);
  index.docs.delete(held.key);
}

/** Adds or replaces documents (by key); unchanged ones (same stamp) are left alone. The number
 * indexed again is returned. */
export function upsert(index: SearchIndex, docs: Iterable<SearchDoc>): number {
  let n = 0;
  for (const doc of docs) {
    const held = index.docs.get(doc.key);
    if (held?.stamp === doc.stamp) continue;
    if (held) forget(index, held);
    adding = docTerms(doc.text, doc.language);
    index.mini.add(doc);
    index.lexicon.add(adding.lexicon);
    adding = null;
    index.docs.set(doc.key, doc);
    n++;
  }
  return n;
}

/**
 * A new index of `docs` (the first build: nothing saved, or saved by another format), made as
 * upsert() into an empty index makes it, only faster. MiniSearch's add() walks its radix tree once
 * per word of every document (some 900,000 walks for 10,000 clips: most of the build); here each
 * field's term frequencies are counted in plain maps and the tree is made once per distinct term,
 * by MiniSearch's own loadJS from the plain object its toJSON() writes (index-core.test.ts checks
 * that both hold the same index).
 */
export function build(organizationId: string, docs: Iterable<SearchDoc>): SearchIndex {
  const docMap = new Map<string, SearchDoc>();
  for (const doc of docs) docMap.set(doc.key, doc);
  const lexicon = new TypoLexicon();
  const fieldCount = SEARCH_FIELD_NAMES.length;
  /** Per term and field: the documents holding it (short ids, ascending) and how often. */
  const postings = new Map<string, Array<{ ids: number[]; tfs: number[] } | undefined>>();
  const documentIds: Record<number, string> = {};
  const fieldLength: Record<number, number[]> = {};
  const averageFieldLength: number[] = [];
  const counts = new Map<string, number>();
  let shortId = 0;
  for (const doc of docMap.values()) {
    const terms = docTermLists(doc.text, doc.language);
    lexicon.add(terms.lexicon);
    documentIds[shortId] = doc.key;
    const lengths: number[] = [];
    for (let f = 0; f < fieldCount; f++) {
      counts.clear();
      for (const term of terms.fields[f]!) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, tf] of counts) {
        let byField = postings.get(term);
        if (!byField) postings.set(term, (byField = new Array<{ ids: number[]; tfs: number[] } | undefined>(fieldCount)));
        const list = (byField[f] ??= { ids: [], tfs: [] });
        list.ids.push(shortId);
        list.tfs.push(tf);
      }
      lengths[f] = counts.size;
      // As addFieldLength does it, one document at a time (the same floating point).
      averageFieldLength[f] = ((averageFieldLength[f] || 0) * shortId + counts.size) / (shortId + 1);
    }
    fieldLength[shortId] = lengths;
    shortId++;
  }
  const index: AsPlainObject['index'] = [];
  for (const [term, byField] of postings) {
    const data: Record<string, Record<string, number>> = {};
    for (let f = 0; f < fieldCount; f++) {
      const list = byField[f];
      if (!list) continue;
      const freqs: Record<number, number> = {};
      for (let i = 0; i < list.ids.length; i++) freqs[list.ids[i]!] = list.tfs[i]!;
      data[f] = freqs;
    }
    index.push([term, data]);
  }
  const fieldIds = Object.fromEntries(SEARCH_FIELD_NAMES.map((f, i) => [f, i]));
  const plain: AsPlainObject = { documentCount: shortId, nextId: shortId, documentIds, fieldIds, fieldLength, averageFieldLength, storedFields: {}, dirtCount: 0, index, serializationVersion: 2 };
  return { organizationId, mini: MiniSearch.loadJS<SearchDoc>(plain, options), docs: docMap, lexicon };
}

export function remove(index: SearchIndex, keys: Iterable<string>): number {
  let n = 0;
  for (const key of keys) {
    const held = index.docs.get(key);
    if (!held) continue;
    forget(index, held);
    n++;
  }
  return n;
}

/** Makes the index hold exactly `docs` of the kinds given: the others of those kinds go. */
export function reconcile(index: SearchIndex, docs: readonly SearchDoc[], kinds: readonly SearchKind[] = ['clip', 'program', 'playlist', 'recording']): { indexed: number; removed: number } {
  const keep = new Set(docs.map((d) => d.key));
  const kindSet = new Set<string>(kinds);
  const gone = [...index.docs.values()].filter((d) => kindSet.has(d.kind) && !keep.has(d.key)).map((d) => d.key);
  return { removed: remove(index, gone), indexed: upsert(index, docs) };
}

export type SerializedIndex = { format: number; organizationId: string; mini: AsPlainObject; docs: SearchDoc[]; lexicon: Array<[string, number]> };

/** The index as one JSON string: MiniSearch's own toJSON, the documents and the typo lexicon. */
export function serialize(index: SearchIndex): string {
  const value: SerializedIndex = { format: INDEX_FORMAT, organizationId: index.organizationId, mini: index.mini.toJSON(), docs: [...index.docs.values()], lexicon: index.lexicon.entries() };
  return JSON.stringify(value);
}

/** The index a serialize() made; null when it was made by another format (rebuild it). */
export function deserialize(json: string): SearchIndex | null {
  const value = JSON.parse(json) as SerializedIndex;
  if (value.format !== INDEX_FORMAT) return null;
  return {
    organizationId: value.organizationId,
    mini: MiniSearch.loadJS<SearchDoc>(value.mini, options),
    docs: new Map(value.docs.map((d) => [d.key, d])),
    lexicon: new TypoLexicon(value.lexicon),
  };
}

const byId = (a: SearchDoc, b: SearchDoc) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
/** The server's orders: created_at_utc (ascending or descending), then Id ascending. */
const oldestFirst = (a: SearchDoc, b: SearchDoc) => (a.createdAtUtc < b.createdAtUtc ? -1 : a.createdAtUtc > b.createdAtUtc ? 1 : byId(a, b));
const newestFirst = (a: SearchDoc, b: SearchDoc) => (a.createdAtUtc > b.createdAtUtc ? -1 : a.createdAtUtc < b.createdAtUtc ? 1 : byId(a, b));

const setOf = <T>(values: readonly T[] | undefined, key: (v: T) => T = (v) => v) => (values && values.length > 0 ? new Set(values.map(key)) : null);

export function search(index: SearchIndex, q: IndexQuery): IndexPage {
  const fields = q.fields && q.fields.length > 0 ? q.fields : SEARCH_FIELD_NAMES;
  const parsed = parseQuery(q.text ?? '');
  const kinds = new Set<string>(q.kinds);
  const programs = setOf(q.programIds, (p) => p.toLowerCase());
  const visibilities = setOf(q.visibilities);
  const breakTypes = setOf(q.breakTypes);
  const ratings = setOf(q.ratings);
  const hidden = q.hiddenPrograms ?? 'Exclude';
  const programDeleted = (d: SearchDoc) => d.kind !== 'program' && index.docs.get(`program:${d.programId}`)?.deleted === true;
  const keep = (d: SearchDoc) =>
    kinds.has(d.kind) &&
    !d.deleted &&
    (hidden === 'Include' || (hidden === 'Only') === programDeleted(d)) &&
    (!programs || programs.has(d.programId.toLowerCase())) &&
    // Programs and recordings have no visibility: the filter is about the rows that have one.
    (!visibilities || d.visibility === null || visibilities.has(d.visibility)) &&
    (!q.createdFrom || d.createdAtUtc >= q.createdFrom) &&
    (!q.createdBefore || d.createdAtUtc < q.createdBefore) &&
    (!breakTypes || (d.breakType !== null && breakTypes.has(d.breakType))) &&
    (!ratings || (d.rating !== null && ratings.has(d.rating)));

  const hits: IndexHit[] = [];
  if (parsed.groups.length === 0) {
    for (const doc of index.docs.values()) if (keep(doc)) hits.push({ doc, score: 0 });
  } else {
    // One MiniSearch query holds each language's compiled query (terms carry their language).
    const compiled = SEARCH_LANGUAGES.map((language) => compileQuery(parsed, language)).filter((c) => !c.empty);
    const parts = compiled.map((c) => ({ c, ...candidateQuery(c, index.lexicon) }));
    const queries: Query[] = [];
    for (const p of parts) if (p.query !== null && !p.everyDoc) queries.push(p.query);
    const found: SearchResult[] = queries.length > 0 ? index.mini.search({ combineWith: 'OR', queries }, { fields: [...fields], boost: BOOST }) : [];
    const byLanguage = new Map(parts.map((p) => [p.c.language, p]));
    const check = (doc: SearchDoc) => {
      const p = byLanguage.get(doc.language);
      return p !== undefined && (p.exact || matchesAnalyzed(p.c, analyzeDocument(doc.text, doc.language), { fields }));
    };
    for (const r of found) {
      const doc = index.docs.get(r.id as string)!;
      if (keep(doc) && check(doc)) hits.push({ doc, score: r.score });
    }
    // A language whose query is exclusions only: each of its documents is checked.
    const everyDoc = new Set(parts.filter((p) => p.everyDoc).map((p) => p.c.language));
    if (everyDoc.size > 0) for (const doc of index.docs.values()) if (everyDoc.has(doc.language) && keep(doc) && check(doc)) hits.push({ doc, score: 0 });
  }
  if (q.sort === 'Relevance') hits.sort((a, b) => b.score - a.score || newestFirst(a.doc, b.doc));
  else if (q.sort === 'DateOldest') hits.sort((a, b) => oldestFirst(a.doc, b.doc));
  else hits.sort((a, b) => newestFirst(a.doc, b.doc));
  const start = (q.page - 1) * q.pageSize;
  return { hits: hits.slice(start, start + q.pageSize), hasNext: hits.length > start + q.pageSize, page: q.page, total: hits.length };
}
