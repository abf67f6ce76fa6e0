// Content rows: the one place that turns table rows into wire entities (PascalCase, section 3)
// and writes them. Every write, single or bulk:
//   - takes a new Version from the global sequence `row_version`,
//   - sets ModifiedAtUtc strictly later than the row's previous value (the clock, or +1 ms when
//     the clock has not moved past it: the concurrency token must change on every write),
//   - records the write in row_revisions (the last REVISIONS_KEPT per row), which the sync
//     module's three-way merge and its answers to retried mutations read, and through which its
//     pull finds the rows changed after a cursor (a row's newest revision is never pruned).
//
// A revision is an undo step, not a copy of the row: its Version, ModifiedAtUtc and author, the
// sync client that made it (null outside a push), and `undo`, the values the fields it changed
// had before it (null for a create). The row at any kept revision is the current row walked back
// through the undo steps of every newer one (sync/revisions.ts). A clip edit's revision is then
// a few dozen bytes where a copy was ~1.7 KB, and a batch write sends the database only the
// fields that changed: both were most of what a push of 200 edits cost.
import type { Queryable } from './store/store.ts';
import { deepEqual } from '../src/protocol/json-equal.ts';

import { ENTITY_KINDS, SYNC_ENTITIES, type ColumnType, type EntityName } from '../src/protocol/entity-kinds.ts';

export type { EntityName };

type EntityDef = {
  table: string;
  /** Wire field → [column, type]: the fields kept as real columns; the rest live in `data`. */
  columns: Readonly<Record<string, readonly [string, ColumnType]>>;
};

/** Each kind's table and columns, by kind name (src/protocol/entity-kinds.ts is the registry). */
export const ENTITIES = Object.fromEntries(SYNC_ENTITIES.map((e) => [ENTITY_KINDS[e].kind, { table: ENTITY_KINDS[e].table, columns: ENTITY_KINDS[e].columns }])) as unknown as Record<
  EntityName,
  EntityDef
>;

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

/**
 * The [clip id, playlist id] pairs of clips in live playlists of organization `org` (a playlist
 * holds clips of its own organization only), as ONE JSON text value in selectFrom's order of
 * playlists (title, then id), for playlistIdsByClip. `clipIn`: the SQL condition on the clip id
 * as text (`e.clip_id`) that says which clips.
 */
export function clipMembershipsJsonSql(org: string, clipIn: string): string {
  return `SELECT coalesce(json_agg(json_build_array(e.clip_id, p.id) ORDER BY p.title, p.id), '[]')::text
    FROM playlists p CROSS JOIN LATERAL jsonb_array_elements_text(p.clip_ids) AS e(clip_id)
    WHERE p.organization_id = ${org} AND NOT p.deleted AND ${clipIn}`;
}

/** Clips' PlaylistIds from [clip id, playlist id] pairs given in selectFrom's order of playlists
 * (title, then id), each playlist once per clip. */
export function playlistIdsByClip(pairs: Iterable<readonly [string, string]>): Map<string, string[]> {
  const byClip = new Map<string, string[]>();
  for (const [clipId, playlistId] of pairs) {
    const list = byClip.get(clipId);
    if (!list) byClip.set(clipId, [playlistId]);
    else if (!list.includes(playlistId)) list.push(playlistId);
  }
  return byClip;
}

/** Each entity's column fields as [field, column, type], listed once (toWire runs per row). */
const COLUMN_LIST = Object.fromEntries(
  Object.entries(ENTITIES).map(([entity, def]) => [entity, Object.entries(def.columns).map(([field, [column, type]]) => [field, column, type] as const)]),
) as unknown as Record<EntityName, ReadonlyArray<readonly [string, string, ColumnType]>>;

export function toWire(entity: EntityName, row: DbRow): WireRow {
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
  for (const [field, column] of COLUMN_LIST[entity]) wire[field] = row[column] ?? null;
  if (entity === 'clip') wire.PlaylistIds = row.playlist_ids ?? [];
  return wire;
}

/**
 * toWire for a table row decoded from PostgreSQL's JSON (row_to_json / json_agg of the table's
 * rows): timestamps arrive as PostgreSQL's text, and the row's own `data` object becomes the wire
 * row (no copy: the decoded row is used once). A push's rows leave the database as one JSON text
 * and are turned into wire rows at a few microseconds each (a pull sends its rows' data unparsed:
 * wireTexts).
 */
