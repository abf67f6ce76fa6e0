// Server and offline search agree (issue 32): the corpus (tests/search/corpus.ts) in the real
// server on PGlite, pulled by the real sync engine into a device store (fake-indexeddb), searched
// there by the offline search service (workers/search, the worker's own code in node). For every
// corpus query, as the demo user and as the producer demo user: the same SET of matches, and for
// the date sorts the same ORDER (every query is asked with DateNewest and DateOldest too). The
// producer's device holds nothing of the programs they may not read, so finds nothing of them.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocalDb, type CastawayDb } from '../../src/db/db.ts';
import { seedId } from '../../sync-server/seed.ts';
import { createSyncEngine } from '../../workers/sync/engine.ts';
import { createSearchService, type SearchService } from '../../workers/search/service.ts';
import { toServiceQuery } from '../../workers/search/params.ts';
import { AppClient, seededApp } from '../server/app-client.ts';
import { openTestStore, type TestStore } from '../server/test-store.ts';
import { CORPUS_ORG, CORPUS_PROGRAMS, CORPUS_QUERIES, insertCorpus, PRODUCER_PROGRAMS, type CorpusQuery } from './corpus.ts';

type Page = { Items: Array<{ Id: string; ProgramId: string }>; HasNext: boolean; Page: number };
const ALL_PROGRAMS = Object.values(CORPUS_PROGRAMS)
  .map((p) => p.id)
  .join(',');
const SORTS = ['DateNewest', 'DateOldest'] as const;

type Device = { client: AppClient; db: CastawayDb; search: SearchService };

describe('server and offline search', () => {
  let t: TestStore;
  const devices: Partial<Record<'demo' | 'producer', Device>> = {};

  beforeAll(async () => {
    t = await openTestStore('pglite');
    const { app } = await seededApp(t.store);
    await insertCorpus(t.store);
    for (const who of ['demo', 'producer'] as const) {
      const client = new AppClient(app);
      await client.login(`${who}@example.com`);
      client.organizationId = seedId('org:demo');
      const db = openLocalDb(`agreement-${who}-${Date.now()}`);
      const engine = createSyncEngine({
        db,
        organizationId: CORPUS_ORG,
        transport: async (url, init) => app.request(url, { method: init.method, headers: { ...init.headers, cookie: client.cookie }, ...(init.body !== undefined ? { body: init.body } : {}) }),
        baseBackoffMs: 1,
        maxBackoffMs: 5,
      });
      await engine.flush();
      engine.stop();
      devices[who] = { client, db, search: createSearchService({ store: db, indexDbName: `castaway-search-agreement-${who}-${Date.now()}` }) };
    }
  }, 180_000);
  afterAll(async () => {
    for (const d of Object.values(devices)) {
      d.search.stop();
      d.db.close();
      await d.db.delete();
    }
    await t?.drop();
  });

  const serverIds = async (d: Device, q: CorpusQuery, params: Record<string, string>) => {
    const reply = await d.client.get(`/api/v1/${q.kind}s/search?${new URLSearchParams(params)}`);
    expect(reply.status, reply.text).toBe(200);
    return (reply.body as Page).Items;
  };
  const offlineIds = async (d: Device, q: CorpusQuery, params: Record<string, string>) => {
    const page = await d.search.search(CORPUS_ORG, toServiceQuery({ type: q.kind, ...params }));
    return page.hits.map((h) => ({ Id: h.row.Id, ProgramId: String(h.row['ProgramId']) }));
  };

  it.each(['demo', 'producer'] as const)('agree on every corpus query as the %s user: the set, and the order of the date sorts', async (who) => {
    const d = devices[who]!;
    const readable = new Set((who === 'producer' ? PRODUCER_PROGRAMS : Object.keys(CORPUS_PROGRAMS)).map((p) => CORPUS_PROGRAMS[p as keyof typeof CORPUS_PROGRAMS].id));
    let compared = 0;
    for (const q of CORPUS_QUERIES) {
      const base = { programIds: ALL_PROGRAMS, pageSize: '500', ...q.params };
      const server = await serverIds(d, q, base);
      const offline = await offlineIds(d, q, base);
      expect(offline.map((i) => i.Id).sort(), `${who}: ${q.name}`).toEqual(server.map((i) => i.Id).sort());
      expect(offline.every((i) => readable.has(i.ProgramId)), `${who}: ${q.name}`).toBe(true);
      for (const sortBy of SORTS) {
        const sorted = { ...base, sortBy };
        expect((await offlineIds(d, q, sorted)).map((i) => i.Id), `${who}: ${q.name}, ${sortBy}`).toEqual((await serverIds(d, q, sorted)).map((i) => i.Id));
      }
      compared += server.length;
    }
    // The comparison is not of empty answers.
    expect(compared).toBeGreaterThan(who === 'demo' ? 30 : 10);
  });

  it('agree on paging: the same pages of a date sort, and HasNext', async () => {
    const d = devices.demo!;
    const q: CorpusQuery = { name: 'every clip', kind: 'clip', params: {} };
    for (const page of ['1', '2', '5']) {
      const params = { programIds: ALL_PROGRAMS, sortBy: 'DateOldest' as const, pageSize: '50', page };
      const reply = await d.client.get(`/api/v1/clips/search?${new URLSearchParams(params)}`);
      const server = reply.body as Page;
      const offline = await d.search.search(CORPUS_ORG, toServiceQuery({ type: q.kind, ...params }));
      expect(offline.hits.map((h) => h.row.Id), `page ${page}`).toEqual(server.Items.map((i) => i.Id));
      expect([offline.hasNext, offline.page]).toEqual([server.HasNext, server.Page]);
    }
  });
});
