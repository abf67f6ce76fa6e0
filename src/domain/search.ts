// Search (specification section 2 "Search", section 6 "Content search types", section 7
// /v1/clips/search, /v1/playlists/search, /v1/recordings/search): the rules the server, the
// offline worker and the screens share, written once so that they agree on what a MATCH is.
//
//   text ──parseQuery──> groups (OR) of operands (AND, some negated), PostgreSQL's websearch syntax
//   row ──searchableFields──> {Title, Description, Annotations, Transcript} ──analyzeDocument──>
//        lexemes with positions and weights (A, B, C, D), as to_tsvector(config, …) makes them
//   compileQuery(parsed, language) + analyzed document ──matchesAnalyzed──> boolean
//
// The server does the same with PostgreSQL's own full-text search (sync-server/search): the
// document vectors are kept by the database, each operand goes through websearch_to_tsquery, and
// the typo rule reads the lexicon's trigrams (pg_trgm's rule in SQL). What must agree, and does:
//   - words: runs of letters and digits, lower-cased; a word with a digit ('S10', '2024') is kept
//     as it is ('simple'), a word of letters is dropped when it is a stop word of the language and
//     stemmed otherwise, by the same Snowball stemmers PostgreSQL's `english` and `german`
//     configurations use (snowball-stemmers; search.test.ts checks them against ts_lexize);
//     `simple` (any other language) only lower-cases. Every word takes a position, stop words too,
//     so "mayor of london" is mayor, then london two places on.
//   - the content language is the program's Language ('en…' → english, 'de…' → german, else simple).
//   - fields: Title (weight A: the title, the tags, the season/episode labels 'S10' 'E3' 'S10E3'),
//     Description (B), Annotations (C), Transcript (D, ranked like C); concatenated as tsvector ||
//     concatenates (each field's positions after the largest of the fields before it).
//   - typos: a plain word of at least TYPO_MIN_LENGTH letters also matches a word of the document
//     whose pg_trgm similarity to it is at least TYPO_SIMILARITY (trigramSimilarity below is
//     pg_trgm's similarity(): trigrams of the word padded with two spaces before and one after).
// Known differences, left alone: PostgreSQL's parser also indexes a hyphenated word whole
// ('well-known' besides 'well' and 'known') and keeps '3.5' as one number; here they are parts.
import snowball from 'snowball-stemmers';
import { parseIsoDate } from './dates.ts';
import { formError, type FormError } from './form-errors.ts';
import { searchableContentTypes, searchTypeFilter, SEARCH_FIELDS, SEARCH_SORTS, type PermissionEntry } from './permissions.ts';

export { SEARCH_FIELDS, SEARCH_SORTS };

// ── Types, fields, sorts (sections 2 and 6) ─────────────────────────────────────────────────