export function wireFromJson(entity: EntityName, row: Record<string, unknown>): WireRow {
  const wire = (row['data'] ?? {}) as Record<string, unknown>;
  wire.Id = row['id'];
  wire.OrganizationId = row['organization_id'];
  wire.CreatedAtUtc = isoFromJson(row['created_at_utc'] as string);
  wire.CreatedById = row['created_by_id'] ?? null;
  wire.ModifiedAtUtc = isoFromJson(row['modified_at_utc'] as string);
  wire.ModifiedById = row['modified_by_id'] ?? null;
  wire.Deleted = row['deleted'];
  wire.Version = Number(row['version']);
  for (const [field, column] of COLUMN_LIST[entity]) wire[field] = row[column] ?? null;
  return wire as WireRow;
}

/**
 * A page of an entity's rows (alias `t`, ordered by Version) as two aggregates: `d`, each row's
 * `data` as PostgreSQL writes jsonb out, one per line (jsonb text never holds a raw newline), and
 * `m`, a JSON array of each row's columns. wireTexts() joins them into the rows' wire JSON without
 * parsing `data`, which is nearly all of a clip: a pull sends it on as the database wrote it.
 */
export function wireTextsSql(entity: EntityName): string {
  const columns = COLUMN_LIST[entity].map(([, column]) => `, t.${column}`).join('');
  return `coalesce(string_agg(t.data::text, E'\\n' ORDER BY t.version), '') AS d,
    coalesce(json_agg(json_build_array(t.id, t.organization_id, t.created_at_utc, t.created_by_id, t.modified_at_utc, t.modified_by_id,
      t.deleted, t.version${columns}) ORDER BY t.version), '[]')::text AS m`;
}

/** A row's wire JSON text, and the fields it holds outside `data` (its metadata and columns). */
export type WireText = { meta: WireRow; json: string };

/**
 * The rows of wireTextsSql's `d` and `m`. `extra` adds fields to a row's metadata (a clip's
 * PlaylistIds). The metadata comes after `data` in each text, so it wins as it does in toWire.
 */
export function wireTexts(entity: EntityName, d: string, m: string, extra?: (meta: WireRow) => Record<string, unknown>): WireText[] {
  const metas = JSON.parse(m) as unknown[][];
  if (metas.length === 0) return [];
  const datas = d.split('\n');
  if (datas.length !== metas.length) throw new Error(`pull: ${datas.length} data texts for ${metas.length} rows`);
  const columns = COLUMN_LIST[entity];
  return metas.map((c, i) => {
    const meta: WireRow = {
      Id: c[0] as string,
      OrganizationId: c[1] as string,
      CreatedAtUtc: isoFromJson(c[2] as string),
      CreatedById: (c[3] as string | null) ?? null,
      ModifiedAtUtc: isoFromJson(c[4] as string),
      ModifiedById: (c[5] as string | null) ?? null,
      Deleted: c[6] as boolean,
      Version: Number(c[7]),
    };
    for (const [j, [field]] of columns.entries()) meta[field] = c[8 + j] ?? null;
    const metaText = JSON.stringify(extra ? Object.assign(meta, extra(meta)) : meta);
    const data = datas[i]!;
    return { meta, json: data === '{}' ? metaText : `${data.slice(0, -1)},${metaText.slice(1)}` };
  });
}

/**
 * A timestamptz as PostgreSQL's JSON gives it, as the wire's ISO-8601 UTC with milliseconds. In a
 * UTC session a millisecond value reads '2026-11-26T15:00:51.964+00:00' and is only re-suffixed
 * (a page of rows has two per row: parsing each into a Date took 35 times as long); any other
 * form (fewer or more digits, another zone) is parsed.
 */
