// The content API of specification section 7 under /api/v1: networks, programs, playlists
// (with ordered membership), clips, recordings with annotations, and the organization's users.
//
// Every call: requireSession (user + organization) → row of this organization or 404 (no body,
// also for rows of other organizations) → permission flags of section 6 or 403 → If-Match or 412
// with the current row → field rules or 400 with every invalid field → one transaction → the
// change bus, after commit. The writes themselves are content-ops.ts (shared with the sync push),
// mounted here one route per entry of MUTATIONS.
import { Hono, type Context } from 'hono';
import { permissionsFor, anyPermissions, validatePermissionEntries, type PermissionEntry, type PermissionFlags } from '../../src/domain/permissions.ts';
import { PermissionEntriesSchema, RecordingState, Visibility } from '../../src/protocol/entities.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { getAuth, requireSession, userToWire, type Auth, type UserRow } from '../auth.ts';
import { AppError, assertValid, badRequest, fieldError, forbidden, notFound } from '../errors.ts';
import { boolParam, etagOf, idListParam, ifMatch, listParam, pageParams, paged, pathId, readJson, type PageParams } from '../http.ts';
import { ENTITIES, loadRow, pageOf, toWire, type DbRow, type EntityName, type WireRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { now, syncClientOf, type AppDeps } from '../app.ts';
import { invalid, slugExists, slugOwnerOfViolation } from './content-rules.ts';
import { directStore, flagsForProgram, MUTATIONS, orgFlags, require, type MutationOp, type ProgramRef } from './content-ops.ts';

function holdsAny(flags: PermissionFlags): boolean {
  return Object.values(flags).some(Boolean);
}

async function programsOf(q: Queryable, organizationId: string): Promise<ProgramRef[]> {
  return q.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE organization_id = $1`, [organizationId]);
}

/** Program ids of the organization where `allowed(flags)` holds. */
async function allowedPrograms(q: Queryable, auth: Auth, allowed: (f: PermissionFlags) => boolean): Promise<string[]> {
  return (await programsOf(q, auth.organizationId)).filter((p) => allowed(flagsForProgram(auth, p))).map((p) => p.id);
}

const content = (f: PermissionFlags) => f.HasContentAccess;

/** The program of this organization (404 otherwise) and the caller's flags on it. */
async function programAccess(q: Queryable, auth: Auth, programId: string): Promise<{ program: ProgramRef; flags: PermissionFlags }> {
  const [program] = await q.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE id = $1 AND organization_id = $2`, [
    programId,
    auth.organizationId,
  ]);
  if (!program || program.deleted) throw notFound();
  return { program, flags: flagsForProgram(auth, program) };
}

function ctxOf(c: Context) {
  const deps: AppDeps = c.get('deps');
  const auth = getAuth(c);
  return { deps, auth, write: { organizationId: auth.organizationId, userId: auth.user.Id, now: now(deps), clientId: syncClientOf(c) } };
}

/** A failed write's database error as the API answers it: slug races → SlugExists, other unique ids → 409. */
export function writeConflictError(err: unknown): AppError | null {
  const owner = slugOwnerOfViolation(err);
  if (owner) return slugExists(owner);
  if ((err as { code?: string })?.code === '23505') return new AppError(409);
  return null;
}

/** Runs a write transaction and publishes its highest Version after commit. */
async function commit(c: Context, fn: (q: Queryable) => Promise<WireRow>): Promise<WireRow> {
  const { deps, auth } = ctxOf(c);
  let row: WireRow;
  try {
    row = await deps.store.tx(fn);
  } catch (err) {
    throw writeConflictError(err) ?? err;
  }
  deps.bus.publish({ organizationId: auth.organizationId, version: row.Version });
  return row;
}

/** The REST route of one shared write (content-ops.ts): parameters, If-Match, body, transaction, answer. */
async function runMutation(c: Context, m: MutationOp) {
  const { auth, write } = ctxOf(c);
  m.before?.(auth);
  const params = Object.fromEntries([...m.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => [name!, pathId(c, name!)]));
  const expected = ifMatch(c);
  const body: unknown = m.schema ? await readJson(c, m.schema) : undefined;
  const row = await commit(c, (q) => m.run(directStore(q, auth, write), params, expected, body));
  switch (m.answer) {
    case 'row':
      return one(c, row);
    case 'created':
      return one(c, row, 201);
    case 'etag':
      c.header('ETag', etagOf(row));
      return c.body(null, 204);
    case 'none':
      return c.body(null, 204);
  }
}

