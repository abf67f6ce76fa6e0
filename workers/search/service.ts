// The offline search service: the index of the organization the local store keeps, built from
// the store once, saved in 'castaway-search', loaded on the next start instead of built, and kept
// current from the store's change feed (src/db/search-index-db.ts onStoreChanged). The worker
// (search.worker.ts) exposes it over comlink; tests drive it in node on fake-indexeddb.
//
//   ensure(org) ─ saved index of org, same format? ─yes─> load ─> reconcile in the background
//        │                                          └─no──> build from the store ─> save
//        └─ every commit to the store: changed keys ─> re-made documents ─> (later) save
//
// Reconcile after a load reads the store and indexes again only the documents whose stamp
// changed while no worker was listening (edits in a tab that had no search open). Saves are
// debounced: a pull of many pages saves once, SAVE_DELAY_MS after the last.
import type { CastawayDb, LocalRow } from '../../src/db/db.ts';
import { clearSavedIndex, loadSavedIndex, onStoreChanged, openSearchIndexDb, saveIndex, type TableChange } from '../../src/db/search-index-db.ts';
import { makeDoc, type SearchDoc, type SearchKind } from './documents.ts';
import { build, createIndex, deserialize, INDEX_FORMAT, reconcile, remove, search, serialize, upsert, type IndexPage, type SearchIndex } from './index-core.ts';
import type { ServiceQuery } from './params.ts';
import { missingFlags, programFlags } from '../../src/domain/access.ts';
import type { PermissionEntry, PermissionFlagName } from '../../src/domain/permissions.ts';

export const SAVE_DELAY_MS = 2000;

const TABLE_OF: Record<SearchKind, 'clips' | 'programs' | 'playlists' | 'recordings'> = { clip: 'clips', program: 'programs', playlist: 'playlists', recording: 'recordings' };
const KIND_OF: Record<string, SearchKind> = { clips: 'clip', programs: 'program', playlists: 'playlist', recordings: 'recording' };

export type SearchRowHit = { kind: SearchKind; row: LocalRow; score: number };
export type SearchRowPage = { hits: SearchRowHit[]; hasNext: boolean; page: number; total: number };
/** What the last build or load cost (ms): reading the store (a load: checking it against the
 * store), indexing (a load: reading and parsing the saved index), the last save, and the saved
 * index's size (UTF-16 code units of its JSON). */
export type IndexTimings = { readMs: number; indexMs: number; saveMs: number; savedChars: number };
export type IndexStatus = { organizationId: string | null; documents: number; loadedFrom: 'saved' | 'built' | null; lastSavedAt: number | null; timings: IndexTimings | null };

type Options = { store: CastawayDb; indexDbName?: string; saveDelayMs?: number };

