// The storage of a push batch: the named mutations' server runs (sync-server/mutations) run against
// it exactly as the REST routes run against directStore, but with a handful of set-based
// statements per batch instead of several round trips per mutation.
//
//   preload: the batch's rows, locked (one SELECT … = ANY($1) FOR UPDATE per table, clips with
//            their PlaylistIds from one join), and the organization's programs
//   run:     each operation reads and writes the in-memory rows; its writes are kept only if it
//            succeeds (a rejected mutation leaves nothing behind)
//   flush:   rows.ts writePlanned (Versions, then one statement: rows, revisions, prune) before any
//            rule read (q) and at the end, so every read sees the batch's earlier writes; the
//            last one also stores the push's results (push.ts), in the same statement
//
// Pipelining (push.ts runs a large batch in two halves): `prefetch` sends the second half's read
// and `startFlush` the first half's writes without waiting for them, so PostgreSQL reads and
// writes while Node runs the other half's operations. Statements on the transaction's connection
// run in the order they are sent; what an operation needs waits for its own statement (a row
// being loaded, the Versions of writes sent). The second half's rows are locked with the first
// half's, in the one order every batch locks in (sendLoads).
import type { Auth } from '../auth.ts';
import type { OpStore, ProgramRef } from '../mutations/store.ts';
import { clipMembershipsJsonSql, ENTITIES, planWrite, playlistIdsByClip, wireFromJson, writePlanned, type EntityName, type PlannedWrite, type WireRow, type WriteContext, type WriteTail } from '../rows.ts';
import type { Queryable } from '../store/store.ts';

const key = (entity: EntityName, id: string) => `${entity}:${id}`;

/**
 * A table's rows with the Ids in $1 as ONE JSON text value (rows of other organizations too),
 * locked when asked. `lockAll`: the parameter of a larger set of Ids to lock in the same pass,
 * in id order, of which only $1's rows are read.
 */
const ROWS_JSON = (table: string, lock: boolean, lockAll?: string) =>
  `SELECT coalesce(json_agg(t)${lockAll ? ` FILTER (WHERE t.id = ANY($1::uuid[]))` : ''}, '[]')::text
   FROM (SELECT * FROM ${table} WHERE id = ANY(${lockAll ?? '$1'}::uuid[]) ORDER BY id${lock || lockAll ? ' FOR UPDATE' : ''}) t`;

/**
 * The rows of one table with these Ids as wire rows, locked when asked: ONE JSON text value made
 * into wire rows by rows.ts wireFromJson (decoding 200 full rows one by one and rebuilding them
 * was a fifth of a push's time). Rows of other organizations come back too (the caller tells
 * "absent" from "elsewhere").
 */
export async function loadWire(q: Queryable, entity: EntityName, ids: string[], lock: boolean, lockAll?: string[]): Promise<WireRow[]> {
  const [result] = await q.query<{ j: string }>(
    `SELECT (${ROWS_JSON(ENTITIES[entity].table, lock, lockAll && '$2')}) AS j`,
    lockAll ? [ids, lockAll] : [ids],
  );
  return (JSON.parse(result?.j ?? '[]') as Array<Record<string, unknown>>).map((r) => wireFromJson(entity, r));
}

/** [clip id, playlist id] pairs of the clips $1 in live playlists of organization $2. */
const MEMBERSHIPS_JSON = clipMembershipsJsonSql('$2', 'e.clip_id = ANY($1::uuid[]::text[])');

/** The programs of the organization in parameter `org` (ProgramRefs), for the permission and slug rules. */
const PROGRAMS_JSON = (org: string) => `SELECT coalesce(json_agg(json_build_object('id', id, 'network_id', network_id, 'slug', slug, 'deleted', deleted)), '[]')::text
  FROM programs WHERE organization_id = ${org}`;

/**
 * Clip rows with their PlaylistIds, and the organization's programs when asked for: ONE statement
 * (a push's first clip read asks for both, where three statements were three round trips).
 */
async function queryClips(
  q: Queryable,
  organizationId: string,
  ids: string[],
  lock: boolean,
  withPrograms: boolean,
  lockAll?: string[],
): Promise<{ rows: WireRow[]; programs: ProgramRef[] | null }> {
  const [result] = await q.query<{ rows: string; memberships: string; programs?: string }>(
    `SELECT (${ROWS_JSON('clips', lock, lockAll && '$3')}) AS rows, (${MEMBERSHIPS_JSON}) AS memberships${withPrograms ? `, (${PROGRAMS_JSON('$2')}) AS programs` : ''}`,
    lockAll ? [ids, organizationId, lockAll] : [ids, organizationId],
  );
  const rows = (JSON.parse(result?.rows ?? '[]') as Array<Record<string, unknown>>).map((r) => wireFromJson('clip', r));
  const byClip = playlistIdsByClip(JSON.parse(result?.memberships ?? '[]') as Array<[string, string]>);
  for (const r of rows) r['PlaylistIds'] = byClip.get(r.Id) ?? [];
  return { rows, programs: result?.programs === undefined ? null : (JSON.parse(result.programs) as ProgramRef[]) };
}