/** The type filter list: it always starts with 'all' (section 2). */
export const SEARCH_TYPES = ['all', 'clip', 'program', 'playlist', 'recording'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export type SearchField = (typeof SEARCH_FIELDS)[number];
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Whether the organization's type allows recordings (section 6): broadcasters record. */
export function organizationAllowsRecordings(organization: { Provider?: unknown; IsBroadcaster?: unknown }): boolean {
  return organization.IsBroadcaster === true || organization.Provider === 'Broadcaster';
}

/**
 * The type filter of section 6 for the caller: 'all' first, then clip, program and playlist when
 * any entry grants content access (+ recording when the organization type allows it); without
 * content access only program.
 */
export function searchTypesFor(entries: readonly PermissionEntry[], organization: { Provider?: unknown; IsBroadcaster?: unknown }): SearchType[] {
  return searchTypeFilter(searchableContentTypes(entries, { allowsRecordings: organizationAllowsRecordings(organization) }));
}

/** The sort when none is asked for: Relevance with a query, else the newest first. */
export function defaultSort(filter: string | null | undefined): SearchSort {
  return filter && filter.trim() !== '' ? 'Relevance' : 'DateNewest';
}

/**
 * hiddenProgramContentFilter: what to do with the content of hidden programs, programs the caller
 * sees that are deleted (their content is in no list of the studio): leave it out (Exclude, the
 * default), add it (Include), or only it (Only).
 */
export const HIDDEN_PROGRAM_CONTENT_FILTERS = ['Exclude', 'Include', 'Only'] as const;
export type HiddenProgramContentFilter = (typeof HIDDEN_PROGRAM_CONTENT_FILTERS)[number];

/** The longest query text accepted (characters). */
export const SEARCH_FILTER_MAX_LENGTH = 500;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A created date (YYYY-MM-DD, local to timeZoneIanaId): null when valid or absent. */
export function validateSearchDate(value: string | undefined): FormError | null {
  if (value === undefined || value.trim() === '') return null;
  return DATE_ONLY.test(value.trim()) && parseIsoDate(value.trim()) !== null ? null : formError('dateInvalid', 'domain_date_invalid');
}

/** createdEndDate before createdStartDate: 'reversed' (on the end). */
export function validateSearchDateRange(start: string | undefined, end: string | undefined): FormError | null {
  if (!start?.trim() || !end?.trim() || validateSearchDate(start) || validateSearchDate(end)) return null;
  return end.trim() < start.trim() ? formError('reversed', 'domain_date_reversed') : null;
}

/** The weight of each field in the document vector (setweight). Transcript ranks like C. */
export const FIELD_WEIGHT: Record<SearchField, 'A' | 'B' | 'C' | 'D'> = { Title: 'A', Description: 'B', Annotations: 'C', Transcript: 'D' };
/** ts_rank's weights {D, C, B, A}: Transcript (D) counts as much as Annotations (C). */
export const RANK_WEIGHTS = [0.2, 0.2, 0.4, 1.0] as const;
/** The fields in vector order (Title || Description || Annotations || Transcript). */
export const FIELD_ORDER: readonly SearchField[] = ['Title', 'Description', 'Annotations', 'Transcript'];

// ── Languages ───────────────────────────────────────────────────────────────────────────────

/** PostgreSQL text-search configurations used for content. */
export const SEARCH_LANGUAGES = ['english', 'german', 'simple'] as const;
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];

/** The configuration for a program's Language code ('en', 'en-us', 'de-at', …); `simple` otherwise.
 *  The database's search_config_of() (sync-server/search/migrations) is the same rule. */
export function searchLanguageOf(code: string | null | undefined): SearchLanguage {
  const base = (code ?? '').trim().toLowerCase().split(/[-_]/)[0];
  if (base === 'en') return 'english';
  if (base === 'de') return 'german';
  return 'simple';
}

// PostgreSQL's tsearch_data/english.stop and german.stop, word for word.
const ENGLISH_STOP =
  'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now';
const GERMAN_STOP =
  'aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes anderm andern anderr anders auch auf aus bei bin bis bist da damit dann der den des dem die das daß derselbe derselben denselben desselben demselben dieselbe dieselben dasselbe dazu dein deine deinem deinen deiner deines denn derer dessen dich dir du dies diese diesem diesen dieser dieses doch dort durch ein eine einem einen einer eines einig einige einigem einigen einiger einiges einmal er ihn ihm es etwas euer eure eurem euren eurer eures für gegen gewesen hab habe haben hat hatte hatten hier hin hinter ich mich mir ihr ihre ihrem ihren ihrer ihres euch im in indem ins ist jede jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann kein keine keinem keinen keiner keines können könnte machen man manche manchem manchen mancher manches mein meine meinem meinen meiner meines mit muss musste nach nicht nichts noch nun nur ob oder ohne sehr sein seine seinem seinen seiner seines selbst sich sie ihnen sind so solche solchem solchen solcher solches soll sollte sondern sonst über um und uns unse unsem unsen unser unses unter viel vom von vor während war waren warst was weg weil weiter welche welchem welchen welcher welches wenn werde werden wie wieder will wir wird wirst wo wollen wollte würde würden zu zum zur zwar zwischen';

const STOP: Record<SearchLanguage, ReadonlySet<string>> = {
  english: new Set(ENGLISH_STOP.split(' ')),
  german: new Set(GERMAN_STOP.split(' ')),
  simple: new Set(),
};

