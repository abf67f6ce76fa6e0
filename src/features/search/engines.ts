// Who answers a search: the ONE place the screen's search picks its source.
//
//   program ─────────────────────────────────────────────> this device (programs have no server search)
//   clip, playlist, recording
//     ├─ offline ─────────────────────────────────────────> this device ('offline')
//     └─ online: the server's route (/v1/<kind>s/search)
//          ├─ answers 2xx within SERVER_DEADLINE_MS ──────> the server
//          ├─ 400 ────────────────────────────────────────> an error the screen shows (bad input
//          │                                                 is bad on the device too)
//          ├─ slower than the deadline ───────────────────> this device ('slow'), or the server
//          │                                                 if it answers before the device does
//          └─ no network, any other status ───────────────> this device ('unreachable' / status)
//
// "This device" is the offline search index (src/lib/offline-search.ts: a worker holding a
// persisted MiniSearch index of the local store, the shared match rule deciding), in
// deviceSearch() below and nowhere else.
import { call, type ApiResult } from '../../lib/api.ts';
import { OfflineSearchError, prepareOfflineSearch, searchOffline } from '../../lib/offline-search.ts';
import { formError } from '../../domain/form-errors.ts';
import { formatFormError } from '../../domain/messages.ts';
import { searchClips, searchPlaylists, searchRecordings } from '../../protocol/api/search.ts';
import type { BadRequestBody } from '../../protocol/errors.ts';
import type { SearchKind } from '../../domain/search.ts';
import type { Row, SearchPage, SearchRequest } from './types.ts';

/** How long the server has to answer before this device answers instead. */
export const SERVER_DEADLINE_MS = 1500;

/** Why this device answered: offline, the server slow, unreachable, or answering another status. */
export type DeviceReason = { kind: 'programs' } | { kind: 'offline' } | { kind: 'slow' } | { kind: 'unreachable' } | { kind: 'status'; status: number };
export type Answer = SearchPage & { source: 'server' } | SearchPage & { source: 'device'; reason: DeviceReason };

/** A search that cannot be answered: the server refused its input (400), or the device failed. */
export class SearchError extends Error {
  constructor(
    readonly body: BadRequestBody | null,
    cause?: unknown,
  ) {
    super(body ? body.Errors.map((e) => `${e.Field}: ${e.Message}`).join('; ') : `device search failed: ${String(cause)}`, { cause });
    this.name = 'SearchError';
  }
}

/** Loads the device's index ahead of the first search (the screen calls it when it opens). */
export function prepareDeviceSearch(organizationId: string): void {
  // A failure here shows on the search that needs the index, not before.
  prepareOfflineSearch(organizationId).catch(() => undefined);
}

async function deviceSearch(organizationId: string, req: SearchRequest): Promise<SearchPage> {
  try {
    const page = await searchOffline(organizationId, { ...serverQuery(req), type: req.kind });
    return { hits: page.Items.map((h) => ({ kind: h.Type, row: h.Item as unknown as Row })), hasNext: page.HasNext, page: page.Page };
  } catch (error) {
    // A query the server would refuse is refused here in the same words: the field it names.
    if (error instanceof OfflineSearchError) throw new SearchError({ Errors: [{ Field: error.field, Code: 'invalid', Message: formatFormError(formError('invalid')) }] }, error);
    throw new SearchError(null, error);
  }
}

const ROUTES = { clip: searchClips, playlist: searchPlaylists, recording: searchRecordings } as const;

/** The server's query for a request: the section 7 parameters, lists comma-joined only when non-empty. */
function serverQuery(req: SearchRequest) {
  return {
    page: String(req.page),
    pageSize: String(req.pageSize),
    ...(req.text.trim() ? { filter: req.text } : {}),
    ...(req.fields.length > 0 ? { filterBy: req.fields.join(',') } : {}),
    ...(req.visibility && req.kind !== 'recording' ? { visibilityFilter: req.visibility } : {}),
    ...(req.programId ? { programIds: req.programId } : {}),
    sortBy: req.sort,
    ...(req.from ? { createdStartDate: req.from } : {}),
    ...(req.to ? { createdEndDate: req.to } : {}),
    ...(req.from || req.to ? { timeZoneIanaId: req.timeZone } : {}),
  };
}

async function serverSearch(kind: Exclude<SearchKind, 'program'>, req: SearchRequest, signal: AbortSignal): Promise<ApiResult<ServerPage>> {
  const result = await call(ROUTES[kind], { query: serverQuery(req), signal });
  return result as ApiResult<ServerPage>;
}

type ServerPage = { Items: Row[]; HasNext: boolean; Page: number };

function serverAnswer(req: SearchRequest, page: ServerPage): Answer {
  return { hits: page.Items.map((row) => ({ kind: req.kind, row })), hasNext: page.HasNext, page: page.Page, source: 'server' };
}

/** Answers one search of one kind, from the server or this device (see the top of this file). */
export async function runSearch(organizationId: string, req: SearchRequest, options: { online: boolean; signal?: AbortSignal }): Promise<Answer> {
  const device = async (reason: DeviceReason): Promise<Answer> => ({ ...(await deviceSearch(organizationId, req)), source: 'device', reason });
  if (req.kind === 'program') return device({ kind: 'programs' });
  if (!options.online) return device({ kind: 'offline' });
  const controller = new AbortController();
  const stop = () => controller.abort();
  options.signal?.addEventListener('abort', stop);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const late = new Promise<'slow'>((resolve) => (timer = setTimeout(() => resolve('slow'), SERVER_DEADLINE_MS)));
    const server = serverSearch(req.kind, req, controller.signal);
    const first = await Promise.race([server, late]);
    if (first === 'slow') {
      // The device answers, unless the server's answer arrives before the device's.
      const fromDevice = device({ kind: 'slow' });
      const fromServer = server.then((r): Answer => {
        if (r.kind !== 'ok') throw new Error('the server did not answer');
        return serverAnswer(req, r.data);
      });
      try {
        return await Promise.any([fromDevice, fromServer]);
      } catch {
        return await fromDevice; // neither: the device's own error
      } finally {
        controller.abort();
      }
    }
    if (options.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    switch (first.kind) {
      case 'ok':
        return serverAnswer(req, first.data);
      case 'badRequest':
        throw new SearchError(first.body);
      case 'error':
        return await device({ kind: 'unreachable' });
      default:
        return await device({ kind: 'status', status: first.status });
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
  }
}
