// Pull: every row of the caller's organization whose Version is above the cursor, only those the
// caller may see under section 6, deleted ones as tombstones (only to a device that may hold them),
// in pages.
//
// Visibility (the same rule as the REST lists, through src/domain/permissions.ts):
//   organization: the caller's own (membership);
//   program: any flag held for it (Organization scope, its network's scope, or its own scope);
//   network: any flag held for it, or one of its programs visible;
//   playlists, clips, recordings: content access on their program; annotations: on their
//   recording's program.
//
// The cursor is "<version>.<fingerprint of the caller's permission entries>": when the entries
// change, the fingerprint does not match and the client is told to rebuild from version 0. What
// the caller sees also changes, with the same entries, when a program moves to another network
// (a Network-scope entry covers it, or no longer does; a Program-scope user's program brings its
// new network): the rows that come or go then are not newer than the cursor, so the client is told
// to rebuild as well (viewChangedSince).
import { createHash } from 'node:crypto';
import type { Queryable, Store } from '../store/store.ts';
import { permissionsFor, type PermissionEntry } from '../../src/domain/permissions.ts';
import { holdsAny, mayRead, networkFlags, programFlags } from '../../src/domain/access.ts';
import { ENTITY_KINDS, SYNC_ENTITIES, KIND_OF } from '../../src/protocol/entity-kinds.ts';
import { clipMembershipsJsonSql, ENTITIES, playlistIdsByClip, wireTexts, wireTextsSql, type EntityName, type WireRow, type WireText } from '../rows.ts';
import type { PullResponse, SyncEntity } from '../../src/protocol/sync.ts';

/** Every synced kind (src/protocol/entity-kinds.ts), parents first. */
const TABLES: Array<{ entity: SyncEntity; name: EntityName }> = SYNC_ENTITIES.map((entity) => ({ entity, name: KIND_OF[entity] }));

/** Changes when the user, the organization or the user's permission entries change. */
export function permissionFingerprint(userId: string, organizationId: string, entries: readonly PermissionEntry[]): string {
  return createHash('sha256').update(JSON.stringify([userId, organizationId, entries])).digest('base64url').slice(0, 16);
}

/**
 * `seenAt`: the settled Version at which the caller's view was last applied to its rows (what it
 * may see is read when a page is served, whatever the page's Versions). A cursor says it after a
 * third dot only when it differs from `version`: between the pages of one pull.
 */
export function parseCursor(cursor: string | undefined, fingerprint: string): { version: number; seenAt: number; rebuild: boolean } {
  if (cursor === undefined || cursor === '') return { version: 0, seenAt: 0, rebuild: false };
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})(?:\.(\d{1,15}))?$/.exec(cursor);
  if (!match || match[2] !== fingerprint) return { version: 0, seenAt: 0, rebuild: true };
  const version = Number(match[1]);
  return { version, seenAt: match[3] === undefined ? version : Math.max(version, Number(match[3])), rebuild: false };
}


type ProgramNetwork = { id: string; network_id: string | null };

/**
 * What the caller may see for one placing of the programs in networks. `networksOfVisible`: the
 * networks seen only because a visible program is in them (a network any of the caller's flags
 * covers is seen anyway, wherever the programs are).
 */
type CallerView = { visiblePrograms: Set<string>; contentPrograms: Set<string>; networksOfVisible: Set<string> };

/** Whether the caller's entries show `networkId` by themselves (not through a program in it). */
const networkFlagged = (permissions: readonly PermissionEntry[], networkId: string) => holdsAny(networkFlags(permissions, networkId));

function callerView(permissions: readonly PermissionEntry[], programs: readonly ProgramNetwork[]): CallerView {
  const view: CallerView = { visiblePrograms: new Set(), contentPrograms: new Set(), networksOfVisible: new Set() };
  const flagged = new Map<string, boolean>();
  const seenByFlags = (networkId: string) => {
    let seen = flagged.get(networkId);
    if (seen === undefined) flagged.set(networkId, (seen = networkFlagged(permissions, networkId)));
    return seen;
  };
  for (const p of programs) {
    const flags = programFlags(permissions, { id: p.id, networkId: p.network_id });
    if (mayRead(ENTITY_KINDS.programs.read, flags)) {
      view.visiblePrograms.add(p.id);
      if (p.network_id && !seenByFlags(p.network_id)) view.networksOfVisible.add(p.network_id);
    }
    if (mayRead(ENTITY_KINDS.clips.read, flags)) view.contentPrograms.add(p.id);
  }
  return view;
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));
const sameView = (a: CallerView, b: CallerView) =>
  sameSet(a.visiblePrograms, b.visiblePrograms) && sameSet(a.contentPrograms, b.contentPrograms) && sameSet(a.networksOfVisible, b.networksOfVisible);

