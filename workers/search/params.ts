// The server routes' query (section 7 /v1/clips/search, /v1/playlists/search,
// /v1/recordings/search: src/protocol/api/search.ts) as the offline index's query. The wire query
// goes through the routes' own zod schemas, so defaults (page 1, pageSize 2500, the sort) and what
// is refused are the server's; what each parameter means is read here once.
import type * as z from 'zod';
import { RecordingSearchQuery, SearchQuery, type RecordingSearchParams } from '../../src/protocol/api/search.ts';
import { defaultSort, type SearchKind, type SearchType } from '../../src/domain/search.ts';
import { zonedDateTimeToUtc } from '../../src/domain/publishing.ts';
import { FIRST_PAGE, PAGE_SIZE_MAX } from '../../src/domain/constants.ts';
import type { PermissionFlagName } from '../../src/domain/permissions.ts';
import type { IndexQuery } from './index-core.ts';

/** What a screen sends: a route's query (strings, as in the URL) and the type searched. */
export type OfflineSearchInput = z.input<typeof RecordingSearchQuery> & { type?: SearchType };

export type ServiceQuery = IndexQuery & { permissionFilter?: readonly PermissionFlagName[] | undefined };

export class OfflineSearchError extends Error {
  constructor(
    readonly code: 'invalidQuery' | 'invalidTimeZone',
    readonly field: string,
  ) {
    super(`${code}: ${field}`);
  }
}

/** The day after a YYYY-MM-DD date. */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function startOf(date: string, zone: string): string {
  const utc = zonedDateTimeToUtc(`${date}T00:00`, zone);
  if (utc === null) throw new OfflineSearchError('invalidTimeZone', 'timeZoneIanaId');
  return utc;
}

export function toServiceQuery(input: OfflineSearchInput): ServiceQuery {
  const { type = 'all', ...wire } = input;
  const kinds: SearchKind[] = type === 'all' ? ['clip', 'program', 'playlist', 'recording'] : [type];
  // Recording-only parameters are read only when recordings alone are searched, as only that
  // route takes them.
  const parsed = (type === 'recording' ? RecordingSearchQuery : SearchQuery).safeParse(wire);
  if (!parsed.success) throw new OfflineSearchError('invalidQuery', String(parsed.error.issues[0]?.path[0] ?? 'query'));
  const p = parsed.data as RecordingSearchParams;
  const zone = p.timeZoneIanaId?.trim() || 'UTC';
  const start = p.createdStartDate?.trim();
  const end = p.createdEndDate?.trim();
  const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return {
    kinds,
    text: p.filter,
    fields: p.filterBy,
    programIds: p.programIds,
    visibilities: p.visibilityFilter,
    createdFrom: start ? startOf(start, zone) : undefined,
    createdBefore: end ? startOf(nextDay(end), zone) : undefined,
    breakTypes: type === 'recording' ? list(p.breakType) : undefined,
    ratings: type === 'recording' ? list(p.rating).map(Number) : undefined,
    hiddenPrograms: p.hiddenProgramContentFilter,
    permissionFilter: p.permissionFilter,
    sort: p.sortBy ?? defaultSort(p.filter),
    page: p.page ?? FIRST_PAGE,
    pageSize: p.pageSize ?? PAGE_SIZE_MAX,
  };
}
