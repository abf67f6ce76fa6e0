// Server search over clips, playlists and recordings with PostgreSQL's full-text search (the
// vectors and the lexicon are kept by the database: migrations/0480_search.sql). The query text is
// parsed by the domain (src/domain/search.ts parseQuery) so the server and the offline search see
// the same structure; each operand goes through websearch_to_tsquery in each content language,
// a plain word also taking the lexicon words within pg_trgm similarity TYPO_SIMILARITY (typos,
// partial words):
//
//   parsed ──one statement──> tsquery text per configuration (english, german, simple)
//          ──second statement──> rows of readable programs whose vector in their own configuration
//            matches, filtered, sorted (ts_rank for Relevance), LIMIT pageSize + 1 (clips: the
//            page of ids from the narrow clip_search, then those rows of clips)
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
};

const CONFIGS: readonly SearchLanguage[] = ['english', 'german', 'simple'];

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The tsquery of one operand in one configuration (SQL), its text as parameter `p`. */
function operandSql(op: QueryOperand, config: SearchLanguage, p: string): string {
  if (typoTermOf(op) === null) return `websearch_to_tsquery('${config}', ${p})`;
  const similar = `(SELECT ' or ' || string_agg(DISTINCT l.word, ' or ') FROM search_lexicon l WHERE l.word % ${p} AND similarity(l.word, ${p}) >= ${TYPO_SIMILARITY})`;
  return `websearch_to_tsquery('${config}', ${p} || coalesce(${similar}, ''))`;
}

/** The whole query in one configuration: groups ORed, operands ANDed, exclusions negated. */
function querySql(parsed: ParsedQuery, config: SearchLanguage, paramOf: Map<QueryOperand, string>): string {
  return parsed.groups
    .map((g) => {
      const parts = [...g.must.map((o) => operandSql(o, config, paramOf.get(o)!)), ...g.not.map((o) => `!!(${operandSql(o, config, paramOf.get(o)!)})`)];
      return `(${parts.join(' && ')})`;
    })
    .join(' || ');
}

/** The tsquery text of the parsed query in each configuration (empty text: no lexemes). */
export async function tsqueriesOf(q: Queryable, parsed: ParsedQuery): Promise<Record<SearchLanguage, string>> {
  const params = new Params();
  const paramOf = new Map<QueryOperand, string>();
  for (const g of parsed.groups) for (const o of [...g.must, ...g.not]) paramOf.set(o, params.add(o.text));
  const [row] = await q.query<Record<SearchLanguage, string>>(
    `SELECT ${CONFIGS.map((c) => `(${querySql(parsed, c, paramOf)})::text AS ${c}`).join(', ')}`,
    params.values,
  );
  return row!;
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
    const tsq = await tsqueriesOf(q, spec.query);
    const qp = Object.fromEntries(CONFIGS.map((c) => [c, `${params.add(tsq[c])}::tsquery`])) as Record<SearchLanguage, string>;
    const weights = [...new Set((spec.fields ?? []).map((f) => FIELD_WEIGHT[f].toLowerCase()))];
    const all = weights.length === 0 || weights.length === Object.keys(FIELD_WEIGHT).length;
    const vector = all ? 't.search_vector' : `ts_filter(t.search_vector, ${params.add(`{${weights.join(',')}}`)}::"char"[])`;
    // The plain vector's @@ lets the GIN index find candidates; with fewer fields it is only a
    // necessary condition when nothing is excluded (an excluded word elsewhere must not hide a row).
    const negates = spec.query.groups.some((g) => g.not.length > 0);
    const cond = (c: SearchLanguage) => {
      const own = c === 'simple' ? `t.search_config NOT IN ('english', 'german')` : `t.search_config = '${c}'`;
      const index = `t.search_vector @@ ${qp[c]}`;
      return all ? `(${own} AND ${index})` : negates ? `(${own} AND ${vector} @@ ${qp[c]})` : `(${own} AND ${index} AND ${vector} @@ ${qp[c]})`;
    };
    where.push(`(${CONFIGS.map(cond).join(' OR ')})`);
    if (spec.sort === 'Relevance') {
      rank = `, ts_rank('{${RANK_WEIGHTS.join(',')}}', ${vector}, CASE t.search_config WHEN 'english' THEN ${qp.english} WHEN 'german' THEN ${qp.german} ELSE ${qp.simple} END) AS rank`;
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
