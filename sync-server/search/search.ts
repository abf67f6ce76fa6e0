// Server search over clips, playlists and recordings with PostgreSQL's full-text search (the
// vectors and the lexicon are kept by the database: migrations/0480_search.sql). The query text is
// parsed by the domain (src/domain/search.ts parseQuery) so the server and the offline search see
// the same structure; each operand goes through websearch_to_tsquery in each content language,
// a plain word also taking the lexicon words within trigram similarity TYPO_SIMILARITY (typos,
// partial words; pg_trgm's rule in plain SQL, migrations/0650_search_lexicon_trigrams.sql):
//
//   parsed ──one statement (searchInputs)──> the organization's programs, and the tsquery text
//            per configuration (english, german, simple)
//          ──second statement──> rows of readable programs whose vector in their own configuration
//            matches (configurations with the same tsquery as one condition), filtered, sorted
//            (ts_rank for Relevance), LIMIT pageSize + 1 (clips: the page of ids from the narrow
//            clip_search, then those rows of clips)
import type { Paged } from '../../src/domain/paging.ts';
import {
  FIELD_WEIGHT,
  isBlankQuery,
  RANK_WEIGHTS,
  TYPO_SIMILARITY,
  typoTermOf,
  type ParsedQuery,
  type QueryOperand,
  type SearchField,
  type SearchLanguage,
  type SearchSort,
} from '../../src/domain/search.ts';
import { paged, type Page } from '../api/lists.ts';
import { ENTITIES, pageOf as withPlaylistIds, toWire, type DbRow, type WireRow } from '../rows.ts';
import type { ProgramRef } from '../mutations/store.ts';
import type { Queryable } from '../store/store.ts';

export type SearchEntity = 'clip' | 'playlist' | 'recording';

export type SearchSpec = {
  organizationId: string;
  /** The programs searched: readable by the caller, after every program filter. */
  programIds: readonly string[];
  query: ParsedQuery;
  /** filterBy: the fields searched (null or empty: all). */
  fields: readonly SearchField[] | null;
  /** visibilityFilter (clips and playlists; null or empty: any). */
  visibility: readonly string[] | null;
  /** Created dates, local to timeZone, both included. */
  createdFrom: string | null;
  createdTo: string | null;
  timeZone: string;
  sort: SearchSort;
  page: Page;
  /** Recordings: breakType and rating. */
  breakTypes?: readonly string[] | null;
  ratings?: readonly number[] | null;
  /** The query's tsqueries when already read (searchInputs); read here otherwise. */
  tsqueries?: Record<SearchLanguage, string> | null;
};

