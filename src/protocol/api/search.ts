// Search (specification section 7): GET /v1/clips/search, /v1/playlists/search and
// /v1/recordings/search. They answer the same rows as /v1/clips, /v1/playlists and /v1/recordings
// (a result can be written into the device's store and opened), paged per section 7. What a match
// is: src/domain/search.ts; the server: sync-server/api/search.ts. Programs have no search call:
// they are few and always on the device, and are searched there (documentMatches).
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { formError } from '../../domain/form-errors.ts';
import { PermissionFlag } from '../../domain/permissions.ts';
import {
  HIDDEN_PROGRAM_CONTENT_FILTERS,
  SEARCH_FIELDS,
  SEARCH_FILTER_MAX_LENGTH,
  SEARCH_SORTS,
  validateSearchDate,
  validateSearchDateRange,
} from '../../domain/search.ts';
import { Visibility } from '../entities.ts';
import { Clip, Playlist, Recording } from './schemas.ts';
import { checkedString, enumListQuery, errors, IdListQuery, jsonContent, PagedOf, PagingQuery, type DomainIssueParams } from './common.ts';

const PERMISSION_FLAG_NAMES = Object.keys(PermissionFlag) as Array<keyof typeof PermissionFlag>;

const dateQuery = (description: string) =>
  checkedString((v) => validateSearchDate(v))
    .optional()
    .meta({ description, example: '2025-05-01' });

/** The query of every search call (section 7 /v1/clips/search). */
export const SearchQueryShape = {
  ...PagingQuery,
  filter: z
    .string()
    .max(SEARCH_FILTER_MAX_LENGTH)
    .optional()
    .meta({ description: 'What to look for, in web search syntax: words (all must match), "a phrase", -excluded, OR', example: 'mayor "city hall" -budget' }),
  filterBy: enumListQuery(SEARCH_FIELDS).meta({ description: `The fields to search, comma-joined, of: ${SEARCH_FIELDS.join(', ')} (default all)` }),
  visibilityFilter: enumListQuery(Visibility.options),
  programIds: IdListQuery.meta({ description: 'Only these programs, comma-joined ids' }),
  sortBy: z
    .enum(SEARCH_SORTS)
    .optional()
    .meta({ description: 'DateNewest, DateOldest or Relevance (default Relevance with a filter, else DateNewest)' }),
  createdStartDate: dateQuery('Created on or after this local date, YYYY-MM-DD'),
  createdEndDate: dateQuery('Created on or before this local date, YYYY-MM-DD (included)'),
  timeZoneIanaId: z
    .string()
    .max(100)
    .optional()
    .meta({ description: 'The IANA time zone the created dates are local to, one of GET /v1/reference-data/time-zones (default UTC)', example: 'Europe/Berlin' }),
  include: z.string().max(500).optional(),
  permissionFilter: enumListQuery(PERMISSION_FLAG_NAMES).meta({ description: `Only rows of programs where the caller holds all of these flags, comma-joined, of: ${PERMISSION_FLAG_NAMES.join(', ')}` }),
  hiddenProgramContentFilter: z
    .enum(HIDDEN_PROGRAM_CONTENT_FILTERS)
    .optional()
    .meta({ description: 'Content of hidden (deleted) programs the caller sees: Exclude (default), Include or Only' }),
};

/** The created dates in order (a reversed range is a 400 on createdEndDate). */
function checkRange(value: { createdStartDate?: string | undefined; createdEndDate?: string | undefined }, ctx: z.RefinementCtx) {
  const error = validateSearchDateRange(value.createdStartDate, value.createdEndDate);
  if (error) ctx.addIssue({ code: 'custom', path: ['createdEndDate'], message: error.type, params: { formError: error } satisfies DomainIssueParams });
}

export const SearchQuery = z.object(SearchQueryShape).superRefine(checkRange);
export const RecordingSearchQuery = z
  .object({
    ...SearchQueryShape,
    breakType: z.string().max(100).optional().meta({ description: 'Only recordings of this BreakType, comma-joined for several' }),
    rating: checkedString((v) => (/^\d+(,\d+)*$/.test(v.trim()) || v.trim() === '' ? null : formError('invalid')))
      .optional()
      .meta({ description: 'Only recordings with this Rating (a whole number), comma-joined for several', example: '4,5' }),
  })
  .superRefine(checkRange);

export type SearchParams = z.infer<typeof SearchQuery>;
export type RecordingSearchParams = z.infer<typeof RecordingSearchQuery>;

export const searchClips = {
  method: 'get',
  path: '/v1/clips/search',
  tags: ['Clips'],
  summary: 'Clips of the programs the caller has content access to that match the filter',
  request: { query: SearchQuery },
  responses: { 200: jsonContent(PagedOf(Clip), 'A page of clips'), ...errors },
} as const satisfies RouteConfig;

export const searchPlaylists = {
  method: 'get',
  path: '/v1/playlists/search',
  tags: ['Playlists'],
  summary: 'Playlists of the programs the caller has content access to that match the filter',
  request: { query: SearchQuery },
  responses: { 200: jsonContent(PagedOf(Playlist), 'A page of playlists'), ...errors },
} as const satisfies RouteConfig;

export const searchRecordings = {
  method: 'get',
  path: '/v1/recordings/search',
  tags: ['Recordings'],
  summary: 'Recordings of the programs the caller has content access to that match the filter (their annotations too)',
  request: { query: RecordingSearchQuery },
  responses: { 200: jsonContent(PagedOf(Recording), 'A page of recordings'), ...errors },
} as const satisfies RouteConfig;