export function isoFromJson(text: string): string {
  if (text.length === 29 && text.charCodeAt(19) === 46 && text.endsWith('+00:00')) return `${text.slice(0, 23)}Z`;
  return new Date(text).toISOString();
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

/** Fields a revision's undo never holds: the bookkeeping (its own columns) but Deleted, which a
 * write changes like any field, and the clips' PlaylistIds, which are derived, never written. */
const NOT_UNDONE: ReadonlySet<string> = new Set([...META.filter((f) => f !== 'Deleted'), 'PlaylistIds']);

/** The fields a write changed (bookkeeping aside). Unchanged fields are mostly the same object
 * (`{ ...current, ...patch }`), so the deep comparison runs for the changed few. */
function changedKeys(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string[] {
  const keys: string[] = [];
  for (const k in before) if (!NOT_UNDONE.has(k) && !deepEqual(before[k], after[k])) keys.push(k);
  for (const k in after) if (!(k in before) && !NOT_UNDONE.has(k) && after[k] !== undefined && after[k] !== null) keys.push(k);
  return keys;
}

/** A write's undo step: the changed fields with the values they had before it (absent: null). */
export function undoOf(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
  changed: readonly string[] = changedKeys(before, after),
): Record<string, unknown> {
  const undo: Record<string, unknown> = {};
  for (const k of changed) undo[k] = before[k] ?? null;
  return undo;
}

async function recordRevision(q: Queryable, entity: EntityName, wire: WireRow, undo: Record<string, unknown> | null, ctx: WriteContext): Promise<void> {
  await q.query(
    `INSERT INTO row_revisions (entity, id, version, modified_at_utc, modified_by_id, client_id, undo, organization_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [entity, wire.Id, wire.Version, wire.ModifiedAtUtc, wire.ModifiedById, ctx.clientId ?? null, undo === null ? null : JSON.stringify(undo), wire.OrganizationId],
  );
  await q.query(
    `DELETE FROM row_revisions WHERE entity = $1 AND id = $2 AND version <= (
       SELECT version FROM row_revisions WHERE entity = $1 AND id = $2 ORDER BY version DESC OFFSET ${REVISIONS_KEPT} LIMIT 1)`,
    [entity, wire.Id],
  );
}

export type WriteContext = {
  organizationId: string;
  userId: string | null;
  now: Date;
  /** The sync client whose push makes the write: its revisions are that client's own to the merge. */
  clientId?: string | null;
};

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
    `INSERT INTO ${ENTITIES[entity].table} (${names.join(', ')}, version) VALUES (${placeholders.join(', ')}, next_row_version()) RETURNING *`,
    values,
  );
  const wire = toWire(entity, { ...row!, playlist_ids: [] });
  await recordRevision(q, entity, wire, null, ctx);
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
  const sets = ['modified_at_utc = $2', 'modified_by_id = $3', 'deleted = $4', 'data = $5', "version = next_row_version()"];
  const values: unknown[] = [current.Id, modified, ctx.userId, next.Deleted ?? current.Deleted, JSON.stringify(data)];
  for (const [column, , value] of columns) {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  const [row] = await q.query<DbRow>(`UPDATE ${ENTITIES[entity].table} SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, values);
  const wire = toWire(entity, { ...row!, playlist_ids: (current.PlaylistIds as string[] | undefined) ?? [] });
  await recordRevision(q, entity, wire, undoOf(current, wire), ctx);
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
 * insertRow/updateRow would return it. `Version` is 0 until writePlanned takes the versions from
 * the sequence and fills it in.
 */
export type PlannedWrite = {
  entity: EntityName;
  kind: 'insert' | 'update';
  wire: WireRow;
  /** The row the write was computed from (null for an insert): its undo step, and what the table must change. */
  before: WireRow | null;
  clientId: string | null;
};

/** Per entity, the fields that are not `data`: bookkeeping, columns, and the clips' derived PlaylistIds. */
const NOT_DATA = Object.fromEntries(
  Object.entries(ENTITIES).map(([entity, def]) => [entity, new Set([...META, 'PlaylistIds', ...Object.keys(def.columns)])]),
) as unknown as Record<EntityName, ReadonlySet<string>>;

export function planWrite(entity: EntityName, ctx: WriteContext, current: WireRow | null, id: string, fields: Record<string, unknown>): PlannedWrite {
  // The wire row straight away (what toWire would make of the stored row, as insertRow and
  // updateRow return it): the data fields, the bookkeeping, then the column fields, which an
  // update that leaves them out keeps. Values are JSON already (parsed bodies, stored rows), and
  // the row is stored and answered as JSON text, so nothing is deep-copied.
  const wire: Record<string, unknown> = {};
  const notData = NOT_DATA[entity];
  for (const key in fields) {
    const value = fields[key];
    if (value !== undefined && !notData.has(key)) wire[key] = value;
  }
  wire.Id = id;
  wire.OrganizationId = ctx.organizationId;
  wire.CreatedAtUtc = current ? current.CreatedAtUtc : ctx.now.toISOString();
  wire.CreatedById = current ? current.CreatedById : ctx.userId;
  wire.ModifiedAtUtc = (current ? nextModified(ctx.now, current.ModifiedAtUtc) : ctx.now).toISOString();
  wire.ModifiedById = ctx.userId;
  wire.Deleted = current ? Boolean(fields.Deleted ?? current.Deleted) : false;
  wire.Version = 0;
  for (const [field, , type] of COLUMN_LIST[entity]) {
    const value = field in fields ? fields[field] : current?.[field];
    wire[field] = value === undefined || value === null ? null : type === 'uuid' && typeof value === 'string' ? value.toLowerCase() : value;
  }
  if (entity === 'clip') wire.PlaylistIds = current ? ((current.PlaylistIds as string[] | undefined) ?? []) : [];
  return { entity, kind: current ? 'update' : 'insert', wire: wire as WireRow, before: current, clientId: ctx.clientId ?? null };
}

/** A wire field read back into its column (the inverse of toWire for one column). */
function columnFromWire(field: string, type: ColumnType | 'timestamptz'): string {
  if (type === 'text') return `w.row->>'${field}'`;
  if (type === 'jsonb') return `NULLIF(w.row->'${field}', 'null'::jsonb)`;
  return `(w.row->>'${field}')::${type}`;
}

/** The parameters of the write statement ($1: the writes, $2..$4: organization, author, client). */
const WRITE_PARAMS = 4;

/**
 * The statement that stores a batch of planned writes (see writePlanned). The writes arrive as
 * one JSON document, each with its revision (time, author, client, undo) and, for the last write
 * of each row, `row`: the whole wire row of a new row, or only the fields that changed since the
 * table last had it (with `unset`, data fields it no longer has). Versions are taken in write
 * order, every write is kept as a revision, older revisions are pruned, and each table's rows are
 * inserted or changed field by field. Cached per set of entities: a batch is nearly always clips.
 */
const writeStatements = new Map<string, string>();
function writeStatement(entities: readonly EntityName[], tail?: WriteTail): string {
  const tailCte = tail?.cte(WRITE_PARAMS + 1);
  const cacheKey = tailCte === undefined ? entities.join(',') : `${entities.join(',')}\n${tailCte}`;
  const cached = writeStatements.get(cacheKey);
  if (cached) return cached;
  const ctes = [
    // $2..$4: the organization, author and sync client, the same for every write of a batch.
    `x AS (SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS x(ord int, entity text, id uuid, last boolean, fresh boolean, at timestamptz, undo jsonb, row jsonb, unset text[]))`,
    // Versions from the sequence in write order (next_row_version() runs as the ordered rows go by).
    `w AS MATERIALIZED (SELECT o.*, next_row_version() AS version FROM (SELECT * FROM x ORDER BY ord) o)`,
    `rev AS (INSERT INTO row_revisions (entity, id, version, modified_at_utc, modified_by_id, client_id, undo, organization_id)
       SELECT w.entity, w.id, w.version, w.at, $3::uuid, $4::uuid, w.undo, $2::uuid FROM w)`,
    // The statement's sub-statements see the revisions as they were before it: keep the newest
    // REVISIONS_KEPT - 1 of those, plus the one (or, for a row written twice, more) added here.
    // Each written row's older revisions are found through the primary key and deleted by ctid,
    // so the cost follows the batch, never the size of row_revisions (a join let the planner
    // scan the whole table once per batch).
    `pruned AS (DELETE FROM row_revisions WHERE ctid = ANY(ARRAY(
       SELECT x.ctid FROM (SELECT DISTINCT entity, id FROM w) t
       CROSS JOIN LATERAL (SELECT ctid FROM row_revisions x WHERE x.entity = t.entity AND x.id = t.id ORDER BY x.version DESC OFFSET ${REVISIONS_KEPT - 1}) x)))`,
  ];
  for (const entity of entities) {
    const def = ENTITIES[entity];
    const fields = Object.entries(def.columns);
    const stripped = `'{${[...NOT_DATA[entity]].join(',')}}'::text[]`;
    const created: Array<[string, string]> = [
      ['id', 'w.id'],
      ['organization_id', columnFromWire('OrganizationId', 'uuid')],
      ['created_at_utc', columnFromWire('CreatedAtUtc', 'timestamptz')],
      ['created_by_id', columnFromWire('CreatedById', 'uuid')],
      ['modified_at_utc', 'w.at'],
      ['modified_by_id', '$3::uuid'],
      ['deleted', columnFromWire('Deleted', 'boolean')],
      ['data', `w.row - ${stripped}`],
      ['version', 'w.version'],
      ...fields.map(([field, [column, type]]): [string, string] => [column, columnFromWire(field, type)]),
    ];
    // Only what the write changed; a field it left alone keeps the table's value.
    const kept = (field: string, column: string, value: string) => `CASE WHEN w.row ? '${field}' THEN ${value} ELSE t.${column} END`;
    const changed: Array<[string, string]> = [
      ['modified_at_utc', 'w.at'],
      ['modified_by_id', '$3::uuid'],
      ['deleted', kept('Deleted', 'deleted', columnFromWire('Deleted', 'boolean'))],
      ['data', `(t.data - coalesce(w.unset, '{}')) || (w.row - ${stripped})`],
      ['version', 'w.version'],
      ...fields.map(([field, [column, type]]): [string, string] => [column, kept(field, column, columnFromWire(field, type))]),
    ];
    ctes.push(
      `ins_${entity} AS (INSERT INTO ${def.table} (${created.map(([c]) => c).join(', ')})
         SELECT ${created.map(([, v]) => v).join(', ')} FROM w WHERE w.entity = '${entity}' AND w.last AND w.fresh)`,
      `upd_${entity} AS (UPDATE ${def.table} t SET ${changed.map(([c, v]) => `${c} = ${v}`).join(', ')}
         FROM w WHERE w.entity = '${entity}' AND w.last AND NOT w.fresh AND t.id = w.id)`,
    );
  }
  if (tailCte !== undefined) ctes.push(tailCte);
  // The Versions in write order as one value: 200 result rows cost the driver more than the text.
  const sql = `WITH ${ctes.join(',\n')}\nSELECT array_to_string(array_agg(version ORDER BY ord), ',') AS versions FROM w`;
  writeStatements.set(cacheKey, sql);
  return sql;
}

/**
 * A statement of the caller's that runs inside the write statement, as one more of its CTEs: it
 * sees `w`, the writes (ord: the write's index in the batch, entity, id, at, version), so it can
 * store what depends on the Versions the statement takes without another round trip.
 */
export type WriteTail = {
  /** `name AS (…)`, its own parameters numbered from `firstParam`. */
  cte: (firstParam: number) => string;
  params: readonly unknown[];
};

/**
 * Stores planned writes with one statement whatever their number: it takes their Versions from the
 * sequence in write order, writes each table's rows (a row written twice is stored once, as last
 * written; inserted if its first write was an insert), every revision, and the prune of revisions
 * past REVISIONS_KEPT. Fills in each wire row's Version.
 *
 * A row's table write is the difference between the row the first of its writes here started
 * from (which the caller read, locked, from the table) and its last wire row. `tail` runs in the
 * same statement (over no writes when there is nothing to write).
 */
export async function writePlanned(q: Queryable, writes: readonly PlannedWrite[], tail?: WriteTail): Promise<void> {
  if (writes.length === 0 && !tail) return;
  // One organization, author and sync client for the batch (each caller writes with one context;
  // with nothing to write, the statement writes nothing and runs for its tail).
  const org = writes[0]?.wire.OrganizationId ?? null;
  const by = writes[0]?.wire.ModifiedById ?? null;
  const client = writes[0]?.clientId ?? null;
  if (writes.some((w) => w.wire.OrganizationId !== org || w.wire.ModifiedById !== by || w.clientId !== client)) {
    throw new Error('writePlanned: the writes of a batch must share organization, author and client');
  }
  const first = new Map<string, PlannedWrite>();
  const lastIndex = new Map<string, number>();
  for (const [i, w] of writes.entries()) {
    const key = `${w.entity}:${w.wire.Id}`;
    if (!first.has(key)) first.set(key, w);
    lastIndex.set(key, i);
  }
  const docs = writes.map((w, i) => {
    const key = `${w.entity}:${w.wire.Id}`;
    const start = first.get(key)!;
    const fresh = start.kind === 'insert';
    const last = lastIndex.get(key) === i;
    const changed = w.before ? changedKeys(w.before, w.wire) : [];
    const undo = w.before ? undoOf(w.before, w.wire, changed) : null;
    const doc: Record<string, unknown> = { ord: i, entity: w.entity, id: w.wire.Id, last, fresh, at: w.wire.ModifiedAtUtc, undo };
    if (last) {
      if (fresh) doc.row = w.wire;
      else {
        // The row's only write here changed what its undo names; several: from the first one's
        // start (an update's, so planWrite gave it the row it started from).
        const row: Record<string, unknown> = {};
        const unset: string[] = [];
        for (const k of start === w ? changed : changedKeys(start.before!, w.wire)) {
          if (w.wire[k] === undefined) unset.push(k);
          else row[k] = w.wire[k];
        }
        doc.row = row;
        if (unset.length > 0) doc.unset = unset;
      }
    }
    return doc;
  });
  const entities = [...new Set(writes.map((w) => w.entity))].sort();
  const params = [JSON.stringify(docs), org, by, client]; // WRITE_PARAMS of them
  const [result] = await q.query<{ versions: string | null }>(writeStatement(entities, tail), tail ? [...params, ...tail.params] : params);
  const versions = result?.versions ? result.versions.split(',').map(Number) : [];
  if (versions.length !== writes.length) throw new Error('row versions: one per write expected');
  let previous = 0;
  for (const [ord, version] of versions.entries()) {
    // Must never fail: PostgreSQL evaluates next_row_version() as the ordered rows go by.
    if (!(version > previous)) throw new Error('row versions out of write order');
    previous = version;
    writes[ord]!.wire.Version = version;
  }
}

export type BulkRow = { id: string; createdById: string | null; createdAt: Date; modifiedAt: Date; deleted?: boolean; fields: Record<string, unknown> };

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const isoSql = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', ${ISO_MS})`;

/**
 * The wire row of `alias` (a row of the entity's table) built in SQL: what toWire makes of it,
 * less the clips' PlaylistIds, which the caller adds. Lets a page of rows leave the database as
 * JSON text ready to send instead of being decoded and rebuilt row by row.
 */
export function wireSql(entity: EntityName, alias: string): string {
  const columns = COLUMN_LIST[entity].map(([field, column]) => `'${field}', ${alias}.${column}`).join(', ');
  return `${alias}.data || jsonb_build_object(
      'Id', ${alias}.id, 'OrganizationId', ${alias}.organization_id, 'CreatedAtUtc', ${isoSql(`${alias}.created_at_utc`)},
      'CreatedById', ${alias}.created_by_id, 'ModifiedAtUtc', ${isoSql(`${alias}.modified_at_utc`)}, 'ModifiedById', ${alias}.modified_by_id,
      'Deleted', ${alias}.deleted, 'Version', ${alias}.version)${columns ? ` || jsonb_build_object(${columns})` : ''}`;
}

/**
 * Inserts many rows of one organization in one statement, with their revisions (ENVIRONMENT.md:
 * batch, never row by row). The batch travels as ONE jsonb document expanded with
 * jsonb_to_recordset, not as text arrays of JSON (escaped and parsed twice). Clip rows are
 * ~1.7 KB of JSON each, so a 10,000-clip batch is ~17 MB: measured ~6 s on PGlite and ~3 s on
 * PostgreSQL per 10,000 clips with their revisions (ENVIRONMENT.md's 75 ms was for small rows).
 * Each row's revision is a create's: no undo step.
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
  await q.query(
    `WITH ins AS (
       INSERT INTO ${def.table} (organization_id, ${names.join(', ')}, version)
       SELECT $1::uuid, ${select.join(', ')}, next_row_version()
       FROM jsonb_to_recordset($2::jsonb) AS r(${recordType})
       RETURNING *)
     INSERT INTO row_revisions (entity, id, version, modified_at_utc, modified_by_id, organization_id)
     SELECT $3, ins.id, ins.version, ins.modified_at_utc, ins.modified_by_id, $1 FROM ins`,
    [organizationId, JSON.stringify(docs), entity],
  );
}