const CONFIGS: readonly SearchLanguage[] = ['english', 'german', 'simple'];

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The text of one operand as websearch_to_tsquery reads it (SQL), its text as parameter `p`: a
 * plain word also takes the lexicon words within TYPO_SIMILARITY, ORed. Computed once per operand
 * and read by the three configurations (the lexicon scan is most of the statement's time).
 */
function operandTextSql(op: QueryOperand, p: string): string {
  if (typoTermOf(op) === null) return p;
  return `${p} || coalesce(' or ' || search_similar_words(${p}, ${TYPO_SIMILARITY}), '')`;
}

/** The whole query in one configuration: groups ORed, operands ANDed, exclusions negated; each
 *  operand's text is the column `textOf` names. */
function querySql(parsed: ParsedQuery, config: SearchLanguage, textOf: Map<QueryOperand, string>): string {
  const operand = (o: QueryOperand) => `websearch_to_tsquery('${config}', ${textOf.get(o)!})`;
  return parsed.groups
    .map((g) => {
      const parts = [...g.must.map(operand), ...g.not.map((o) => `!!(${operand(o)})`)];
      return `(${parts.join(' && ')})`;
    })
    .join(' || ');
}

/** The SELECT list and FROM of the tsquery text per configuration (`english`, `german`, `simple`),
 *  its operands' texts added to `params`. */
function tsqueriesSql(parsed: ParsedQuery, params: Params): { columns: string; from: string } {
  const textOf = new Map<QueryOperand, string>();
  const texts: string[] = [];
  for (const g of parsed.groups)
    for (const o of [...g.must, ...g.not]) {
      textOf.set(o, `o.o${texts.length}`);
      texts.push(`${operandTextSql(o, params.add(o.text))} AS o${texts.length}`);
    }
  return { columns: CONFIGS.map((c) => `(${querySql(parsed, c, textOf)})::text AS ${c}`).join(', '), from: `(SELECT ${texts.join(', ')}) o` };
}

/** The tsquery text of the parsed query in each configuration (empty text: no lexemes). */
export async function tsqueriesOf(q: Queryable, parsed: ParsedQuery): Promise<Record<SearchLanguage, string>> {
  const params = new Params();
  const { columns, from } = tsqueriesSql(parsed, params);
  const [row] = await q.query<Record<SearchLanguage, string>>(`SELECT ${columns} FROM ${from}`, params.values);
  return row!;
}

/** What a search reads before its page: the organization's programs (the caller's rules choose
 *  among them) and, for a query with text, its tsquery per configuration. */
export type SearchInputs = { programs: ProgramRef[]; tsqueries: Record<SearchLanguage, string> | null };

/** SearchInputs in one statement: one round trip to the database less per search. */
export async function searchInputs(q: Queryable, organizationId: string, parsed: ParsedQuery): Promise<SearchInputs> {
  const params = new Params();
  const programs = `(SELECT coalesce(json_agg(json_build_object('id', p.id, 'network_id', p.network_id, 'slug', p.slug, 'deleted', p.deleted)), '[]') FROM programs p WHERE p.organization_id = ${params.add(organizationId)}) AS programs`;
  if (isBlankQuery(parsed)) {
    const [row] = await q.query<{ programs: ProgramRef[] }>(`SELECT ${programs}`, params.values);
    return { programs: row!.programs, tsqueries: null };
  }
  const { columns, from } = tsqueriesSql(parsed, params);
  const [row] = await q.query<Record<SearchLanguage, string> & { programs: ProgramRef[] }>(`SELECT ${programs}, ${columns} FROM ${from}`, params.values);
  const { programs: list, english, german, simple } = row!;
  return { programs: list, tsqueries: { english, german, simple } };
}

/**
 * The rows of each configuration matched against its own tsquery, configurations whose tsqueries
 * are the same text taken together: a word most languages stem alike ('interview') is one index
 * condition, not three the planner plans and the index scans again. `rows`: the SQL condition on
 * t.search_config (null: every row); the last arm's rows are the rest, as a CASE's ELSE.
 */
function configArms(tsq: Record<SearchLanguage, string>): Array<{ rows: string | null; tsquery: string }> {
  const byText = new Map<string, SearchLanguage[]>();
  for (const c of CONFIGS) byText.set(tsq[c], [...(byText.get(tsq[c]) ?? []), c]);
  // 'simple' stands for every configuration other than english and german.
  const rowsOf = (configs: SearchLanguage[]): string | null => {
    if (configs.length === CONFIGS.length) return null;
    if (!configs.includes('simple')) return `t.search_config IN (${configs.map((c) => `'${c}'`).join(', ')})`;
    const others = CONFIGS.filter((c) => c !== 'simple' && !configs.includes(c));
    return `t.search_config NOT IN (${others.map((c) => `'${c}'`).join(', ')})`;
  };
  // The arm holding 'simple' last: it is the CASE's ELSE.
  return [...byText].sort(([, a], [, b]) => Number(a.includes('simple')) - Number(b.includes('simple'))).map(([tsquery, configs]) => ({ rows: rowsOf(configs), tsquery }));
}

const META_COLUMNS = ['id', 'organization_id', 'data', 'created_at_utc', 'created_by_id', 'modified_at_utc', 'modified_by_id', 'deleted', 'version'];

/** A page of matching rows, as the entity's list routes answer them. */
export async function searchRows(q: Queryable, entity: SearchEntity, spec: SearchSpec): Promise<Paged<WireRow>> {
  const { page } = spec;
  if (spec.programIds.length === 0) return paged([], page);
  const def = ENTITIES[entity];
  const params = new Params();
  const where = [`t.organization_id = ${params.add(spec.organizationId)}`, 'NOT t.deleted', `t.program_id = ANY(${params.add(spec.programIds)}::uuid[])`];
  if (spec.visibility && spec.visibility.length > 0 && entity !== 'recording') where.push(`t.visibility = ANY(${params.add(spec.visibility)}::text[])`);
  if (spec.createdFrom || spec.createdTo) {
    const tz = params.add(spec.timeZone);
    if (spec.createdFrom) where.push(`t.created_at_utc >= (${params.add(spec.createdFrom)}::date)::timestamp AT TIME ZONE ${tz}`);
    if (spec.createdTo) where.push(`t.created_at_utc < ((${params.add(spec.createdTo)}::date) + 1)::timestamp AT TIME ZONE ${tz}`);
  }
  if (entity === 'recording' && spec.breakTypes && spec.breakTypes.length > 0) where.push(`t.data ->> 'BreakType' = ANY(${params.add(spec.breakTypes)}::text[])`);
  if (entity === 'recording' && spec.ratings && spec.ratings.length > 0) where.push(`(t.data ->> 'Rating')::numeric = ANY(${params.add(spec.ratings)}::numeric[])`);

  let rank = '';
  if (!isBlankQuery(spec.query)) {
    const tsq = spec.tsqueries ?? (await tsqueriesOf(q, spec.query));
    const weights = [...new Set((spec.fields ?? []).map((f) => FIELD_WEIGHT[f].toLowerCase()))];
    const all = weights.length === 0 || weights.length === Object.keys(FIELD_WEIGHT).length;
    const vector = all ? 't.search_vector' : `ts_filter(t.search_vector, ${params.add(`{${weights.join(',')}}`)}::"char"[])`;
    // The plain vector's @@ lets the GIN index find candidates; with fewer fields it is only a
    // necessary condition when nothing is excluded (an excluded word elsewhere must not hide a row).
    const negates = spec.query.groups.some((g) => g.not.length > 0);
    const arms = configArms(tsq).map(({ rows, tsquery }) => ({ rows, tsquery: `${params.add(tsquery)}::tsquery` }));
    const cond = ({ rows, tsquery }: (typeof arms)[number]) => {
      const index = `t.search_vector @@ ${tsquery}`;
      const match = all ? index : negates ? `${vector} @@ ${tsquery}` : `${index} AND ${vector} @@ ${tsquery}`;
      return rows === null ? `(${match})` : `(${rows} AND ${match})`;
    };
    where.push(`(${arms.map(cond).join(' OR ')})`);
    if (spec.sort === 'Relevance') {
      const tsquery = arms.length === 1 ? arms[0]!.tsquery : `CASE ${arms.map((a, i) => (i === arms.length - 1 ? `ELSE ${a.tsquery}` : `WHEN ${a.rows} THEN ${a.tsquery}`)).join(' ')} END`;
      rank = `, ts_rank('{${RANK_WEIGHTS.join(',')}}', ${vector}, ${tsquery}) AS rank`;
    }
  }
  const byDate = spec.sort === 'DateOldest' ? 'created_at_utc, t.id' : 'created_at_utc DESC, t.id';
  const inner = rank ? `rank DESC, t.${byDate}` : `t.${byDate}`;
  const outer = rank ? `t.rank DESC, t.${byDate}` : `t.${byDate}`;
  const columnsOf = (alias: string) => [...META_COLUMNS, ...Object.values(def.columns).map(([column]) => column)].map((c) => `${alias}.${c}`).join(', ');
  const limit = `LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`;
  // Clips with a query: the page of ids is found, ranked and sorted in clip_search (every column
  // filtered above is there: migrations/0547_clip_search.sql says why), then only that page is read
  // from clips. The page's order is the outer one (withPlaylistIds), on the columns kept here.
  const sql =
    entity === 'clip' && !isBlankQuery(spec.query)
      ? `SELECT ${columnsOf('c')}${rank ? ', r.rank' : ''} FROM (SELECT t.id${rank} FROM clip_search t WHERE ${where.join(' AND ')} ORDER BY ${inner} ${limit}) r JOIN clips c ON c.id = r.id`
      : `SELECT ${columnsOf('t')}${rank} FROM ${def.table} t WHERE ${where.join(' AND ')} ORDER BY ${inner} ${limit}`;
  const rows = await q.query<DbRow>(entity === 'clip' ? withPlaylistIds('clip', sql, outer) : sql, params.values);
  return paged(
    rows.map((r) => toWire(entity, r)),
    page,
  );
}