/**
 * Whether programs that moved to another network after Version `from` (the cursor's seenAt)
 * changed what the caller sees. The network each program had at `from` is read off its revisions
 * (the undo step of its first move after `from` holds it): the caller's view with those networks
 * is compared with the view now. A program created after `from` is placed where it was created:
 * its rows are all newer than `from` anyway, and a move of it since can only make a rebuild that
 * was not needed.
 * When a program's revisions back to `from` are no longer kept (REVISIONS_KEPT), where it was is
 * not known: if its network could matter to the caller (it is visible under some network, and
 * not every network is the caller's by its entries), the answer is yes. Only the organization's
 * program revisions after `from` are read: one small statement per pull, none of them moves.
 */
async function viewChangedSince(
  q: Queryable,
  organizationId: string,
  from: number,
  permissions: readonly PermissionEntry[],
  programs: readonly ProgramNetwork[],
  now: CallerView,
): Promise<boolean> {
  // A revision without an undo step is a create, or the oldest kept revision of a store converted
  // by migrations 0102/0103. A create was written at the row's creation time; a converted one at
  // its last change before the conversion: where that was its creation too, the program had not
  // moved before it, so its later revisions tell the whole story either way.
  const revisions = await q.query<{ id: string; created: boolean; moved: boolean; before: string | null; known: boolean }>(
    `SELECT r.id, (r.undo IS NULL AND r.modified_at_utc = p.created_at_utc) AS created, coalesce(r.undo ? 'NetworkId', false) AS moved,
       r.undo->>'NetworkId' AS before,
       EXISTS (SELECT 1 FROM row_revisions o WHERE o.entity = 'program' AND o.id = r.id AND o.version <= $2) AS known
     FROM row_revisions r JOIN programs p ON p.id = r.id
     WHERE r.organization_id = $1 AND r.entity = 'program' AND r.version > $2
     ORDER BY r.id, r.version`,
    [organizationId, from],
  );
  // Each program's first revision after `from` says whether its history is known; its first move,
  // where it was at `from`.
  const then = new Map<string, string | null>();
  const unknown = new Set<string>();
  const seen = new Set<string>();
  for (const r of revisions) {
    if (!seen.has(r.id)) {
      seen.add(r.id);
      if (!r.known && !r.created) unknown.add(r.id);
    }
    if (r.moved && !unknown.has(r.id) && !then.has(r.id)) then.set(r.id, r.before?.toLowerCase() ?? null);
  }
  if (then.size === 0 && unknown.size === 0) return false;
  const placedThen = programs.map((p) => (then.has(p.id) ? { id: p.id, network_id: then.get(p.id)! } : p));
  if (!sameView(callerView(permissions, placedThen), now)) return true;
  if (unknown.size === 0) return false;
  const networks = await q.query<{ id: string }>(`SELECT id FROM networks WHERE organization_id = $1`, [organizationId]);
  const everywhere = [null, ...networks.map((n) => n.id)];
  const allNetworksSeen = networks.every((n) => networkFlagged(permissions, n.id));
  return programs.some((p) => {
    if (!unknown.has(p.id)) return false;
    const placings = everywhere.map((networkId) => permissionsFor(permissions, { kind: 'program', programId: p.id, networkId }));
    const visible = placings.map(holdsAny);
    const content = placings.map((f) => f.HasContentAccess);
    if (visible.some((v) => v !== visible[0]) || content.some((c) => c !== content[0])) return true;
    return visible[0]! && !allNetworksSeen;
  });
}

/**
 * The highest Version at or below which every row is final: no transaction still holds a lower
 * one. Writers take Versions through next_row_version() (migration 0101), which holds a shared
 * advisory lock until commit; taking it exclusively here waits for them, then the sequence's last
 * value is settled. A pull reads only up to it, so its cursor never passes a row still in flight.
 */
