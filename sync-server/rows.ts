// Content rows: the one place that turns table rows into wire entities (PascalCase, section 3)
// and writes them. Every write, single or bulk:
//   - takes a new Version from the global sequence `row_version`,
//   - sets ModifiedAtUtc strictly later than the row's previous value (the clock, or +1 ms when
//     the clock has not moved past it: the concurrency token must change on every write),
//   - records the row as written in row_revisions (the last REVISIONS_KEPT per row), which the
//     sync module's three-way merge reads.
import type { Queryable } from './store/store.ts';

export type EntityName = 'organization' | 'network' | 'program' | 'playlist' | 'clip' | 'recording' | 'annotation';

type ColumnType = 'text' | 'uuid' | 'boolean' | 'jsonb';
type EntityDef = {
  table: string;
  /** Wire field → [column, type]: the fields kept as real columns; the rest live in `data`. */
  columns: Record<string, readonly [string, ColumnType]>;
};

export const ENTITIES: Record<EntityName, EntityDef> = {
  organization: {
    table: 'organizations',
    columns: { Name: ['name', 'text'], IsDemoOrganization: ['is_demo', 'boolean'], Provider: ['provider', 'text'] },
  },
  network: { table: 'networks', columns: { Name: ['name', 'text'] } },
  program: { table: 'programs', columns: { Name: ['name', 'text'], NetworkId: ['network_id', 'uuid'], Slug: ['slug', 'text'] } },
  playlist: {
    table: 'playlists',
    columns: {
      ProgramId: ['program_id', 'uuid'],
      Title: ['title', 'text'],
      Slug: ['slug', 'text'],
      Visibility: ['visibility', 'text'],
      ClipIds: ['clip_ids', 'jsonb'],
    },
  },
  clip: {
    table: 'clips',
    columns: {
      ProgramId: ['program_id', 'uuid'],
      Title: ['title', 'text'],
      Slug: ['slug', 'text'],
      State: ['state', 'text'],
      PublishState: ['publish_state', 'text'],
      Visibility: ['visibility', 'text'],
    },
  },
  recording: { table: 'recordings', columns: { ProgramId: ['program_id', 'uuid'], Title: ['title', 'text'], State: ['state', 'text'] } },
  annotation: { table: 'annotations', columns: { RecordingId: ['recording_id', 'uuid'] } },
};

export const REVISIONS_KEPT = 50;

const META = ['Id', 'OrganizationId', 'CreatedAtUtc', 'CreatedById', 'ModifiedAtUtc', 'ModifiedById', 'Deleted', 'Version'];

/** The bookkeeping of every content row on the wire. */
export type WireMeta = {
  Id: string;
  OrganizationId: string;
  CreatedAtUtc: string;
  CreatedById: string | null;
  ModifiedAtUtc: string;
  ModifiedById: string | null;
  Deleted: boolean;
  Version: number;
};
export type WireRow = WireMeta & Record<string, unknown>;

export type DbRow = {
  id: string;
  organization_id: string;
  created_at_utc: Date;
  created_by_id: string | null;
  modified_at_utc: Date;
  modified_by_id: string | null;
  deleted: boolean;
  version: number;
  data: Record<string, unknown>;
  playlist_ids?: string[];
} & Record<string, unknown>;

/**
 * SELECT list of an entity: clips add PlaylistIds, derived from the playlists' ordered ClipIds
 * (the playlist row is the one source of membership; a membership change bumps the playlist).
 */
export function selectFrom(entity: EntityName, alias = 't'): string {
  const { table } = ENTITIES[entity];
  if (entity !== 'clip') return `SELECT ${alias}.* FROM ${table} ${alias}`;
  return `SELECT ${alias}.*, ${PLAYLIST_IDS(alias)} FROM ${table} ${alias}`;
}

const PLAYLIST_IDS = (alias: string) => `COALESCE((SELECT jsonb_agg(p.id ORDER BY p.title, p.id) FROM playlists p
    WHERE p.clip_ids @> jsonb_build_array(${alias}.id::text) AND NOT p.deleted), '[]'::jsonb) AS playlist_ids`;

/**
 * A page of rows (`inner` selects `t.*` of the entity's table with its WHERE, ORDER BY, LIMIT
 * and OFFSET). Clips get their PlaylistIds for the page's rows only: the page is chosen first,
 * then joined (a deep page would otherwise compute them for every row it skips).
 */
export function pageOf(entity: EntityName, inner: string, order: string): string {
  if (entity !== 'clip') return inner;
  return `SELECT t.*, ${PLAYLIST_IDS('t')} FROM (${inner}) t ORDER BY ${order}`;
}