function one(c: Context, row: WireRow, status: 200 | 201 = 200) {
  c.header('ETag', etagOf(row));
  return c.json(row, status);
}

async function listRows(
  q: Queryable,
  entity: EntityName,
  where: string[],
  params: unknown[],
  order: string,
  page: PageParams,
) {
  const inner = `SELECT t.* FROM ${ENTITIES[entity].table} t WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`;
  const sql = pageOf(entity, inner, order);
  const rows = await q.query<DbRow>(sql, params);
  return paged(rows.map((r) => toWire(entity, r)), page);
}

/** WHERE parts shared by lists: organization, soft delete (includeDeleted), an optional id filter. */
function baseWhere(c: Context, auth: Auth, idsParam: string | null): { where: string[]; params: unknown[] } {
  const where = ['t.organization_id = $1'];
  const params: unknown[] = [auth.organizationId];
  if (!boolParam(c, 'includeDeleted')) where.push('NOT t.deleted');
  if (idsParam) {
    const ids = idListParam(c, idsParam);
    if (ids) {
      params.push(ids);
      where.push(`t.id = ANY($${params.length}::uuid[])`);
    }
  }
  return { where, params };
}

function enumListParam<T extends string>(c: Context, name: string, values: readonly T[]): T[] | null {
  const list = listParam(c, name);
  if (!list) return null;
  const bad = list.find((v) => !values.includes(v as T));
  if (bad !== undefined) throw badRequest([fieldError(name, formError('invalid'))]);
  return list as T[];
}

/** Visible networks: all with any organization-scope flag; else named by network entries or holding a visible program. */
async function visibleNetworkIds(q: Queryable, auth: Auth): Promise<string[] | 'all'> {
  if (holdsAny(orgFlags(auth))) return 'all';
  const fromEntries = auth.permissions.filter((e) => e.ObjectType === 'Network' && e.ObjectId && holdsAny(anyPermissions([e]))).map((e) => e.ObjectId!);
  const programs = (await programsOf(q, auth.organizationId)).filter((p) => holdsAny(flagsForProgram(auth, p)) && p.network_id);
  return [...new Set([...fromEntries, ...programs.map((p) => p.network_id!)])];
}

/** Members of the organization whose entries pass `has`, paged, optionally filtered by name or e-mail. */
async function usersWithAccess(c: Context, auth: Auth, has: (entries: PermissionEntry[]) => boolean) {
  const page = pageParams(c);
  const filter = c.req.query('filter')?.trim().toLowerCase() ?? '';
  const rows = await c.get('deps').store.query<UserRow & { permissions: PermissionEntry[] }>(
    `SELECT u.*, m.permissions FROM users u JOIN memberships m ON m.user_id = u.id AND m.organization_id = $1
     WHERE NOT u.deleted AND ($2 = '' OR strpos(lower(u.name), $2) > 0 OR strpos(lower(u.email), $2) > 0)
     ORDER BY u.name, u.id`,
    [auth.organizationId, filter],
  );
  const matching = rows.filter((r) => has(r.permissions)).map((r) => ({ ...userToWire(r), Permissions: r.permissions }));
  return paged(matching.slice(page.offset, page.offset + page.pageSize + 1), page);
}