const stemmers = new Map<SearchLanguage, (word: string) => string>();
function stemmerOf(language: SearchLanguage): (word: string) => string {
  let stem = stemmers.get(language);
  if (!stem) {
    if (language === 'simple') stem = (w) => w;
    else {
      const s = snowball.newStemmer(language);
      const cache = new Map<string, string>();
      stem = (w) => {
        let out = cache.get(w);
        if (out === undefined) {
          out = s.stem(w);
          if (cache.size > 50_000) cache.clear();
          cache.set(w, out);
        }
        return out;
      };
    }
    stemmers.set(language, stem);
  }
  return stem;
}

// ── Words ───────────────────────────────────────────────────────────────────────────────────

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const HAS_DIGIT = /\p{N}/u;

/** A word of a text: where it is (UTF-16 offsets) and its lower-cased form. */
export type Word = { start: number; end: number; word: string };

export function wordsOf(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(WORD)) out.push({ start: m.index, end: m.index + m[0].length, word: m[0].toLowerCase() });
  return out;
}

/** wordsOf's words only (lower-cased), without their places: what an index reads. */
export function wordListOf(text: string): string[] {
  const found = text.match(WORD);
  if (found === null) return [];
  for (let i = 0; i < found.length; i++) found[i] = found[i]!.toLowerCase();
  return found;
}

/** The lexeme a lower-cased word becomes under the configuration, or null for a stop word. */
export function lexemeOf(word: string, language: SearchLanguage): string | null {
  if (HAS_DIGIT.test(word)) return word; // numword / int: the simple dictionary
  if (STOP[language].has(word)) return null;
  return stemmerOf(language)(word);
}

// ── Trigrams (pg_trgm) ──────────────────────────────────────────────────────────────────────

/** A plain word at least this long may match by trigrams (typos, partial words). */
export const TYPO_MIN_LENGTH = 4;
/** pg_trgm similarity at which a word of the document matches a query word. */
export const TYPO_SIMILARITY = 0.4;
/** Lexicon words (the typo rule's candidates) are 3 to 40 letters long, without digits. */
export const LEXICON_MIN_LENGTH = 3;
export const LEXICON_MAX_LENGTH = 40;

/** pg_trgm's show_trgm for text: the distinct trigrams of each word, padded '  w' … 'd '. */
export function trigramsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const { word } of wordsOf(text)) {
    const chars = [' ', ' ', ...word, ' '];
    for (let i = 0; i + 3 <= chars.length; i++) out.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  }
  return out;
}

/** pg_trgm's similarity(a, b): shared trigrams over all distinct trigrams of the two. */
export function trigramSimilarity(a: string, b: string): number {
  const ta = trigramsOf(a);
  const tb = trigramsOf(b);
  if (ta.size === 0 || tb.size === 0) return 0;
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  return common / (ta.size + tb.size - common);
}

/** Whether a word goes into the typo lexicon (the database's search_lexicon keeps the same). */
export function isLexiconWord(word: string): boolean {
  const n = [...word].length;
  return n >= LEXICON_MIN_LENGTH && n <= LEXICON_MAX_LENGTH && !HAS_DIGIT.test(word);
}

// ── Query syntax (websearch_to_tsquery) ─────────────────────────────────────────────────────

/** One operand: a word or a "quoted phrase"; `text` is what is handed to websearch_to_tsquery. */
export type QueryOperand = { text: string; words: string[]; quoted: boolean };
/** Operands that must all match, and operands that must not. */
export type QueryGroup = { must: QueryOperand[]; not: QueryOperand[] };
/** The groups, any of which may match (OR binds loosest, as in websearch_to_tsquery). */
export type ParsedQuery = { groups: QueryGroup[] };

/** A query that is blank: no text condition at all (every row matches the filters). */
export function isBlankQuery(q: ParsedQuery): boolean {
  return q.groups.length === 0;
}