export function toWire(entity: EntityName, row: DbRow): WireRow {
  const def = ENTITIES[entity];
  const wire: WireRow = {
    ...row.data,
    Id: row.id,
    OrganizationId: row.organization_id,
    CreatedAtUtc: row.created_at_utc.toISOString(),
    CreatedById: row.created_by_id,
    ModifiedAtUtc: row.modified_at_utc.toISOString(),
    ModifiedById: row.modified_by_id,
    Deleted: row.deleted,
    Version: row.version,
  };
  for (const [field, [column]] of Object.entries(def.columns)) wire[field] = row[column] ?? null;
  if (entity === 'clip') wire.PlaylistIds = row.playlist_ids ?? [];
  return wire;
}

/** ModifiedAtUtc of a write: the clock, but always at least 1 ms after the previous value. */
export function nextModified(now: Date, previous?: string | Date | null): Date {
  if (previous === undefined || previous === null) return now;
  const prev = typeof previous === 'string' ? Date.parse(previous) : previous.getTime();
  return new Date(Math.max(now.getTime(), prev + 1));
}

export function splitFields(entity: EntityName, fields: Record<string, unknown>) {
  const def = ENTITIES[entity];
  const data: Record<string, unknown> = {};
  const columns: Array<[string, ColumnType, unknown]> = [];
  for (const [key, value] of Object.entries(fields)) {
    if (META.includes(key) || key === 'PlaylistIds') continue;
    const col = def.columns[key];
    if (col) columns.push([col[0], col[1], col[1] === 'jsonb' ? JSON.stringify(value) : value]);
    else if (value !== undefined) data[key] = value;
  }
  return { data, columns };
}

async function recordRevision(q: Queryable, entity: EntityName, wire: WireRow): Promise<void> {
  await q.query(`INSERT INTO row_revisions (entity, id, version, modified_at_utc, row) VALUES ($1, $2, $3, $4, $5)`, [
    entity,
    wire.Id,
    wire.Version,
    wire.ModifiedAtUtc,
    JSON.stringify(wire),
  ]);
  await q.query(
    `DELETE FROM row_revisions WHERE entity = $1 AND id = $2 AND version <= (
       SELECT version FROM row_revisions WHERE entity = $1 AND id = $2 ORDER BY version DESC OFFSET ${REVISIONS_KEPT} LIMIT 1)`,
    [entity, wire.Id],
  );
}

export type WriteContext = { organizationId: string; userId: string | null; now: Date };

/** Inserts a new row (its Id chosen by the caller: clients may supply UUIDs). */
export async function insertRow(
  q: Queryable,
  entity: EntityName,
  id: string,
  ctx: WriteContext,
  fields: Record<string, unknown>,
): Promise<WireRow> {
  const { data, columns } = splitFields(entity, fields);
  const names = ['id', 'organization_id', 'created_at_utc', 'created_by_id', 'modified_at_utc', 'modified_by_id', 'deleted', 'data', ...columns.map((c) => c[0])];
  const values: unknown[] = [id, ctx.organizationId, ctx.now, ctx.userId, ctx.now, ctx.userId, false, JSON.stringify(data), ...columns.map((c) => c[2])];
  const placeholders = values.map((_, i) => `$${i + 1}`);
  const [row] = await q.query<DbRow>(
    `INSERT INTO ${ENTITIES[entity].table} (${names.join(', ')}, version) VALUES (${placeholders.join(', ')}, nextval('row_version')) RETURNING *`,
    values,
  );
  const wire = toWire(entity, { ...row!, playlist_ids: [] });
  await recordRevision(q, entity, wire);
  return wire;
}

/**
 * Writes the complete new state of an existing row (`current` merged with the change) and
 * returns it as the wire sees it. Callers lock `current` with SELECT … FOR UPDATE first.
 */
