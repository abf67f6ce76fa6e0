// Search over rows already on the device, with the shared rule of what a match is
// (src/domain/search.ts): what answers for programs always (they have no server search: section 7)
// and for the other kinds when the device's search index is not there to answer. Pure: the rows
// come in, a page goes out (engines.ts reads them from the local store).
//
// Filters and sorts as the server's routes have them: type, search-by fields, visibility (clips
// and playlists), program, created dates local to a time zone, DateNewest / DateOldest /
// Relevance (ts_rank's field weights, RANK_WEIGHTS), ties by the newest and then the Id.
import {
  analyzeDocument,
  compileQuery,
  FIELD_ORDER,
  FIELD_WEIGHT,
  matchesAnalyzed,
  RANK_WEIGHTS,
  searchableFields,
  searchLanguageOf,
  type AnalyzedDocument,
  type SearchField,
  type SearchKind,
  type SearchLanguage,
  type SearchSort,
} from '../../domain/search.ts';
import { zonedDateTimeToUtc } from '../../domain/publishing.ts';

export type Row = Record<string, unknown> & { Id: string };
export type SearchHit = { kind: SearchKind; row: Row };
export type SearchPage = { hits: SearchHit[]; hasNext: boolean; page: number };

/** One search of one kind, as the screen asks it of either engine. */
export type SearchRequest = {
  kind: SearchKind;
  text: string;
  fields: readonly SearchField[];
  visibility: string | null;
  programId: string | null;
  from: string | null;
  to: string | null;
  sort: SearchSort;
  page: number;
  pageSize: number;
  /** The IANA zone the dates are local to (the browser's). */
  timeZone: string;
};

/** The device's rows of one organization: rows of each kind, programs by Id, annotations by recording. */
export type DeviceRows = {
  rows: Record<SearchKind, readonly Row[]>;
  programs: ReadonlyMap<string, Row>;
  annotations: ReadonlyMap<string, readonly Row[]>;
};

const WEIGHT_OF: Record<'A' | 'B' | 'C' | 'D', number> = { D: RANK_WEIGHTS[0], C: RANK_WEIGHTS[1], B: RANK_WEIGHTS[2], A: RANK_WEIGHTS[3] };

/** Analyzed documents by row, kept while the row is unchanged (ModifiedAtUtc): typing a query
 * analyzes the query only. */
const analyzed = new Map<string, { stamp: string; language: SearchLanguage; doc: AnalyzedDocument }>();

function documentOf(kind: SearchKind, row: Row, data: DeviceRows): AnalyzedDocument {
  const program = kind === 'program' ? row : data.programs.get(String(row['ProgramId']));
  const language = searchLanguageOf(typeof program?.['Language'] === 'string' ? program['Language'] : null);
  const notes = kind === 'recording' ? (data.annotations.get(row.Id) ?? []) : [];
  const stamp = `${String(row['ModifiedAtUtc'])}|${notes.map((a) => String(a['ModifiedAtUtc'])).join(',')}`;
  const key = `${kind}:${row.Id}`;
  const kept = analyzed.get(key);
  if (kept && kept.stamp === stamp && kept.language === language) return kept.doc;
  const annotations = notes.map((a) => ({ Id: a.Id, OffsetSeconds: typeof a['OffsetSeconds'] === 'number' ? a['OffsetSeconds'] : 0, Text: String(a['Text'] ?? ''), Deleted: a['Deleted'] === true }));
  const transcript = typeof row['TranscriptText'] === 'string' ? row['TranscriptText'] : null;
  const doc = analyzeDocument(searchableFields(kind, row, { annotations, transcript }), language);
  analyzed.set(key, { stamp, language, doc });
  return doc;
}

/** Midnight starting a local date in the zone, as a UTC ISO instant; `days` later for an end. */
export function localDayStart(date: string, timeZone: string, days = 0): string | null {
  const [y, m, d] = date.split('-').map(Number);
  if (y === undefined || m === undefined || d === undefined) return null;
  const day = new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
  return zonedDateTimeToUtc(`${day}T00:00`, timeZone);
}

/** The program a row is of, and whether the row's program is one the studio lists (not deleted). */
function programOf(kind: SearchKind, row: Row, data: DeviceRows): Row | undefined {
  return kind === 'program' ? row : data.programs.get(String(row['ProgramId']));
}

export function searchDeviceRows(req: SearchRequest, data: DeviceRows): SearchPage {
  const from = req.from ? localDayStart(req.from, req.timeZone) : null;
  const before = req.to ? localDayStart(req.to, req.timeZone, 1) : null;
  const compiled = new Map<SearchLanguage, ReturnType<typeof compileQuery>>();
  const queryFor = (language: SearchLanguage) => {
    let q = compiled.get(language);
    if (!q) compiled.set(language, (q = compileQuery(req.text, language)));
    return q;
  };
  const fields = req.fields.length > 0 ? req.fields : FIELD_ORDER;
  const visible = req.kind === 'clip' || req.kind === 'playlist';
  const found: Array<{ row: Row; score: number; created: string }> = [];
  for (const row of data.rows[req.kind]) {
    if (row['Deleted'] === true) continue;
    const program = programOf(req.kind, row, data);
    // Content of a program that is gone (or not on the device) is in no list of the studio.
    if (!program || program['Deleted'] === true) continue;
    const programId = req.kind === 'program' ? row.Id : String(row['ProgramId']);
    if (req.programId && programId !== req.programId) continue;
    if (req.visibility && visible && row['Visibility'] !== req.visibility) continue;
    const created = String(row['CreatedAtUtc'] ?? '');
    if ((from && created < from) || (before && created >= before)) continue;
    const doc = documentOf(req.kind, row, data);
    const query = queryFor(doc.language);
    if (!matchesAnalyzed(query, doc, { fields })) continue;
    // Relevance: the weights of the fields that match on their own, as ts_rank weighs them.
    const score = req.sort === 'Relevance' && !query.blank ? fields.reduce((sum, f) => sum + (matchesAnalyzed(query, doc, { fields: [f] }) ? WEIGHT_OF[FIELD_WEIGHT[f]] : 0), 0) : 0;
    found.push({ row, score, created });
  }
  const newest = (a: (typeof found)[number], b: (typeof found)[number]) => b.created.localeCompare(a.created);
  const order =
    req.sort === 'DateOldest' ? (a: (typeof found)[number], b: (typeof found)[number]) => -newest(a, b) : req.sort === 'Relevance' ? (a: (typeof found)[number], b: (typeof found)[number]) => b.score - a.score || newest(a, b) : newest;
  found.sort((a, b) => order(a, b) || a.row.Id.localeCompare(b.row.Id));
  const start = (req.page - 1) * req.pageSize;
  return { hits: found.slice(start, start + req.pageSize).map((f) => ({ kind: req.kind, row: f.row })), hasNext: found.length > start + req.pageSize, page: req.page };
}