export function contentRoutes() {
  const app = new Hono().use('/v1/*', requireSession);
  for (const m of MUTATIONS) app.on(m.method, m.path, (c) => runMutation(c, m));
  return (
    app

      // ── Networks ─────────────────────────────────────────────────────────────────────────
      .get('/v1/networks', async (c) => {
        const { deps, auth } = ctxOf(c);
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, 'networkIds');
        const visible = await visibleNetworkIds(deps.store, auth);
        if (visible !== 'all') {
          params.push(visible);
          where.push(`t.id = ANY($${params.length}::uuid[])`);
        }
        return c.json(await listRows(deps.store, 'network', where, params, 't.name, t.id', page));
      })
      .get('/v1/networks/:networkId', async (c) => {
        const { deps, auth } = ctxOf(c);
        const row = await loadRow(deps.store, 'network', auth.organizationId, pathId(c, 'networkId'));
        if (!row || row.Deleted) throw notFound();
        const visible = await visibleNetworkIds(deps.store, auth);
        if (visible !== 'all' && !visible.includes(row.Id)) throw forbidden();
        return one(c, row);
      })
      .get('/v1/networks/:networkId/programs', async (c) => {
        const { deps, auth } = ctxOf(c);
        const networkId = pathId(c, 'networkId');
        const network = await loadRow(deps.store, 'network', auth.organizationId, networkId);
        if (!network || network.Deleted) throw notFound();
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, 'programIds');
        params.push(networkId, await allowedPrograms(deps.store, auth, holdsAny));
        where.push(`t.network_id = $${params.length - 1}`, `t.id = ANY($${params.length}::uuid[])`);
        return c.json(await listRows(deps.store, 'program', where, params, 't.name, t.id', page));
      })

      // ── Programs ─────────────────────────────────────────────────────────────────────────
      .get('/v1/programs', async (c) => {
        const { deps, auth } = ctxOf(c);
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, 'programIds');
        const networkIds = idListParam(c, 'networkIds');
        if (networkIds) {
          params.push(networkIds);
          where.push(`t.network_id = ANY($${params.length}::uuid[])`);
        }
        params.push(await allowedPrograms(deps.store, auth, holdsAny));
        where.push(`t.id = ANY($${params.length}::uuid[])`);
        return c.json(await listRows(deps.store, 'program', where, params, 't.name, t.id', page));
      })
      .get('/v1/programs/:programId', async (c) => {
        const { deps, auth } = ctxOf(c);
        const id = pathId(c, 'programId');
        const { flags } = await programAccess(deps.store, auth, id);
        if (!holdsAny(flags)) throw forbidden();
        return one(c, (await loadRow(deps.store, 'program', auth.organizationId, id))!);
      })

      // ── Playlists ────────────────────────────────────────────────────────────────────────
      .get('/v1/playlists', async (c) => {
        const { deps, auth } = ctxOf(c);
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, 'playlistIds');
        params.push(await allowedPrograms(deps.store, auth, content));
        where.push(`t.program_id = ANY($${params.length}::uuid[])`);
        return c.json(await listRows(deps.store, 'playlist', where, params, 't.title, t.id', page));
      })
      .get('/v1/programs/:programId/playlists', async (c) => {
        const { deps, auth } = ctxOf(c);
        const programId = pathId(c, 'programId');
        const { flags } = await programAccess(deps.store, auth, programId);
        require(flags, 'HasContentAccess');
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, 'playlistIds');
        params.push(programId);
        where.push(`t.program_id = $${params.length}`);
        return c.json(await listRows(deps.store, 'playlist', where, params, 't.title, t.id', page));
      })
      .get('/v1/playlists/:playlistId', async (c) => {
        const { deps, auth } = ctxOf(c);
        const row = await loadRow(deps.store, 'playlist', auth.organizationId, pathId(c, 'playlistId'));
        if (!row || row.Deleted) throw notFound();
        const { flags } = await programAccess(deps.store, auth, row.ProgramId as string);
        require(flags, 'HasContentAccess');
        return one(c, row);
      })

      // ── Clips ────────────────────────────────────────────────────────────────────────────
      .get('/v1/clips', async (c) => {
        const { deps, auth } = ctxOf(c);
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, 'clipIds');
        params.push(await allowedPrograms(deps.store, auth, content));
        where.push(`t.program_id = ANY($${params.length}::uuid[])`);
        return c.json(await listRows(deps.store, 'clip', where, params, 't.created_at_utc DESC, t.id', page));
      })
      .get('/v1/clips/:clipId', async (c) => {
        const { deps, auth } = ctxOf(c);
        const row = await loadRow(deps.store, 'clip', auth.organizationId, pathId(c, 'clipId'));
        if (!row || row.Deleted) throw notFound();
        const { flags } = await programAccess(deps.store, auth, row.ProgramId as string);
        require(flags, 'HasContentAccess');
        return one(c, row);
      })
      .get('/v1/programs/:programId/clips', async (c) => {
        const { deps, auth } = ctxOf(c);
        const programId = pathId(c, 'programId');
        const { flags } = await programAccess(deps.store, auth, programId);
        require(flags, 'HasContentAccess');
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, 'clipIds');
        params.push(programId);
        where.push(`t.program_id = $${params.length}`);
        const visibility = enumListParam(c, 'visibilityFilter', Visibility.options);
        if (visibility) {
          params.push(visibility);
          where.push(`t.visibility = ANY($${params.length}::text[])`);
        }
        return c.json(await listRows(deps.store, 'clip', where, params, 't.created_at_utc DESC, t.id', page));
      })
      .get('/v1/playlists/:playlistId/clips', async (c) => {
        const { deps, auth } = ctxOf(c);
        const playlist = await loadRow(deps.store, 'playlist', auth.organizationId, pathId(c, 'playlistId'));
        if (!playlist || playlist.Deleted) throw notFound();
        const { flags } = await programAccess(deps.store, auth, playlist.ProgramId as string);
        require(flags, 'HasContentAccess');
        const page = pageParams(c);
        const includeDeleted = boolParam(c, 'includeDeleted');
        const rows = await deps.store.query<DbRow>(
          pageOf(
            'clip',
            `SELECT t.*, e.position FROM clips t JOIN playlists p ON p.id = $1
             JOIN LATERAL jsonb_array_elements_text(p.clip_ids) WITH ORDINALITY AS e(clip_id, position) ON e.clip_id::uuid = t.id
             WHERE t.organization_id = $2 ${includeDeleted ? '' : 'AND NOT t.deleted'}
             ORDER BY e.position LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`,
            't.position',
          ),
          [playlist.Id, auth.organizationId],
        );
        return c.json(paged(rows.map((r) => toWire('clip', r)), page));
      })

      // ── Recordings and annotations ───────────────────────────────────────────────────────
      .get('/v1/recordings', async (c) => {
        const { deps, auth } = ctxOf(c);
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, 'recordingIds');
        params.push(await allowedPrograms(deps.store, auth, content));
        where.push(`t.program_id = ANY($${params.length}::uuid[])`);
        return c.json(await listRows(deps.store, 'recording', where, params, 't.created_at_utc DESC, t.id', page));
      })
      .get('/v1/recordings/:recordingId', async (c) => {
        const { deps, auth } = ctxOf(c);
        const row = await loadRow(deps.store, 'recording', auth.organizationId, pathId(c, 'recordingId'));
        if (!row || row.Deleted) throw notFound();
        const { flags } = await programAccess(deps.store, auth, row.ProgramId as string);
        require(flags, 'HasContentAccess');
        return one(c, row);
      })
      .get('/v1/programs/:programId/recordings', async (c) => {
        const { deps, auth } = ctxOf(c);
        const programId = pathId(c, 'programId');
        const { flags } = await programAccess(deps.store, auth, programId);
        require(flags, 'HasContentAccess');
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, 'recordingIds');
        params.push(programId);
        where.push(`t.program_id = $${params.length}`);
        const status = enumListParam(c, 'status', RecordingState.options);
        if (status) {
          params.push(status);
          where.push(`t.state = ANY($${params.length}::text[])`);
        }
        return c.json(await listRows(deps.store, 'recording', where, params, 't.created_at_utc DESC, t.id', page));
      })
      .get('/v1/recordings/:recordingId/annotations', async (c) => {
        const { deps, auth } = ctxOf(c);
        const recording = await loadRow(deps.store, 'recording', auth.organizationId, pathId(c, 'recordingId'));
        if (!recording || recording.Deleted) throw notFound();
        const { flags } = await programAccess(deps.store, auth, recording.ProgramId as string);
        require(flags, 'HasContentAccess');
        const page = pageParams(c);
        const { where, params } = baseWhere(c, auth, null);
        params.push(recording.Id);
        where.push(`t.recording_id = $${params.length}`);
        return c.json(await listRows(deps.store, 'annotation', where, params, "(t.data->>'OffsetSeconds')::float8, t.id", page));
      })

      // ── The organization's users ─────────────────────────────────────────────────────────
      .get('/v1/users', async (c) => {
        const { deps, auth } = ctxOf(c);
        require(orgFlags(auth), 'HasManageUserAccess');
        const page = pageParams(c);
        const rows = await deps.store.query<UserRow & { permissions: unknown }>(
          `SELECT u.*, m.permissions FROM users u JOIN memberships m ON m.user_id = u.id AND m.organization_id = $1
           WHERE NOT u.deleted ORDER BY u.name, u.id LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`,
          [auth.organizationId],
        );
        return c.json(paged(rows.map((r) => ({ ...userToWire(r), Permissions: r.permissions })), page));
      })
      .get('/v1/users/:userId', async (c) => {
        const { deps, auth } = ctxOf(c);
        const userId = pathId(c, 'userId');
        const [row] = await deps.store.query<UserRow & { permissions: unknown }>(
          `SELECT u.*, m.permissions FROM users u JOIN memberships m ON m.user_id = u.id AND m.organization_id = $1
           WHERE u.id = $2 AND NOT u.deleted`,
          [auth.organizationId, userId],
        );
        if (!row) throw notFound();
        if (userId !== auth.user.Id) require(orgFlags(auth), 'HasManageUserAccess');
        return c.json({ ...userToWire(row), Permissions: row.permissions });
      })
      .get('/v1/user-profiles', async (c) => {
        // Names and pictures of members (CreatedById / ModifiedById), for any member of the organization.
        const { deps, auth } = ctxOf(c);
        const ids = idListParam(c, 'userIds') ?? [];
        const rows = await deps.store.query<UserRow>(
          `SELECT u.* FROM users u JOIN memberships m ON m.user_id = u.id AND m.organization_id = $1
           WHERE u.id = ANY($2::uuid[]) AND NOT u.deleted ORDER BY u.name, u.id`,
          [auth.organizationId, ids],
        );
        return c.json({ Items: rows.map((r) => ({ Id: r.id, Name: r.name, FirstName: r.first_name, ImageUrl: r.image_url })) });
      })
      .get('/v1/networks/:networkId/users', async (c) => {
        const { deps, auth } = ctxOf(c);
        const networkId = pathId(c, 'networkId');
        const network = await loadRow(deps.store, 'network', auth.organizationId, networkId);
        if (!network || network.Deleted) throw notFound();
        require(permissionsFor(auth.permissions, { kind: 'network', networkId }), 'HasManageUserAccess');
        return c.json(await usersWithAccess(c, auth, (entries) => holdsAny(permissionsFor(entries, { kind: 'network', networkId }))));
      })
      .get('/v1/programs/:programId/users', async (c) => {
        const { deps, auth } = ctxOf(c);
        const { program, flags } = await programAccess(deps.store, auth, pathId(c, 'programId'));
        require(flags, 'HasManageUserAccess');
        return c.json(await usersWithAccess(c, auth, (entries) => holdsAny(flagsForProgram({ ...auth, permissions: entries }, program))));
      })
      .put('/v1/users/:userId/permissions', async (c) => {
        const { deps, auth, write } = ctxOf(c);
        const userId = pathId(c, 'userId');
        const body = await readJson(c, PermissionEntriesSchema);
        const entries: PermissionEntry[] = body.map((e) => ({
          ObjectType: e.ObjectType,
          ObjectId: e.ObjectId?.toLowerCase() ?? null,
          Permissions: Object.fromEntries(Object.entries(e.Permissions).filter(([, v]) => v !== undefined)),
        }));
        const result = await deps.store.tx(async (q) => {
          const [member] = await q.query(`SELECT 1 FROM memberships WHERE organization_id = $1 AND user_id = $2`, [auth.organizationId, userId]);
          if (!member) throw notFound();
          require(orgFlags(auth), 'HasManageUserAccess');
          // Section 6: one object type per user, an object id once (src/domain/permissions.ts).
          assertValid([['', validatePermissionEntries(entries)]]);
          // Every entry names an object of this organization.
          for (const [i, e] of entries.entries()) {
            const field = `${i}.ObjectId`;
            if (e.ObjectType === null) continue;
            if (e.ObjectId === null) throw badRequest([fieldError(field, formError('required'))]);
            if (e.ObjectType === 'Organization' && e.ObjectId !== auth.organizationId) throw invalid(field);
            if (e.ObjectType === 'Network' && !(await loadRow(q, 'network', auth.organizationId, e.ObjectId))) throw invalid(field);
            if (e.ObjectType === 'Program' && !(await loadRow(q, 'program', auth.organizationId, e.ObjectId))) throw invalid(field);
          }
          const [row] = await q.query<{ version: number }>(
            `UPDATE memberships SET permissions = $3, modified_at_utc = $4, version = next_row_version()
             WHERE organization_id = $1 AND user_id = $2 RETURNING version`,
            [auth.organizationId, userId, JSON.stringify(entries), write.now],
          );
          return row!.version;
        });
        deps.bus.publish({ organizationId: auth.organizationId, version: result });
        return c.json(entries);
      })
  );
}
