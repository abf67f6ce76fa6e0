// Search over the device's own data (issue 32, "Offline search"): what the search screen calls
// when it is offline or the server is slow. The same query as the server routes
// (src/protocol/api/search.ts, as strings, as in the URL), answered by the search worker
// (workers/search) from its index of the local store, in the same shapes: Paged<Clip> for
// /v1/clips/search and so on, or for 'all' a page of typed hits.
import * as Comlink from 'comlink';
import type { Paged } from '../domain/paging.ts';
import type { SearchKind } from '../domain/search.ts';
import type { Clip, Playlist, Program, Recording } from '../protocol/entities.ts';
import type { SearchWorkerApi } from '../../workers/search/search.worker.ts';
import { toServiceQuery, type OfflineSearchInput } from '../../workers/search/params.ts';

export { OfflineSearchError, type OfflineSearchInput } from '../../workers/search/params.ts';

let worker: Comlink.Remote<SearchWorkerApi> | null = null;

function searchWorker(): Comlink.Remote<SearchWorkerApi> {
  worker ??= Comlink.wrap<SearchWorkerApi>(new Worker(new URL('../../workers/search/search.worker.ts', import.meta.url), { type: 'module', name: 'castaway-search' }));
  return worker;
}

export type OfflineHit =
  | { Type: 'clip'; Item: Clip }
  | { Type: 'program'; Item: Program }
  | { Type: 'playlist'; Item: Playlist }
  | { Type: 'recording'; Item: Recording };

/** Loads (or builds) the organization's index ahead of the first search: call when the search
 * screen opens, so the first query does not wait for it. */
export async function prepareOfflineSearch(organizationId: string): Promise<void> {
  await searchWorker().prepare(organizationId);
}

/** A page of the organization's rows on this device that match, the server's rules applied
 * (throws OfflineSearchError for a query the server would refuse with a 400). */
export async function searchOffline(organizationId: string, params: OfflineSearchInput): Promise<Paged<OfflineHit>> {
  const page = await searchWorker().search(organizationId, toServiceQuery(params));
  return { Items: page.hits.map((h) => ({ Type: h.kind, Item: h.row }) as OfflineHit), HasNext: page.hasNext, Page: page.page };
}

async function only<T>(organizationId: string, type: SearchKind, params: OfflineSearchInput): Promise<Paged<T>> {
  const page = await searchOffline(organizationId, { ...params, type });
  return { Items: page.Items.map((h) => h.Item as T), HasNext: page.HasNext, Page: page.Page };
}

/** GET /v1/clips/search, answered on the device. */
export const searchClipsOffline = (organizationId: string, params: OfflineSearchInput) => only<Clip>(organizationId, 'clip', params);
/** GET /v1/playlists/search, answered on the device. */
export const searchPlaylistsOffline = (organizationId: string, params: OfflineSearchInput) => only<Playlist>(organizationId, 'playlist', params);
/** GET /v1/recordings/search, answered on the device. */
export const searchRecordingsOffline = (organizationId: string, params: OfflineSearchInput) => only<Recording>(organizationId, 'recording', params);
/** Programs, on the device (section 7 has no program search: programs are always on the device). */
export const searchProgramsOffline = (organizationId: string, params: OfflineSearchInput) => only<Program>(organizationId, 'program', params);