export function createSearchService({ store, indexDbName, saveDelayMs = SAVE_DELAY_MS }: Options) {
  const saved = openSearchIndexDb(indexDbName);
  let index: SearchIndex | null = null;
  let loadedFrom: IndexStatus['loadedFrom'] = null;
  let lastSavedAt: number | null = null;
  let timings: IndexTimings | null = null;
  /** Every change to the index runs on this chain, in order. */
  let chain: Promise<unknown> = Promise.resolve();
  let saveTimer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const run = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };

  const inOrg = (org: string) => (r: LocalRow) => typeof r['OrganizationId'] === 'string' && r['OrganizationId'].toLowerCase() === org.toLowerCase();

  async function programsOf(org: string): Promise<Map<string, LocalRow>> {
    const rows = (await store.programs.toArray()).filter(inOrg(org));
    return new Map(rows.map((p) => [p.Id, p]));
  }

  /** Every document of `kinds` the store holds for the organization. */
  async function docsOf(org: string, kinds: readonly SearchKind[]): Promise<SearchDoc[]> {
    const programs = await programsOf(org);
    const docs: SearchDoc[] = [];
    const byRecording = new Map<string, LocalRow[]>();
    if (kinds.includes('recording')) {
      for (const a of await store.annotations.toArray()) {
        const rid = String(a['RecordingId']);
        const list = byRecording.get(rid);
        if (list) list.push(a);
        else byRecording.set(rid, [a]);
      }
    }
    for (const kind of kinds) {
      const rows = kind === 'program' ? [...programs.values()] : (await store[TABLE_OF[kind]].toArray()).filter(inOrg(org));
      for (const row of rows) {
        const program = programs.get(kind === 'program' ? row.Id : String(row['ProgramId']));
        docs.push(makeDoc({ kind, row, program, annotations: byRecording.get(row.Id) ?? [] }));
      }
    }
    return docs;
  }

  /** permissionFilter: the programs (of those asked for, when any) where the caller holds every
   * flag, by the permissions the last pull brought (the server's own entries for the caller). */
  async function programsWith(org: string, flags: readonly PermissionFlagName[], asked: readonly string[] | undefined): Promise<string[]> {
    const entries = (await store.permissions.toArray()).map(({ key: _key, ...entry }) => entry) as unknown as PermissionEntry[];
    const wanted = asked && asked.length > 0 ? new Set(asked.map((p) => p.toLowerCase())) : null;
    const out: string[] = [];
    for (const p of (await programsOf(org)).values()) {
      if (wanted && !wanted.has(p.Id.toLowerCase())) continue;
      const held = programFlags(entries, { id: p.Id, networkId: typeof p['NetworkId'] === 'string' ? p['NetworkId'] : null });
      if (missingFlags(held, flags).length === 0) out.push(p.Id);
    }
    // No program qualifies: an id no row has, so the filter keeps nothing.
    return out.length > 0 ? out : ['00000000-0000-0000-0000-000000000000'];
  }

  async function cursor(): Promise<string | null> {
    const row = await store.syncState.get('cursor');
    return row?.key === 'cursor' ? row.value : null;
  }

  async function save(): Promise<void> {
    if (!index) return;
    const at = Date.now();
    const json = serialize(index);
    await saveIndex(saved, { organizationId: index.organizationId, json, format: INDEX_FORMAT, cursor: await cursor(), savedAt: at });
    lastSavedAt = at;
    if (timings) Object.assign(timings, { saveMs: Date.now() - at, savedChars: json.length });
  }

  function saveSoon(): void {
    if (saveTimer || stopped) return;
    saveTimer = setTimeout(() => {
      saveTimer = null;
      void run(save);
    }, saveDelayMs);
  }

  const ALL: readonly SearchKind[] = ['program', 'clip', 'playlist', 'recording'];

  /** The index of `org`: the one in memory, else the saved one (checked against the store right
   * after, on the chain), else built from the store (saved SAVE_DELAY_MS later, off the path of
   * the first search). */
  async function ensure(org: string): Promise<SearchIndex> {
    if (index && index.organizationId.toLowerCase() === org.toLowerCase()) return index;
    const t0 = performance.now();
    const kept = await loadSavedIndex(saved, org);
    const loaded = kept && kept.format === INDEX_FORMAT ? deserialize(kept.json) : null;
    const t1 = performance.now();
    if (loaded) {
      index = loaded;
      loadedFrom = 'saved';
      lastSavedAt = kept!.savedAt;
      timings = { readMs: 0, indexMs: t1 - t0, saveMs: 0, savedChars: kept!.json.length };
      // Brought up to date with what changed while nothing listened: only documents whose stamp
      // differs are indexed again, and it is saved only when something was.
      void run(async () => {
        if (index !== loaded) return;
        const t2 = performance.now();
        const { indexed, removed } = reconcile(loaded, await docsOf(org, ALL));
        if (timings) timings.readMs = performance.now() - t2;
        if (indexed + removed > 0) saveSoon();
      });
      return index;
    }
    // Held while the store is read, so that changes heard meanwhile are queued (apply runs after).
    index = createIndex(org);
    loadedFrom = 'built';
    const docs = await docsOf(org, ALL);
    const t2 = performance.now();
    index = build(org, docs);
    timings = { readMs: t2 - t1, indexMs: performance.now() - t2, saveMs: 0, savedChars: 0 };
    saveSoon();
    return index;
  }

  /** Applies one commit's changes to the index in memory. */
  async function apply(changes: TableChange[]): Promise<void> {
    if (!index) return;
    const org = index.organizationId;
    const full = new Set<SearchKind>();
    let programs: Map<string, LocalRow> | null = null;
    const programsNow = async () => (programs ??= await programsOf(org));
    let n = 0;
    for (const { table, keys } of changes) {
      if (table === 'annotations') {
        // A deleted annotation's recording is not known from its key: the recordings are made again
        // (annotations change one at a time, by hand; a pull's many pages are of the same few).
        full.add('recording');
        continue;
      }
      const kind = KIND_OF[table];
      if (!kind) continue;
      if (keys === 'all') {
        full.add(kind);
        continue;
      }
      const rows = await store[table as 'clips'].bulkGet(keys);
      const gone: string[] = [];
      const docs: SearchDoc[] = [];
      for (const [i, row] of rows.entries()) {
        if (!row || !inOrg(org)(row)) gone.push(`${kind}:${keys[i]}`);
        else {
          const ps = await programsNow();
          const annotations = kind === 'recording' ? await store.annotations.where('RecordingId').equals(row.Id).toArray() : [];
          docs.push(makeDoc({ kind, row, program: ps.get(kind === 'program' ? row.Id : String(row['ProgramId'])), annotations }));
        }
      }
      // A program's language is its content's: when it changed, its rows are made again.
      if (kind === 'program' && docs.some((d) => index!.docs.has(d.key) && index!.docs.get(d.key)!.language !== d.language)) {
        for (const k of ALL) if (k !== 'program') full.add(k);
      }
      n += remove(index, gone);
      n += upsert(index, docs);
    }
    if (full.size > 0) {
      const r = reconcile(index, await docsOf(org, [...full]), [...full]);
      n += r.indexed + r.removed;
    }
    if (n > 0) saveSoon();
  }

  const unsubscribe = onStoreChanged(store.name, (changes) => {
    if (!index || stopped) return;
    void run(() => apply(changes));
  });

  return {
    /** A page of matches with their rows as the store holds them. */
    async search(organizationId: string, q: ServiceQuery): Promise<SearchRowPage> {
      return run(async () => {
        const { permissionFilter, ...query } = q;
        if (permissionFilter && permissionFilter.length > 0) query.programIds = await programsWith(organizationId, permissionFilter, query.programIds);
        const page: IndexPage = search(await ensure(organizationId), query);
        // The page's rows, one read per table (not one per row: each read is a transaction of its own).
        const rowsOf = new Map<string, LocalRow | undefined>();
        for (const kind of new Set(page.hits.map((h) => h.doc.kind))) {
          const ids = page.hits.filter((h) => h.doc.kind === kind).map((h) => h.doc.id);
          const rows = await store[TABLE_OF[kind]].bulkGet(ids);
          ids.forEach((id, i) => rowsOf.set(`${kind}:${id}`, rows[i]));
        }
        const hits: SearchRowHit[] = [];
        for (const h of page.hits) {
          const row = rowsOf.get(h.doc.key);
          if (row) hits.push({ kind: h.doc.kind, row, score: h.score });
        }
        return { hits, hasNext: page.hasNext, page: page.page, total: page.total };
      });
    },
    /** Loads or builds the organization's index ahead of the first search. */
    async prepare(organizationId: string): Promise<IndexStatus> {
      await run(() => ensure(organizationId));
      return this.status();
    },
    status(): IndexStatus {
      return { organizationId: index?.organizationId ?? null, documents: index?.docs.size ?? 0, loadedFrom, lastSavedAt, timings };
    },
    /** Waits for every change heard so far to be in the index (tests, benchmarks). */
    async settled(): Promise<void> {
      await run(async () => undefined);
    },
    /** Saves now (instead of after the delay). */
    async flush(): Promise<void> {
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = null;
      await run(save);
    },
    /** Forgets the index in memory and on the device (a log-out clears it too, reset.ts). */
    async clear(): Promise<void> {
      await run(async () => {
        index = null;
        loadedFrom = null;
        await clearSavedIndex(saved);
      });
    },
    stop(): void {
      stopped = true;
      if (saveTimer) clearTimeout(saveTimer);
      unsubscribe();
      saved.close();
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
