// Search (section 7): /v1/clips/search, /v1/playlists/search, /v1/recordings/search. Only rows of
// programs the caller may read under section 6 (the read rule /v1/clips and the pull use), then
// the request's program filters (programIds, permissionFilter, hiddenProgramContentFilter); the
// text match and the rest: sync-server/search/search.ts.
import type { Context } from 'hono';
import { mayRead, missingFlags } from '../../src/domain/access.ts';
import { defaultSort, parseQuery, type HiddenProgramContentFilter } from '../../src/domain/search.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import * as routes from '../../src/protocol/api/search.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import type { PermissionFlagName } from '../../src/domain/permissions.ts';
import { getAuth } from '../auth.ts';
import { flagsForProgram, type ProgramRef } from '../mutations/store.ts';
import { searchInputs, searchRows, type SearchEntity } from '../search/search.ts';
import { inZone, timeZoneOf } from './analytics-api.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';

const ENTITY_OF = { clip: 'clips', playlist: 'playlists', recording: 'recordings' } as const;

type ProgramFilters = { programIds?: string[] | undefined; permissionFilter?: PermissionFlagName[] | undefined; hiddenProgramContentFilter?: HiddenProgramContentFilter | undefined };

/** The programs among `programs` (the organization's) whose rows of `entity` the caller may
 *  read, narrowed by the request's filters. */
function searchedPrograms(c: Context, entity: SearchEntity, programs: readonly ProgramRef[], query: ProgramFilters): string[] {
  const auth = getAuth(c);
  const only = query.programIds && query.programIds.length > 0 ? new Set(query.programIds) : null;
  const hidden = query.hiddenProgramContentFilter ?? 'Exclude';
  return programs
    .filter((p) => (hidden === 'Include' ? true : hidden === 'Only' ? p.deleted : !p.deleted))
    .filter((p) => only === null || only.has(p.id))
    .filter((p) => {
      const flags = flagsForProgram(auth, p);
      return mayRead(ENTITY_KINDS[ENTITY_OF[entity]].read, flags) && missingFlags(flags, query.permissionFilter ?? []).length === 0;
    })
    .map((p) => p.id);
}

async function search(c: Context, entity: SearchEntity, query: routes.SearchParams & { breakType?: string | undefined; rating?: string | undefined }) {
  const timeZone = query.createdStartDate || query.createdEndDate ? timeZoneOf(query.timeZoneIanaId) : 'UTC';
  const list = (raw: string | undefined) => (raw ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const { store } = c.get('deps');
  const { organizationId } = getAuth(c);
  const parsed = parseQuery(query.filter ?? '');
  const result = await inZone(async () => {
    const { programs, tsqueries } = await searchInputs(store, organizationId, parsed);
    return searchRows(store, entity, {
      organizationId,
      programIds: searchedPrograms(c, entity, programs, query),
      query: parsed,
      tsqueries,
      fields: query.filterBy ?? null,
      visibility: query.visibilityFilter ?? null,
      createdFrom: query.createdStartDate?.trim() || null,
      createdTo: query.createdEndDate?.trim() || null,
      timeZone,
      sort: query.sortBy ?? defaultSort(query.filter),
      page: pageOf(query),
      breakTypes: list(query.breakType),
      ratings: list(query.rating).map(Number),
    });
  });
  return c.json(result, 200);
}

export function searchRoutes() {
  return resourceApp()
    .openapi(guarded(routes.searchClips, guard.member()), (c) => search(c, 'clip', c.req.valid('query')))
    .openapi(guarded(routes.searchPlaylists, guard.member()), (c) => search(c, 'playlist', c.req.valid('query')))
    .openapi(guarded(routes.searchRecordings, guard.member()), (c) => search(c, 'recording', c.req.valid('query')));
}
