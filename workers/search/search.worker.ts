// The offline search worker (issue 32): the search service (service.ts) over the browser's local
// store, behind comlink. One per tab, started by src/lib/offline-search.ts at its first use; it
// loads the saved index (or builds it) and keeps it current from the store's change feed, so a
// search never waits for the network nor blocks the page.
import '../policy-violations.ts';
import * as Comlink from 'comlink';
import { db } from '../../src/db/db.ts';
import { createSearchService, type SearchRowPage } from './service.ts';
import type { ServiceQuery } from './params.ts';

const service = createSearchService({ store: db });

const api = {
  search: (organizationId: string, query: ServiceQuery): Promise<SearchRowPage> => service.search(organizationId, query),
  prepare: (organizationId: string) => service.prepare(organizationId),
  status: () => service.status(),
  /** Saves the index now (it is saved a moment after each change anyway). */
  flush: () => service.flush(),
};

export type SearchWorkerApi = typeof api;
Comlink.expose(api);