/**
 * PostgreSQL's websearch syntax as a plain structure: words are ANDed, "a quoted phrase" is one
 * operand, a '-' before a word or a quote excludes it, OR (any case, between operands) separates
 * alternatives and binds loosest: `a b or c` is (a AND b) OR c. An unclosed quote runs to the end.
 */
export function parseQuery(text: string): ParsedQuery {
  const groups: QueryGroup[] = [];
  let current: QueryGroup = { must: [], not: [] };
  let negate = false;
  let i = 0;
  const push = (op: QueryOperand) => {
    (negate ? current.not : current.must).push(op);
    negate = false;
  };
  const close = () => {
    if (current.must.length > 0 || current.not.length > 0) groups.push(current);
    current = { must: [], not: [] };
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '-') {
      negate = true;
      i++;
      continue;
    }
    if (ch === '"') {
      const end = text.indexOf('"', i + 1);
      const inner = text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end + 1;
      const words = wordsOf(inner).map((w) => w.word);
      if (words.length > 0) push({ text: `"${words.join(' ')}"`, words, quoted: true });
      else negate = false;
      continue;
    }
    let j = i;
    while (j < text.length && !/\s/.test(text[j]!) && text[j] !== '"') j++;
    const raw = text.slice(i, j);
    i = j;
    if (raw.toLowerCase() === 'or' && !negate) {
      // OR between two operands; a leading, trailing or doubled OR is ignored.
      if (current.must.length > 0 || current.not.length > 0) close();
      continue;
    }
    const words = wordsOf(raw).map((w) => w.word);
    if (words.length === 0) {
      negate = false;
      continue;
    }
    push({ text: words.length === 1 ? words[0]! : `"${words.join(' ')}"`, words, quoted: false });
  }
  close();
  return { groups };
}

// ── Documents ───────────────────────────────────────────────────────────────────────────────

/** The searchable text of a row per field (section 2's search-by fields). */
export type SearchableFields = Record<SearchField, string>;
export type SearchKind = Exclude<SearchType, 'all'>;

/** 'S10', 'E3' and 'S10E3' for a clip's Season and Episode (what people type). */
export function seasonEpisodeTerms(row: { Season?: number | null; Episode?: number | null }): string[] {
  const s = row.Season ?? null;
  const e = row.Episode ?? null;
  const out: string[] = [];
  if (s !== null) out.push(`S${s}`);
  if (e !== null) out.push(`E${e}`);
  if (s !== null && e !== null) out.push(`S${s}E${e}`);
  return out;
}

type AnnotationLike = { OffsetSeconds: number; Id: string; Text: string; Deleted?: boolean };