/** Clip rows with their PlaylistIds, in one statement. */
export async function loadClips(q: Queryable, organizationId: string, ids: string[], lock: boolean): Promise<WireRow[]> {
  return (await queryClips(q, organizationId, ids, lock, false)).rows;
}

export class BatchStore implements OpStore {
  readonly q: Queryable;
  /** Every row read or written in this batch, as it now is (null: no row with this Id anywhere). */
  private readonly rows = new Map<string, { row: WireRow | null; exists: boolean }>();
  private programs: Map<string, ProgramRef> | null = null;
  /** Written by earlier operations, not yet stored. */
  private pending: PlannedWrite[] = [];
  /** Written by the running operation; kept only if it succeeds. */
  private staged: PlannedWrite[] = [];
  /** Clips whose PlaylistIds are known to follow every playlist write of the batch. */
  private freshClips = new Set<string>();
  /** Playlist writes made in this batch, and how many of them were sent before the last write
   * statement: a read sent after it sees those (not later ones) in clips' PlaylistIds. */
  private playlistWrites = 0;
  private playlistWritesSent = 0;
  /** Rows whose read has been sent and not answered (prefetch), by key. */
  private readonly loading = new Map<string, Promise<void>>();
  /** The writes sent by startFlush, until they are answered (their Versions known). */
  private writing: Promise<void> | null = null;
  /** Highest Version written (for the poke after commit). */
  maxVersion = 0;
  readonly written: PlannedWrite[] = [];

  constructor(
    private readonly tx: Queryable,
    readonly auth: Auth,
    readonly write: WriteContext,
  ) {
    this.q = { query: async (sql, params) => (await this.flush(), this.tx.query(sql, params)) };
  }

  /**
   * Loads and locks the rows the batch names, one statement per table. `later`: rows a later
   * part of the batch names (prefetch), locked now and read then.
   */
  async preload(targets: ReadonlyArray<{ entity: EntityName; id: string }>, later: ReadonlyArray<{ entity: EntityName; id: string }> = []): Promise<void> {
    await Promise.all(this.sendLoads(targets, later));
  }

  /** Sends the read of rows a later part of the batch names without waiting for it: an operation
   * that needs one of them waits then (and meets the read's failure, if it failed). */
  prefetch(targets: ReadonlyArray<{ entity: EntityName; id: string }>): void {
    for (const loading of this.sendLoads(targets)) loading.catch(() => undefined);
  }

