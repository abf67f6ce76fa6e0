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
import { FIELD_ORDER, isLexiconWord, lexemeOf, trigramsOf, trigramSimilarity, TYPO_SIMILARITY, wordsOf, type CompiledQuery, type SearchableFields, type SearchField, type SearchLanguage } from '../../src/domain/search.ts';

export const SEARCH_FIELD_NAMES: readonly SearchField[] = FIELD_ORDER;
export type { SearchField, SearchableFields, SearchLanguage };

/** The terms MiniSearch indexes for one field of a document in `language` (stop words dropped). */
export function fieldLexemes(text: string, language: SearchLanguage): string[] {
  const out: string[] = [];
  for (const { word } of wordsOf(text)) {
    const lex = lexemeOf(word, language);
    if (lex !== null) out.push(lex);
  }
  return out;
}

/** The document's words the typo rule may reach (analyzeDocument's `words`: no stop words). */
export function lexiconWords(fields: SearchableFields, language: SearchLanguage): Set<string> {
  const out = new Set<string>();
  for (const f of FIELD_ORDER) for (const { word } of wordsOf(fields[f])) if (isLexiconWord(word) && lexemeOf(word, language) !== null) out.add(word);
  return out;
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
      }
    }
  }

  private link(w: string): void {
    for (const t of trigramsOf(w)) {
      let set = this.byTrigram!.get(t);
      if (!set) this.byTrigram!.set(t, (set = new Set()));
      set.add(w);
    }
  }

  typoWords(word: string): string[] {
    if (!this.byTrigram) {
      this.byTrigram = new Map();
      for (const w of this.counts.keys()) this.link(w);
    }
    const seen = new Set<string>();
    const out: string[] = [];
    for (const t of trigramsOf(word)) {
      for (const w of this.byTrigram.get(t) ?? []) {
        if (seen.has(w)) continue;
        seen.add(w);
        if (w !== word && trigramSimilarity(word, w) >= TYPO_SIMILARITY) out.push(w);
      }
    }
    return out;
  }
}

/**
 * The MiniSearch query that finds every document of `language` the compiled query may match (a
 * superset: positions, exclusions and the typo rule's fields are the rule's to check). Null: any
 * document may match (an alternative made only of exclusions).
 */
export function candidateQuery(compiled: CompiledQuery, lexicon: TypoLexicon): Query | null {
  const branches: Query[] = [];
  for (const g of compiled.groups) {
    if (g.must.length === 0) return null;
    branches.push({
      combineWith: 'AND',
      queries: g.must.map((op): Query => {
        if (op.parts.length > 1) return { combineWith: 'AND', queries: op.parts.map((p) => p.lexeme) };
        const terms = new Set([op.parts[0]!.lexeme]);
        for (const w of op.typo === null ? [] : lexicon.typoWords(op.typo)) {
          const lexeme = lexemeOf(w, compiled.language);
          if (lexeme !== null) terms.add(lexeme);
        }
        return { combineWith: 'OR', queries: [...terms] };
      }),
    });
  }
  return { combineWith: 'OR', queries: branches };
}

/** Whether MiniSearch's answer to candidateQuery is already the exact match set: every operand a
 * single lexeme, none a phrase, exclusion or typo-eligible word. */
export function candidatesAreExact(compiled: CompiledQuery): boolean {
  return compiled.groups.every((g) => g.not.length === 0 && g.must.every((op) => op.parts.length === 1 && op.typo === null));
}
