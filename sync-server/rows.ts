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
  return `SELECT ${alias}.*, COALESCE((SELECT jsonb_agg(p.id ORDER BY p.title, p.id) FROM playlists p
    WHERE p.clip_ids @> jsonb_build_array(${alias}.id::text) AND NOT p.deleted), '[]'::jsonb) AS playlist_ids
    FROM ${table} ${alias}`;
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

function splitFields(entity: EntityName, fields: Record<string, unknown>) {
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

export type BulkRow = { id: string; createdById: string | null; createdAt: Date; modifiedAt: Date; deleted?: boolean; fields: Record<string, unknown> };

const SQL_TYPE: Record<ColumnType, string> = { text: 'text', uuid: 'uuid', boolean: 'boolean', jsonb: 'jsonb' };

/**
 * Inserts many rows of one organization in one `INSERT … SELECT unnest(…)` statement (ENVIRONMENT.md:
 * 10,000 rows in ~75 ms this way), with their revisions. Used by the seed.
 */
export async function bulkInsert(q: Queryable, entity: EntityName, organizationId: string, rows: BulkRow[]): Promise<void> {
  if (rows.length === 0) return;
  const def = ENTITIES[entity];
  const cols = Object.entries(def.columns);
  const arrays: unknown[][] = [[], [], [], [], [], [], [], ...cols.map(() => [])];
  for (const r of rows) {
    const { data } = splitFields(entity, r.fields);
    arrays[0]!.push(r.id);
    arrays[1]!.push(r.createdAt.toISOString());
    arrays[2]!.push(r.createdById);
    arrays[3]!.push(r.modifiedAt.toISOString());
    arrays[4]!.push(r.createdById);
    arrays[5]!.push(r.deleted ?? false);
    arrays[6]!.push(JSON.stringify(data));
    cols.forEach(([field, [, type]], i) => {
      const value = r.fields[field] ?? null;
      arrays[7 + i]!.push(type === 'jsonb' ? JSON.stringify(value) : value);
    });
  }
  const types = ['uuid', 'timestamptz', 'uuid', 'timestamptz', 'uuid', 'boolean', 'jsonb', ...cols.map(([, [, t]]) => SQL_TYPE[t])];
  const names = ['id', 'created_at_utc', 'created_by_id', 'modified_at_utc', 'modified_by_id', 'deleted', 'data', ...cols.map(([, [c]]) => c)];
  const unnest = types.map((t, i) => `$${i + 2}::${t}[]`).join(', ');
  const inserted = await q.query<DbRow>(
    `INSERT INTO ${def.table} (organization_id, ${names.join(', ')}, version)
     SELECT $1::uuid, u.*, nextval('row_version') FROM unnest(${unnest}) AS u(${names.join(', ')})
     RETURNING *`,
    [organizationId, ...arrays],
  );
  const wires = inserted.map((row) => toWire(entity, { ...row, playlist_ids: [] }));
  await q.query(
    `INSERT INTO row_revisions (entity, id, version, modified_at_utc, row)
     SELECT $1, u.id, u.version, u.modified, u.row FROM unnest($2::uuid[], $3::bigint[], $4::timestamptz[], $5::jsonb[]) AS u(id, version, modified, row)`,
    [entity, wires.map((w) => w.Id), wires.map((w) => w.Version), wires.map((w) => w.ModifiedAtUtc), wires.map((w) => JSON.stringify(w))],
  );
}