  /**
   * One read per table of the rows not yet read or being read, `alsoLock` locked with them.
   * Tables go in one order (by name) and rows by id within each: two batches that lock some of
   * the same rows take them in the same order, so one waits for the other rather than each for
   * the other (a deadlock, which PostgreSQL ends after a second by failing one of them).
   */
  private sendLoads(targets: ReadonlyArray<{ entity: EntityName; id: string }>, alsoLock: ReadonlyArray<{ entity: EntityName; id: string }> = []): Array<Promise<void>> {
    const byEntity = new Map<EntityName, { read: Set<string>; lock: Set<string> }>();
    const add = (t: { entity: EntityName; id: string }, read: boolean) => {
      const k = key(t.entity, t.id);
      if (this.rows.has(k) || this.loading.has(k)) return;
      const sets = byEntity.get(t.entity) ?? { read: new Set<string>(), lock: new Set<string>() };
      if (read) sets.read.add(t.id);
      sets.lock.add(t.id);
      byEntity.set(t.entity, sets);
    };
    for (const t of targets) add(t, true);
    for (const t of alsoLock) add(t, false);
    return [...byEntity]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([entity, { read, lock }]) => {
        const ids = [...read];
        const loading = this.load(entity, ids, lock.size > read.size ? [...lock] : undefined);
        for (const id of ids) this.loading.set(key(entity, id), loading);
        return loading;
      });
  }

  private async load(entity: EntityName, ids: string[], lockAll?: string[]): Promise<void> {
    // The clips' PlaylistIds follow the playlist writes sent before this read, and no later ones.
    const sees = this.playlistWritesSent;
    let rows: WireRow[];
    if (entity === 'clip') {
      // The organization's programs come with the first clips read (the rules need them).
      const loaded = await queryClips(this.tx, this.auth.organizationId, ids, true, !this.programs, lockAll);
      rows = loaded.rows;
      if (loaded.programs && !this.programs) this.programs = new Map(loaded.programs.map((p) => [p.id, p]));
    } else rows = await loadWire(this.tx, entity, ids, true, lockAll);
    const fresh = sees === this.playlistWrites;
    // A row written while this read was on its way is kept as written. (Each operation writes
    // only the row its mutation names, read before it runs; this keeps a read sent early from
    // ever undoing a write all the same.)
    const answer = new Map(rows.map((r) => [r.Id, r]));
    for (const id of ids) {
      const k = key(entity, id);
      if (this.rows.has(k)) continue;
      const r = answer.get(id);
      this.rows.set(k, r ? { row: r.OrganizationId === this.auth.organizationId ? r : null, exists: true } : { row: null, exists: false });
      if (r && entity === 'clip' && fresh) this.freshClips.add(id);
    }
  }

  private async known(entity: EntityName, id: string) {
    const k = key(entity, id);
    if (!this.rows.has(k)) await (this.loading.get(k) ?? this.load(entity, [id]));
    let entry = this.rows.get(k)!;
    if (entity === 'clip' && entry.row && !this.freshClips.has(id)) {
      // A playlist of this batch changed its clips since the row was read: take PlaylistIds anew.
      await this.flush();
      const [fresh] = await loadClips(this.tx, this.auth.organizationId, [id], false);
      if (fresh) entry = { row: { ...entry.row, PlaylistIds: fresh['PlaylistIds'] ?? [] }, exists: true };
      this.rows.set(k, entry);
      this.freshClips.add(id);
    }
    return entry;
  }

  async row(entity: EntityName, id: string): Promise<WireRow | null> {
    return (await this.known(entity, id)).row;
  }

  async exists(entity: EntityName, id: string): Promise<boolean> {
    return (await this.known(entity, id)).exists;
  }

  async program(id: string): Promise<ProgramRef | null> {
    const written = this.rows.get(key('program', id));
    if (written) {
      const r = written.row;
      return r ? { id: r.Id, network_id: (r.NetworkId as string | null) ?? null, slug: (r.Slug as string | null) ?? null, deleted: r.Deleted } : null;
    }
    if (!this.programs) {
      const [result] = await this.tx.query<{ j: string }>(`SELECT (${PROGRAMS_JSON('$1')}) AS j`, [this.auth.organizationId]);
      this.programs = new Map((JSON.parse(result?.j ?? '[]') as ProgramRef[]).map((p) => [p.id, p]));
    }
    return this.programs.get(id) ?? null;
  }

  insert(entity: EntityName, id: string, fields: Record<string, unknown>): Promise<WireRow> {
    return Promise.resolve(this.stage(planWrite(entity, this.write, null, id, fields)));
  }

  update(entity: EntityName, current: WireRow, next: Record<string, unknown>): Promise<WireRow> {
    return Promise.resolve(this.stage(planWrite(entity, this.write, current, current.Id, next)));
  }

  private stage(w: PlannedWrite): WireRow {
    this.staged.push(w);
    return w.wire;
  }

  /** Runs one operation: its writes join the batch when it resolves and are dropped when it throws. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    this.staged = [];
    try {
      const out = await fn();
      for (const w of this.staged) {
        this.pending.push(w);
        this.written.push(w);
        this.rows.set(key(w.entity, w.wire.Id), { row: w.wire, exists: true });
        if (w.entity === 'playlist') {
          this.playlistWrites++;
          this.freshClips.clear();
        }
        if (w.entity === 'clip') this.freshClips.add(w.wire.Id);
      }
      return out;
    } finally {
      this.staged = [];
    }
  }

  /** The row a write of this batch that answered `row` was made on (null: an insert, or no such write). */
  writtenOver(row: unknown): WireRow | null {
    for (let i = this.written.length - 1; i >= 0; i--) if (this.written[i]!.wire === row) return this.written[i]!.before;
    return null;
  }

  /** Whether `row` is the row of a write not yet stored (its Version is not known yet). */
  isPending(row: unknown): boolean {
    return this.pending.some((w) => w.wire === row);
  }

  /**
   * Stores the writes made so far (their Versions are known afterwards). `tail`: a statement to
   * run with them (rows.ts WriteTail), made from where a row stands among them (its `w.ord`;
   * undefined for a row this flush does not write, whose Version is known).
   */
  async flush(tail?: (ordOf: (row: unknown) => number | undefined) => WriteTail): Promise<void> {
    // The writes startFlush sent first: the tail names their Versions, and a failure is the batch's.
    if (this.writing) {
      await this.writing;
      this.writing = null;
    }
    if (this.pending.length > 0 || tail) await this.sendPending(tail);
  }

  /** Sends the writes made so far without waiting for their answer; flush (and every rule read
   * through q) waits for it. Versions are set on the rows once it arrives. */
  startFlush(): void {
    if (this.pending.length === 0) return;
    const sent = this.sendPending();
    this.writing = this.writing ? Promise.all([this.writing, sent]).then(() => undefined) : sent;
    this.writing.catch(() => undefined); // met by the next flush, which every batch ends with
  }

  /** One write statement for the pending writes (and the tail); resolves once their Versions are set. */
  private async sendPending(tail?: (ordOf: (row: unknown) => number | undefined) => WriteTail): Promise<void> {
    const writes = this.pending;
    this.pending = [];
    this.playlistWritesSent = this.playlistWrites;
    const ords = tail && new Map<unknown, number>(writes.map((w, i) => [w.wire, i]));
    await writePlanned(this.tx, writes, tail?.((row) => ords!.get(row)));
    for (const w of writes) this.maxVersion = Math.max(this.maxVersion, w.wire.Version);
  }
}
