// How the offline index uses the search rules. The rules themselves (what a match is: words, stop
// words, Snowball stems per content language, the websearch syntax, the pg_trgm typo rule) are
// written once in src/domain/search.ts for the server, the screens and this index alike; nothing
// here decides a match:
//
//   row ──searchableFields──> { Title, Description, Annotations, Transcript } text
//       ──lexemeOf per word, in the document's language──> the terms MiniSearch indexes per field
//   query ──parseQuery──> compileQuery per language ──candidateQuery──> MiniSearch: candidates
//       (each operand's lexemes; a typo-eligible word also the lexemes of the index's words within
//        TYPO_SIMILARITY of it: typoWords)
//       ──matchesAnalyzed(compiled, analyzeDocument(doc))──> the final set, exactly the server's
import type { Query } from 'minisearch';
import { FIELD_ORDER, isLexiconWord, lexemeOf, trigramsOf, TYPO_SIMILARITY, wordListOf, type CompiledQuery, type SearchableFields, type SearchField, type SearchLanguage } from '../../src/domain/search.ts';

type CompiledOperand = CompiledQuery['groups'][number]['must'][number];

export const SEARCH_FIELD_NAMES: readonly SearchField[] = FIELD_ORDER;
export type { SearchField, SearchableFields, SearchLanguage };

/** Index terms carry their document's language, so that one MiniSearch query holds each
 * language's compiled query and reaches only that language's documents. */
const TAG: Record<SearchLanguage, string> = { english: 'e', german: 'g', simple: 's' };
/** A lexeme of a document in `language`. */
const lexemeTerm = (language: SearchLanguage, lexeme: string) => `${TAG[language]}:${lexeme}`;
/** A word of a document as written (lower-cased): what the typo rule compares. */
const wordTerm = (language: SearchLanguage, word: string) => `${TAG[language]}~${word}`;

export type DocTerms = { fields: Record<SearchField, string>; lexicon: Set<string> };
/** docTerms' terms as lists, one per field in FIELD_ORDER (what index-core's build() counts). */
export type DocTermLists = { fields: string[][]; lexicon: Set<string> };

/** What a word of a document adds: its lexeme's term (null: a stop word), its word term (null:
 *  not a lexicon word). Kept per language and word, so a word seen before costs one lookup and
 *  its terms are the same strings (whose hashes the maps keep). */
type WordTerms = { lexeme: string | null; word: string | null };
const termCache: Record<SearchLanguage, Map<string, WordTerms>> = { english: new Map(), german: new Map(), simple: new Map() };
const TERM_CACHE_MAX = 200_000;

function termsOfWord(word: string, language: SearchLanguage): WordTerms {
  const cache = termCache[language];
  let terms = cache.get(word);
  if (terms === undefined) {
    const lex = lexemeOf(word, language);
    terms = lex === null ? { lexeme: null, word: null } : { lexeme: lexemeTerm(language, lex), word: isLexiconWord(word) ? wordTerm(language, word) : null };
    if (cache.size >= TERM_CACHE_MAX) cache.clear();
    cache.set(word, terms);
  }
  return terms;
}

/**
 * In one pass over each field's words: the terms MiniSearch indexes (each lexeme, and each word
 * the typo rule may reach: analyzeDocument's `words`, no stop words), and the typo lexicon's words.
 */
export function docTermLists(fields: SearchableFields, language: SearchLanguage): DocTermLists {
  const out: string[][] = [];
  const lexicon = new Set<string>();
  for (const f of FIELD_ORDER) {
    const terms: string[] = [];
    for (const word of wordListOf(fields[f])) {
      const t = termsOfWord(word, language);
      if (t.lexeme === null) continue;
      terms.push(t.lexeme);
      if (t.word !== null) {
        terms.push(t.word);
        lexicon.add(word);
      }
    }
    out.push(terms);
  }
  return { fields: out, lexicon };
}

/** docTermLists with each field's terms as one string, as MiniSearch's add() reads a field. */
export function docTerms(fields: SearchableFields, language: SearchLanguage): DocTerms {
  const lists = docTermLists(fields, language);
  const out = {} as Record<SearchField, string>;
  FIELD_ORDER.forEach((f, i) => (out[f] = lists.fields[i]!.join(' ')));
  return { fields: out, lexicon: lists.lexicon };
}

/**
 * The words of the index a typo-eligible query word reaches, as the server's lexicon table with
 * pg_trgm does: every word sharing a trigram is a candidate, kept at TYPO_SIMILARITY or more.
 */
