// What the search screen asks and gets back, whoever answers (engines.ts).
import type { SearchField, SearchKind, SearchSort } from '../../domain/search.ts';

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