export async function updateRow(
  q: Queryable,
  entity: EntityName,
  current: WireRow,
  ctx: WriteContext,
  next: Record<string, unknown>,
): Promise<WireRow> {
  const { data, columns } = splitFields(entity, next);
  const modified = nextModified(ctx.now, current.ModifiedAtUtc);
  const sets = ['modified_at_utc = $2', 'modified_by_id = $3', 'deleted = $4', 'data = $5', "version = nextval('row_version')"];
  const values: unknown[] = [current.Id, modified, ctx.userId, next.Deleted ?? current.Deleted, JSON.stringify(data)];
  for (const [column, , value] of columns) {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  const [row] = await q.query<DbRow>(`UPDATE ${ENTITIES[entity].table} SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, values);
  const wire = toWire(entity, { ...row!, playlist_ids: (current.PlaylistIds as string[] | undefined) ?? [] });
  await recordRevision(q, entity, wire);
  return wire;
}

/** Loads one row of the organization (null when absent or of another organization), optionally locked. */
export async function loadRow(
  q: Queryable,
  entity: EntityName,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WireRow | null> {
  const lock = options.forUpdate ? ' FOR UPDATE OF t' : '';
  const rows = await q.query<DbRow>(`${selectFrom(entity)} WHERE t.id = $1 AND t.organization_id = $2${lock}`, [id, organizationId]);
  return rows[0] ? toWire(entity, rows[0]) : null;
}

/**
 * A write computed in memory (the sync push's batches): the wire row it produces, exactly as
 * insertRow/updateRow would return it, and the table row to store. `Version` is 0 until
 * writePlanned takes the versions from the sequence and fills it in.
 */
export type PlannedWrite = { entity: EntityName; kind: 'insert' | 'update'; wire: WireRow; db: DbRow };

const jsonCopy = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

export function planWrite(entity: EntityName, ctx: WriteContext, current: WireRow | null, id: string, fields: Record<string, unknown>): PlannedWrite {
  const def = ENTITIES[entity];
  // Columns an update leaves out keep their value (updateRow sets only the columns given).
  const columnFields: Record<string, unknown> = {};
  if (current) for (const field of Object.keys(def.columns)) columnFields[field] = current[field];
  const { data, columns } = splitFields(entity, { ...columnFields, ...fields });
  const db: DbRow = {
    id,
    organization_id: ctx.organizationId,
    created_at_utc: current ? new Date(current.CreatedAtUtc) : ctx.now,
    created_by_id: current ? current.CreatedById : ctx.userId,
    modified_at_utc: current ? nextModified(ctx.now, current.ModifiedAtUtc) : ctx.now,
    modified_by_id: ctx.userId,
    deleted: current ? Boolean(fields.Deleted ?? current.Deleted) : false,
    version: 0,
    data: jsonCopy(data),
    playlist_ids: current ? ((current.PlaylistIds as string[] | undefined) ?? []) : [],
  };
  for (const [column, type, value] of columns) {
    db[column] = type === 'jsonb' ? JSON.parse(value as string) : type === 'uuid' && typeof value === 'string' ? value.toLowerCase() : (value ?? null);
  }
  return { entity, kind: current ? 'update' : 'insert', wire: toWire(entity, db), db };
}

const TABLE_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['id', 'uuid'],
  ['organization_id', 'uuid'],
  ['created_at_utc', 'timestamptz'],
  ['created_by_id', 'uuid'],
  ['modified_at_utc', 'timestamptz'],
  ['modified_by_id', 'uuid'],
  ['deleted', 'boolean'],
  ['data', 'jsonb'],
  ['version', 'bigint'],
];

/**
 * Stores planned writes with a handful of statements whatever their number: one sequence read
 * for their Versions (in order), per table one INSERT of the new rows and one UPDATE of the
 * changed ones (a row written twice is stored once, as last written), one INSERT of every
 * revision and one prune of the revisions past REVISIONS_KEPT. Fills in each wire row's Version.
 */
export async function writePlanned(q: Queryable, writes: readonly PlannedWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const versions = (await q.query<{ v: number | string }>(`SELECT nextval('row_version') AS v FROM generate_series(1, $1::int)`, [writes.length]))
    .map((r) => Number(r.v))
    .sort((a, b) => a - b);
  const last = new Map<string, { write: PlannedWrite; isNew: boolean }>();
  for (const [i, w] of writes.entries()) {
    w.db.version = versions[i]!;
    w.wire.Version = versions[i]!;
    const key = `${w.entity}:${w.db.id}`;
    last.set(key, { write: w, isNew: w.kind === 'insert' || (last.get(key)?.isNew ?? false) });
  }
  for (const entity of new Set(writes.map((w) => w.entity))) {
    const def = ENTITIES[entity];
    const cols = [...TABLE_COLUMNS, ...Object.values(def.columns).map(([column, type]) => [column, type] as const)];
    const recordType = cols.map(([c, t]) => `${c} ${t}`).join(', ');
    const docs = (isNew: boolean) =>
      [...last.values()]
        .filter((l) => l.write.entity === entity && l.isNew === isNew)
        .map(({ write: { db } }) => Object.fromEntries(cols.map(([c]) => [c, c === 'created_at_utc' || c === 'modified_at_utc' ? (db[c] as Date).toISOString() : (db[c] ?? null)])));
    const inserts = docs(true);
    if (inserts.length > 0) {
      await q.query(
        `INSERT INTO ${def.table} (${cols.map(([c]) => c).join(', ')}) SELECT ${cols.map(([c]) => `r.${c}`).join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${recordType})`,
        [JSON.stringify(inserts)],
      );
    }
    const updates = docs(false);
    if (updates.length > 0) {
      const sets = cols.filter(([c]) => !['id', 'organization_id', 'created_at_utc', 'created_by_id'].includes(c)).map(([c]) => `${c} = r.${c}`);
      await q.query(`UPDATE ${def.table} t SET ${sets.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${recordType}) WHERE t.id = r.id`, [JSON.stringify(updates)]);
    }
  }
  await q.query(
    `INSERT INTO row_revisions (entity, id, version, modified_at_utc, row)
     SELECT r.entity, r.id, r.version, r.modified_at_utc, r.row FROM jsonb_to_recordset($1::jsonb) AS r(entity text, id uuid, version bigint, modified_at_utc timestamptz, row jsonb)`,
    [JSON.stringify(writes.map((w) => ({ entity: w.entity, id: w.db.id, version: w.db.version, modified_at_utc: w.wire.ModifiedAtUtc, row: w.wire })))],
  );
  const touched = [...last.values()].map((l) => l.write);
  await q.query(
    `DELETE FROM row_revisions r USING (
       SELECT entity, id, version, row_number() OVER (PARTITION BY entity, id ORDER BY version DESC) AS n
       FROM row_revisions WHERE (entity, id) IN (SELECT * FROM unnest($1::text[], $2::uuid[]))) old
     WHERE old.n > ${REVISIONS_KEPT} AND r.entity = old.entity AND r.id = old.id AND r.version = old.version`,
    [touched.map((w) => w.entity), touched.map((w) => w.db.id)],
  );
}

export type BulkRow = { id: string; createdById: string | null; createdAt: Date; modifiedAt: Date; deleted?: boolean; fields: Record<string, unknown> };

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const isoSql = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', ${ISO_MS})`;

/**
 * Inserts many rows of one organization in one statement, with their revisions (ENVIRONMENT.md:
 * batch, never row by row). The batch travels as ONE jsonb document expanded with
 * jsonb_to_recordset, not as text arrays of JSON (escaped and parsed twice). Clip rows are
 * ~1.7 KB of JSON each, so a 10,000-clip batch is ~17 MB: measured ~6 s on PGlite and ~3 s on
 * PostgreSQL per 10,000 clips with their revisions (ENVIRONMENT.md's 75 ms was for small rows).
 * The revision rows are built in SQL from what was inserted, so they equal toWire's output.
 */
export async function bulkInsert(q: Queryable, entity: EntityName, organizationId: string, rows: BulkRow[]): Promise<void> {
  if (rows.length === 0) return;
  const def = ENTITIES[entity];
  const cols = Object.entries(def.columns);
  const docs = rows.map((r) => {
    const doc: Record<string, unknown> = {
      id: r.id,
      created_at_utc: r.createdAt.toISOString(),
      created_by_id: r.createdById,
      modified_at_utc: r.modifiedAt.toISOString(),
      deleted: r.deleted ?? false,
      data: splitFields(entity, r.fields).data,
    };
    for (const [field, [column]] of cols) doc[column] = r.fields[field] ?? null;
    return doc;
  });
  const recordType = [
    'id uuid',
    'created_at_utc timestamptz',
    'created_by_id uuid',
    'modified_at_utc timestamptz',
    'deleted boolean',
    'data jsonb',
    ...cols.map(([, [column, type]]) => `${column} ${type}`),
  ].join(', ');
  const names = ['id', 'created_at_utc', 'created_by_id', 'modified_at_utc', 'modified_by_id', 'deleted', 'data', ...cols.map(([, [c]]) => c)];
  const select = ['r.id', 'r.created_at_utc', 'r.created_by_id', 'r.modified_at_utc', 'r.created_by_id', 'r.deleted', 'r.data', ...cols.map(([, [c]]) => `r.${c}`)];
  const wireColumns = cols.map(([field, [column]]) => `'${field}', ins.${column}`).join(', ');
  const wire = `ins.data || jsonb_build_object(
      'Id', ins.id, 'OrganizationId', ins.organization_id, 'CreatedAtUtc', ${isoSql('ins.created_at_utc')},
      'CreatedById', ins.created_by_id, 'ModifiedAtUtc', ${isoSql('ins.modified_at_utc')}, 'ModifiedById', ins.modified_by_id,
      'Deleted', ins.deleted, 'Version', ins.version)${cols.length ? ` || jsonb_build_object(${wireColumns})` : ''}${
        entity === 'clip' ? ` || jsonb_build_object('PlaylistIds', '[]'::jsonb)` : ''
      }`;
  await q.query(
    `WITH ins AS (
       INSERT INTO ${def.table} (organization_id, ${names.join(', ')}, version)
       SELECT $1::uuid, ${select.join(', ')}, nextval('row_version')
       FROM jsonb_to_recordset($2::jsonb) AS r(${recordType})
       RETURNING *)
     INSERT INTO row_revisions (entity, id, version, modified_at_utc, row)
     SELECT $3, ins.id, ins.version, ins.modified_at_utc, ${wire} FROM ins`,
    [organizationId, JSON.stringify(docs), entity],
  );
}