export class TypoLexicon {
  /** Documents holding each word. */
  private counts = new Map<string, number>();
  /** Built at the first typo query, then kept up to date. */
  private byTrigram: Map<string, Set<string>> | null = null;
  /** Each linked word's number of distinct trigrams. */
  private trigramCount = new Map<string, number>();

  constructor(entries: Iterable<[string, number]> = []) {
    for (const [w, n] of entries) this.counts.set(w, n);
  }

  entries(): Array<[string, number]> {
    return [...this.counts];
  }

  add(words: Iterable<string>): void {
    for (const w of words) {
      const n = this.counts.get(w) ?? 0;
      this.counts.set(w, n + 1);
      if (n === 0 && this.byTrigram) this.link(w);
    }
  }

  remove(words: Iterable<string>): void {
    for (const w of words) {
      const n = this.counts.get(w) ?? 0;
      if (n > 1) this.counts.set(w, n - 1);
      else {
        this.counts.delete(w);
        if (this.byTrigram) for (const t of trigramsOf(w)) this.byTrigram.get(t)?.delete(w);
        this.trigramCount.delete(w);
      }
    }
  }

  private link(w: string): void {
    const trigrams = trigramsOf(w);
    this.trigramCount.set(w, trigrams.size);
    for (const t of trigrams) {
      let set = this.byTrigram!.get(t);
      if (!set) this.byTrigram!.set(t, (set = new Set()));
      set.add(w);
    }
  }

  /**
   * trigramSimilarity(word, w) for every word w sharing a trigram with `word`, without making any
   * trigrams but the query word's: a word is in the set of each trigram it has, so the sets of the
   * query word's trigrams hold it as many times as the two share, and its own count was kept when
   * it was linked (the same integers, so the same quotient as trigramSimilarity's).
   */
  typoWords(word: string): string[] {
    if (!this.byTrigram) {
      this.byTrigram = new Map();
      for (const w of this.counts.keys()) this.link(w);
    }
    const mine = trigramsOf(word);
    if (mine.size === 0) return [];
    /** Shared trigrams per word, in the order the words are first met. */
    const shared = new Map<string, number>();
    for (const t of mine) for (const w of this.byTrigram.get(t) ?? []) shared.set(w, (shared.get(w) ?? 0) + 1);
    const out: string[] = [];
    for (const [w, common] of shared) {
      if (w !== word && common / (mine.size + this.trigramCount.get(w)! - common) >= TYPO_SIMILARITY) out.push(w);
    }
    return out;
  }
}

/**
 * The MiniSearch query for the documents of `compiled.language` that may match; `exact` when they
 * are exactly the ones that match, as they are unless an operand is a phrase (positions: the
 * rule's to check). A single word matches a document holding its lexeme in a searched field, or
 * (typo-eligible) a word of the lexicon within TYPO_SIMILARITY of it; an excluded word removes
 * the documents holding its lexeme (AND_NOT). `everyDoc`: an alternative of exclusions only, so
 * every document of the language is to be checked.
 */
export function candidateQuery(compiled: CompiledQuery, lexicon: TypoLexicon): { query: Query | null; everyDoc: boolean; exact: boolean } {
  const L = compiled.language;
  let exact = true;
  const branches: Query[] = [];
  const single = (op: CompiledOperand, typos: boolean): Query => {
    const terms = new Set([lexemeTerm(L, op.parts[0]!.lexeme)]);
    if (typos && op.typo !== null) for (const w of lexicon.typoWords(op.typo)) terms.add(wordTerm(L, w));
    return { combineWith: 'OR', queries: [...terms] };
  };
  for (const g of compiled.groups) {
    if (g.must.length === 0) return { query: null, everyDoc: true, exact: false };
    const must: Query[] = g.must.map((op) => {
      if (op.parts.length === 1) return single(op, true);
      exact = false;
      return { combineWith: 'AND', queries: op.parts.map((p) => lexemeTerm(L, p.lexeme)) };
    });
    const not: Query[] = [];
    for (const op of g.not) {
      if (op.parts.length === 1) not.push(single(op, false));
      else exact = false; // a phrase excluded: only documents holding it go, which positions say
    }
    const positive: Query = { combineWith: 'AND', queries: must };
    branches.push(not.length > 0 ? { combineWith: 'AND_NOT', queries: [positive, ...not] } : positive);
  }
  return { query: branches.length > 0 ? { combineWith: 'OR', queries: branches } : null, everyDoc: false, exact };
}
