// The offline index's documents: one per clip, playlist, recording (with its annotations' text)
// and program of the organization, made from the local store's rows. A document keeps what the
// filters and sorts read (program, visibility, created instant, a recording's break type and
// rating) and the text of each search field (src/domain/search.ts searchableFields), which the
// match rule reads; `stamp` is a hash of all of it, so a row that changed in a way that matters to
// search is indexed again and one that did not is left alone (a pull brings back every row a push
// answered, mostly unchanged).
import { searchableFields, searchLanguageOf, type SearchableFields, type SearchKind, type SearchLanguage } from '../../src/domain/search.ts';

export const SEARCH_KINDS: readonly SearchKind[] = ['clip', 'program', 'playlist', 'recording'];
export type { SearchKind };

export type SearchDoc = {
  /** `${kind}:${Id}` */
  key: string;
  kind: SearchKind;
  id: string;
  organizationId: string;
  /** The program the row belongs to (a program's own Id for a program). */
  programId: string;
  createdAtUtc: string;
  visibility: string | null;
  /** The program's content language, as the rules name it. */
  language: SearchLanguage;
  breakType: string | null;
  rating: number | null;
  deleted: boolean;
  text: SearchableFields;
  stamp: number;
};

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const strOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

/** The rows a document is made of: the row, its program (language), a recording's annotations. */
export type DocSource = { kind: SearchKind; row: Row; program: Row | undefined; annotations?: readonly Row[] };

const annotationLike = (a: Row) => ({ Id: str(a['Id']), OffsetSeconds: typeof a['OffsetSeconds'] === 'number' ? a['OffsetSeconds'] : 0, Text: str(a['Text']), Deleted: a['Deleted'] === true });

/** FNV-1a over a string: a change detector, not a checksum anyone relies on for safety. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function makeDoc({ kind, row, program, annotations = [] }: DocSource): SearchDoc {
  const id = str(row['Id']);
  const doc: Omit<SearchDoc, 'stamp'> = {
    key: `${kind}:${id}`,
    kind,
    id,
    organizationId: str(row['OrganizationId']),
    programId: kind === 'program' ? id : str(row['ProgramId']),
    createdAtUtc: str(row['CreatedAtUtc']),
    visibility: kind === 'clip' || kind === 'playlist' ? strOrNull(row['Visibility']) : null,
    language: searchLanguageOf(strOrNull(program?.['Language'])),
    breakType: kind === 'recording' ? strOrNull(row['BreakType']) : null,
    rating: kind === 'recording' && typeof row['Rating'] === 'number' ? row['Rating'] : null,
    deleted: row['Deleted'] === true,
    // Transcript text is not stored on the device yet (issue 34): '' until a row carries it.
    text: searchableFields(kind, row, { annotations: annotations.map(annotationLike), transcript: strOrNull(row['TranscriptText']) }),
  };
  return { ...doc, stamp: hash(JSON.stringify(doc)) };
}