/** Annotations' text in the order the database joins them: by OffsetSeconds, then Id. */
export function annotationsText(annotations: readonly AnnotationLike[]): string {
  return annotations
    .filter((a) => !a.Deleted)
    .slice()
    .sort((a, b) => a.OffsetSeconds - b.OffsetSeconds || (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0))
    .map((a) => a.Text)
    .join(' ');
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const joined = (parts: readonly string[]) => parts.filter((p) => p !== '').join(' ');

/**
 * The text of each search-by field of a row (the database's search triggers build the same):
 *   clip      Title = title, tags, 'S10 E3 S10E3'; Description; Transcript
 *   playlist  Title, Description
 *   recording Title, Description, Annotations (its annotations' text), Transcript
 *   program   Title = Name, Description
 * Transcript text is `extra.transcript` (none is stored yet: issue 34 adds it; empty until then).
 */
export function searchableFields(kind: SearchKind, row: Record<string, unknown>, extra: { annotations?: readonly AnnotationLike[]; transcript?: string | null } = {}): SearchableFields {
  const transcript = extra.transcript ?? '';
  switch (kind) {
    case 'clip': {
      const tags = Array.isArray(row['Tags']) ? (row['Tags'] as unknown[]).filter((t): t is string => typeof t === 'string') : [];
      const se = seasonEpisodeTerms({ Season: typeof row['Season'] === 'number' ? row['Season'] : null, Episode: typeof row['Episode'] === 'number' ? row['Episode'] : null });
      return { Title: joined([str(row['Title']), joined(tags), joined(se)]), Description: str(row['Description']), Annotations: '', Transcript: transcript };
    }
    case 'playlist':
      return { Title: str(row['Title']), Description: str(row['Description']), Annotations: '', Transcript: '' };
    case 'recording':
      return { Title: str(row['Title']), Description: str(row['Description']), Annotations: annotationsText(extra.annotations ?? []), Transcript: transcript };
    case 'program':
      return { Title: str(row['Name']), Description: str(row['Description']), Annotations: '', Transcript: '' };
  }
}

/** A document as to_tsvector makes it: each lexeme's positions and their field; and its words. */
export type AnalyzedDocument = {
  language: SearchLanguage;
  lexemes: Map<string, Array<{ pos: number; field: SearchField }>>;
  /** The document's lexicon words per field (the typo rule's candidates). */
  words: Map<string, Set<SearchField>>;
};

export function analyzeDocument(fields: SearchableFields, language: SearchLanguage): AnalyzedDocument {
  const lexemes: AnalyzedDocument['lexemes'] = new Map();
  const words: AnalyzedDocument['words'] = new Map();
  let shift = 0;
  for (const field of FIELD_ORDER) {
    let maxPos = 0;
    const ws = wordsOf(fields[field]);
    for (let i = 0; i < ws.length; i++) {
      const w = ws[i]!.word;
      const lex = lexemeOf(w, language);
      if (lex === null) continue;
      const pos = i + 1;
      maxPos = pos;
      let list = lexemes.get(lex);
      if (!list) lexemes.set(lex, (list = []));
      list.push({ pos: pos + shift, field });
      if (isLexiconWord(w)) {
        let set = words.get(w);
        if (!set) words.set(w, (set = new Set()));
        set.add(field);
      }
    }
    // tsvector || shifts the right side's positions by the largest position on the left.
    shift += maxPos;
  }
  return { language, lexemes, words };
}

// ── Matching ────────────────────────────────────────────────────────────────────────────────

type CompiledOperand = {
  /** Lexemes and their distance from the first (stop words count), as a phrase needs them. */
  parts: Array<{ lexeme: string; offset: number }>;
  /** A plain word the typo rule applies to (lower-cased), or null. */
  typo: string | null;
};
type CompiledGroup = { must: CompiledOperand[]; not: CompiledOperand[] };
/** A query for one language; `empty`: it has no lexemes (matches nothing, as in PostgreSQL). */
export type CompiledQuery = { language: SearchLanguage; blank: boolean; empty: boolean; groups: CompiledGroup[] };

/** The word of an operand that the typo rule applies to (lower-cased), or null: a plain (unquoted)
 *  single word of letters, at least TYPO_MIN_LENGTH long. Exclusions never take typos. */
export function typoTermOf(op: QueryOperand): string | null {
  const only = op.words.length === 1 ? op.words[0]! : null;
  return !op.quoted && only !== null && !HAS_DIGIT.test(only) && [...only].length >= TYPO_MIN_LENGTH ? only : null;
}

function compileOperand(op: QueryOperand, language: SearchLanguage): CompiledOperand | null {
  const parts: CompiledOperand['parts'] = [];
  let first = -1;
  op.words.forEach((w, i) => {
    const lexeme = lexemeOf(w, language);
    if (lexeme === null) return;
    if (first < 0) first = i;
    parts.push({ lexeme, offset: i - first });
  });
  if (parts.length === 0) return null; // only stop words: PostgreSQL drops the operand
  return { parts, typo: typoTermOf(op) };
}

export function compileQuery(parsed: ParsedQuery | string, language: SearchLanguage): CompiledQuery {
  const q = typeof parsed === 'string' ? parseQuery(parsed) : parsed;
  if (isBlankQuery(q)) return { language, blank: true, empty: false, groups: [] };
  const groups: CompiledGroup[] = [];
  for (const g of q.groups) {
    const must = g.must.map((o) => compileOperand(o, language)).filter((o): o is CompiledOperand => o !== null);
    const not = g.not.map((o) => compileOperand(o, language)).filter((o): o is CompiledOperand => o !== null);
    if (must.length > 0 || not.length > 0) groups.push({ must, not });
  }
  return { language, blank: false, empty: groups.length === 0, groups };
}

/** Options of a match: the fields searched (filterBy; all when empty or absent). */
export type MatchOptions = { fields?: readonly SearchField[] | null };

function allowedFields(options: MatchOptions): ReadonlySet<SearchField> {
  return new Set(options.fields && options.fields.length > 0 ? options.fields : FIELD_ORDER);
}

function positionsOf(doc: AnalyzedDocument, lexeme: string, fields: ReadonlySet<SearchField>): number[] {
  return (doc.lexemes.get(lexeme) ?? []).filter((p) => fields.has(p.field)).map((p) => p.pos);
}

/** The document's lexemes that a typo-eligible word reaches by trigram similarity. */
function typoLexemes(doc: AnalyzedDocument, word: string, fields: ReadonlySet<SearchField>): string[] {
  const out: string[] = [];
  for (const [w, inFields] of doc.words) {
    if (![...inFields].some((f) => fields.has(f))) continue;
    if (w !== word && trigramSimilarity(word, w) >= TYPO_SIMILARITY) {
      const lex = lexemeOf(w, doc.language);
      if (lex !== null) out.push(lex);
    }
  }
  return out;
}

function operandMatches(op: CompiledOperand, doc: AnalyzedDocument, fields: ReadonlySet<SearchField>, useTypos: boolean): boolean {
  if (op.parts.length === 1) {
    if (positionsOf(doc, op.parts[0]!.lexeme, fields).length > 0) return true;
    return useTypos && op.typo !== null && typoLexemes(doc, op.typo, fields).some((l) => positionsOf(doc, l, fields).length > 0);
  }
  const [head, ...rest] = op.parts;
  const restPositions = rest.map((p) => new Set(positionsOf(doc, p.lexeme, fields)));
  return positionsOf(doc, head!.lexeme, fields).some((start) => rest.every((p, i) => restPositions[i]!.has(start + p.offset)));
}

/** Whether an analyzed document matches a compiled query (same language). */
export function matchesAnalyzed(query: CompiledQuery, doc: AnalyzedDocument, options: MatchOptions = {}): boolean {
  if (query.blank) return true;
  if (query.empty) return false;
  const fields = allowedFields(options);
  return query.groups.some((g) => g.must.every((o) => operandMatches(o, doc, fields, true)) && !g.not.some((o) => operandMatches(o, doc, fields, false)));
}

/** The MATCH: whether a row's fields, in its content language, match the query text. */
export function documentMatches(query: ParsedQuery | string, fields: SearchableFields, language: SearchLanguage, options: MatchOptions = {}): boolean {
  return matchesAnalyzed(compileQuery(query, language), analyzeDocument(fields, language), options);
}

// ── Highlighting ────────────────────────────────────────────────────────────────────────────

export type HighlightSegment = { text: string; match: boolean };

/** The text cut into segments, the words that match a (non-excluded) query word marked. */
export function highlight(text: string, query: ParsedQuery | string, language: SearchLanguage): HighlightSegment[] {
  const compiled = compileQuery(query, language);
  const lexemes = new Set<string>();
  const typos: string[] = [];
  for (const g of compiled.groups)
    for (const o of g.must) {
      for (const p of o.parts) lexemes.add(p.lexeme);
      if (o.typo) typos.push(o.typo);
    }
  const segments: HighlightSegment[] = [];
  let at = 0;
  for (const w of wordsOf(text)) {
    const lex = lexemeOf(w.word, language);
    const hit = lex !== null && (lexemes.has(lex) || (isLexiconWord(w.word) && typos.some((t) => trigramSimilarity(t, w.word) >= TYPO_SIMILARITY)));
    if (!hit) continue;
    if (w.start > at) segments.push({ text: text.slice(at, w.start), match: false });
    segments.push({ text: text.slice(w.start, w.end), match: true });
    at = w.end;
  }
  if (at < text.length || segments.length === 0) segments.push({ text: text.slice(at), match: false });
  return segments;
}