export async function settledVersion(store: Store): Promise<number> {
  return store.tx(async (q) => {
    await q.query(`SELECT pg_advisory_xact_lock(727275)`);
    const [row] = await q.query<{ v: number | string }>(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS v FROM row_version`);
    return Number(row?.v ?? 0);
  });
}

/**
 * How many live rows a pull from the start brings: those of each table at or below the settled
 * Version that the caller may see (the same read rules as `visible` in pullPage, in SQL: one
 * statement of counts, by the tables' organization and program columns). Only a first page asks.
 */
async function rowsVisibleAt(q: Queryable, organizationId: string, permissions: readonly PermissionEntry[], view: CallerView, settled: number): Promise<number> {
  const networks = await q.query<{ id: string }>(`SELECT id FROM networks WHERE organization_id = $1 AND NOT deleted AND version <= $2`, [organizationId, settled]);
  const visibleNetworks = networks.filter((n) => view.networksOfVisible.has(n.id) || networkFlagged(permissions, n.id)).length;
  const live = `organization_id = $1 AND NOT deleted AND version <= $2`;
  const [counts] = await q.query<{ organizations: number | string; programs: number | string; content: number | string; annotations: number | string }>(
    `SELECT (SELECT count(*) FROM organizations WHERE id = $1 AND NOT deleted AND version <= $2) AS organizations,
       (SELECT count(*) FROM programs WHERE ${live} AND id = ANY($3::uuid[])) AS programs,
       (SELECT count(*) FROM playlists WHERE ${live} AND program_id = ANY($4::uuid[]))
         + (SELECT count(*) FROM clips WHERE ${live} AND program_id = ANY($4::uuid[]))
         + (SELECT count(*) FROM recordings WHERE ${live} AND program_id = ANY($4::uuid[])) AS content,
       (SELECT count(*) FROM annotations a JOIN recordings r ON r.id = a.recording_id
         WHERE a.organization_id = $1 AND NOT a.deleted AND a.version <= $2 AND r.program_id = ANY($4::uuid[])) AS annotations`,
    [organizationId, settled, [...view.visiblePrograms], [...view.contentPrograms]],
  );
  return visibleNetworks + Number(counts?.organizations ?? 0) + Number(counts?.programs ?? 0) + Number(counts?.content ?? 0) + Number(counts?.annotations ?? 0);
}

/**
 * The rows changed after the cursor ($2) up to the settled Version ($4), at most $3 of them, of
 * one table of organization $1. They are those whose revision at their current Version is after
 * the cursor (every write records one; a row's newest is never pruned): the revisions are indexed
 * by organization and Version, the tables are not, so their edits can be HOT (migration 0103).
 * Older revisions of a row changed again since are skipped by the join.
 */
const changedRows = (name: EntityName) =>
  `SELECT t.* FROM row_revisions r JOIN ${ENTITIES[name].table} t ON t.id = r.id AND t.version = r.version
   WHERE r.organization_id = $1 AND r.entity = '${name}' AND r.version > $2 AND r.version <= $4 ORDER BY r.version LIMIT $3`;

/**
 * A page of every table in ONE statement: a row per table (i: its index in TABLES) with its rows
 * as rows.ts wireTexts reads them, then one (i = TABLES.length) with the [clip id, playlist id]
 * pairs of the page's clips in live playlists, in playlist order (title, then id). On PGlite,
 * where statements run one after another, the seven tables and the playlists as statements of
 * their own cost a pull of one changed row ~3 ms of ~7.
 */
const PAGE_SQL = `WITH c AS MATERIALIZED (${changedRows('clip')})
  ${TABLES.map(({ name }, i) => `SELECT ${i} AS i, ${wireTextsSql(name)} FROM ${name === 'clip' ? 'c' : `(${changedRows(name)})`} t`).join('\n  UNION ALL ')}
  UNION ALL SELECT ${TABLES.length}, NULL, (${clipMembershipsJsonSql('$1', 'e.clip_id IN (SELECT id::text FROM c)')})`;

/** A pull page whose rows are their wire JSON text, to be sent as they are (pullPageText). */
export type PulledPage = Omit<PullResponse, 'rows'> & { rows: Array<{ entity: SyncEntity; json: string }> };

/** The response body of a page in parts: PullResponse's JSON, the rows' texts spliced in unparsed. */
export function* pullPageParts(page: PulledPage): Generator<string> {
  const { rows, ...rest } = page;
  yield '{"rows":[';
  for (const [i, r] of rows.entries()) yield `${i === 0 ? '' : ','}{"entity":"${r.entity}","row":${r.json}}`;
  yield `],${JSON.stringify(rest).slice(1)}`;
}

/** The response body of a page as one text. */
export function pullPageText(page: PulledPage): string {
  return [...pullPageParts(page)].join('');
}

/** A page as a client reads it (its JSON parsed). */
export async function pull(store: Store, input: PullInput): Promise<PullResponse> {
  return JSON.parse(pullPageText(await pullPage(store, input))) as PullResponse;
}

type PullInput = { organizationId: string; userId: string; permissions: PermissionEntry[]; cursor: string | undefined; limit: number };

export async function pullPage(store: Store, input: PullInput): Promise<PulledPage> {
  const fingerprint = permissionFingerprint(input.userId, input.organizationId, input.permissions);
  const cursor = parseCursor(input.cursor, fingerprint);
  let { version: from, rebuild } = cursor;
  const settled = await settledVersion(store);
  const q: Queryable = store;

  // Which programs (and networks) the caller may see: programs are few per organization.
  const programs = await q.query<ProgramNetwork>(`SELECT id, network_id FROM programs WHERE organization_id = $1`, [input.organizationId]);
  const view = callerView(input.permissions, programs);
  const { visiblePrograms, contentPrograms, networksOfVisible } = view;
  if (!rebuild && from > 0 && (await viewChangedSince(q, input.organizationId, cursor.seenAt, input.permissions, programs, view))) {
    from = 0;
    rebuild = true;
  }

  // Each table's next rows by version; the page ends at the smallest "last version" among the
  // tables that had more, so nothing below the new cursor is ever skipped. Each table's page leaves
  // the database as two text values (3× faster on PGlite than decoding 5,000 rows): the rows' data
  // as jsonb writes it, passed on to the client unparsed, and their columns as JSON (rows.ts
  // wireTexts). Parsing whole rows and writing them out again cost ~12 % more CPU per pull (bench:sync
  // 'server: full pull'); building the wire rows in SQL, by jsonb or by text, measured twice as slow.
  const parts = new Map((await q.query<{ i: number; d: string | null; m: string }>(PAGE_SQL, [input.organizationId, from, input.limit, settled])).map((p) => [p.i, p]));
  const byClip = playlistIdsByClip(JSON.parse(parts.get(TABLES.length)?.m ?? '[]') as Array<[string, string]>);
  const fetched = TABLES.map(({ entity, name }, i) => {
    const part = parts.get(i);
    const rows = wireTexts(name, part?.d ?? '', part?.m ?? '[]', name === 'clip' ? (meta) => ({ PlaylistIds: byClip.get(meta.Id) ?? [] }) : undefined);
    return { entity, rows, full: rows.length === input.limit };
  });
  let bound = Number.POSITIVE_INFINITY;
  for (const f of fetched) if (f.full) bound = Math.min(bound, f.rows[f.rows.length - 1]!.meta.Version);
  const hasMore = Number.isFinite(bound);

  const recordingProgram = new Map<string, string>();
  const annotationRecordings = fetched.find((f) => f.entity === 'annotations')!.rows.map((r) => r.meta['RecordingId'] as string);
  if (annotationRecordings.length > 0) {
    const recs = await q.query<{ id: string; program_id: string }>(`SELECT id, program_id FROM recordings WHERE id = ANY($1::uuid[])`, [
      [...new Set(annotationRecordings)],
    ]);
    for (const r of recs) recordingProgram.set(r.id, r.program_id);
  }

  /** The read rule of the row's kind (src/protocol/entity-kinds.ts), over the caller's view. */
  const visible = (entity: SyncEntity, row: WireRow): boolean => {
    const rule = ENTITY_KINDS[entity].read;
    switch (rule.kind) {
      case 'organization':
        return row.Id === input.organizationId;
      case 'network':
        return networksOfVisible.has(row.Id) || networkFlagged(input.permissions, row.Id);
      case 'program':
        return visiblePrograms.has(row.Id);
      case 'content':
        return contentPrograms.has(row[rule.programField] as string);
      case 'child':
        return contentPrograms.has(recordingProgram.get(row[rule.parentField] as string) ?? '');
    }
  };

  const rows: PulledPage['rows'] = [];
  const tombstones: PullResponse['tombstones'] = [];
  let maxVersion = from;
  const entries: Array<{ entity: SyncEntity; row: WireText }> = [];
  for (const f of fetched) for (const row of f.rows) if (row.meta.Version <= bound) entries.push({ entity: f.entity, row });
  entries.sort((a, b) => a.row.meta.Version - b.row.meta.Version);
  for (const { entity, row } of entries) {
    maxVersion = Math.max(maxVersion, row.meta.Version);
    // A row the caller may not read is never named, not even by a tombstone: with the same view
    // since the cursor (a change of permissions or of a program's network rebuilds, above) they
    // could not read it before either, so the device never held it. A pull from the start has
    // nothing to delete on the device: no tombstones at all.
    if (!visible(entity, row.meta)) continue;
    if (!row.meta.Deleted) rows.push({ entity, json: row.json });
    else if (from > 0) tombstones.push({ entity, id: row.meta.Id });
  }

  // A pull from the start says how many rows it brings, for the first download's progress.
  const total = from === 0 ? await rowsVisibleAt(q, input.organizationId, input.permissions, view, settled) : undefined;

  // With no page full, every row up to the settled Version has been read: the cursor moves there
  // even past Versions of other organizations' rows, so the next pull starts above them.
  const upToVersion = hasMore ? bound : Math.max(maxVersion, settled);
  return {
    cursor: hasMore ? `${bound}.${fingerprint}${bound < settled ? `.${settled}` : ''}` : `${upToVersion}.${fingerprint}`,
    upToVersion,
    rows,
    tombstones,
    hasMore,
    rebuild,
    ...(total === undefined ? {} : { total }),
    permissions: input.permissions.map((p) => ({
      ObjectType: p.ObjectType,
      ObjectId: p.ObjectId,
      Permissions: Object.fromEntries(Object.entries(p.Permissions).filter((kv): kv is [string, boolean] => typeof kv[1] === 'boolean')),
    })),
  };
}
