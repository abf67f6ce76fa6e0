// The writes of the content API (specification section 7), one function per operation, shared by
// the REST routes (content.ts mounts every entry of MUTATIONS) and the sync push (sync/push.ts
// runs a batch of queued mutations through the same entries). Permissions, preconditions and
// field rules live only here, so a queued mutation is judged exactly as the online call.
//
//   REST:  path params → If-Match → JSON body (zod) → op(directStore(q)) in one transaction → bus
//   push:  path params → base    → body (zod)      → op(batch store)   … one transaction per batch
//
// An op reaches storage only through its OpStore: rows to write (locked), programs, rule reads
// (q) and the writes themselves. directStore does each at once; the sync batch store
// (sync/batch.ts) loads a batch's rows with set-based queries and writes them in bulk.
import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import { permissionsFor, type PermissionFlagName, type PermissionFlags } from '../../src/domain/permissions.ts';
import { validateGuid, validateInteger, validateRequired } from '../../src/domain/validators.ts';
import {
  AnnotationCreateSchema,
  ClipCreateSchema,
  ClipPatchSchema,
  NetworkCreateSchema,
  NetworkPatchSchema,
  PlaylistClipsPatchSchema,
  PlaylistCreateSchema,
  PlaylistPatchSchema,
  ProgramCreateSchema,
  ProgramPatchSchema,
  RecordingPatchSchema,
} from '../../src/protocol/entities.ts';
import type { Auth } from '../auth.ts';
import { AppError, assertValid, forbidden, notFound } from '../errors.ts';
import { checkPrecondition } from '../http.ts';
import { ENTITIES, insertRow, loadRow, updateRow, type EntityName, type WireRow, type WriteContext } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { clipDefaults } from '../../src/domain/clip-defaults.ts';
import { applyClipChange, checkSlug, invalid, nameCheck, normaliseTitle, titleCheck } from './content-rules.ts';

export type ProgramRef = { id: string; network_id: string | null; slug: string | null; deleted: boolean };

/** What an operation may do to storage. */
export interface OpStore {
  readonly auth: Auth;
  readonly write: WriteContext;
  /** Reads for the field rules (slugs, referenced rows); they see every earlier write. */
  readonly q: Queryable;
  /** The row of the caller's organization, locked for writing; null when absent or elsewhere. */
  row(entity: EntityName, id: string): Promise<WireRow | null>;
  /** Whether any row of the entity's table (any organization, deleted or not) has this Id. */
  exists(entity: EntityName, id: string): Promise<boolean>;
  /** A program of the caller's organization (null when absent). */
  program(id: string): Promise<ProgramRef | null>;
  insert(entity: EntityName, id: string, fields: Record<string, unknown>): Promise<WireRow>;
  update(entity: EntityName, current: WireRow, next: Record<string, unknown>): Promise<WireRow>;
}

/** Each call at once, inside the caller's transaction (the REST routes). */
export function directStore(q: Queryable, auth: Auth, write: WriteContext): OpStore {
  return {
    auth,
    write,
    q,
    row: (entity, id) => loadRow(q, entity, auth.organizationId, id, { forUpdate: true }),
    exists: async (entity, id) => (await q.query(`SELECT 1 FROM ${ENTITIES[entity].table} WHERE id = $1`, [id])).length > 0,
    program: async (id) =>
      (await q.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE id = $1 AND organization_id = $2`, [id, auth.organizationId]))[0] ??
      null,
    insert: (entity, id, fields) => insertRow(q, entity, id, write, fields),
    update: (entity, current, next) => updateRow(q, entity, current, write, next),
  };
}

export function flagsForProgram(auth: Auth, program: { id: string; network_id: string | null }): PermissionFlags {
  return permissionsFor(auth.permissions, { kind: 'program', programId: program.id, networkId: program.network_id });
}

export function require(flags: PermissionFlags, ...needed: PermissionFlagName[]): void {
  if (!needed.every((f) => flags[f])) throw forbidden();
}

export function orgFlags(auth: Auth): PermissionFlags {
  return permissionsFor(auth.permissions, { kind: 'organization' });
}

/** The live program of this organization (404 otherwise) and the caller's flags on it. */
async function programAccess(s: OpStore, programId: string): Promise<{ program: ProgramRef; flags: PermissionFlags }> {
  const program = await s.program(programId);
  if (!program || program.deleted) throw notFound();
  return { program, flags: flagsForProgram(s.auth, program) };
}

/** Locks a live row of the organization for a write; 404 when absent, deleted or elsewhere. */
async function lockRow(s: OpStore, entity: EntityName, id: string): Promise<WireRow> {
  const row = await s.row(entity, id);
  if (!row || row.Deleted) throw notFound();
  return row;
}

async function ensureNewId(s: OpStore, entity: EntityName, id: string): Promise<void> {
  if (await s.exists(entity, id)) throw new AppError(409);
}

/** Content rows (playlists, clips, recordings) are written with content access on their program. */
async function lockContent(s: OpStore, entity: EntityName, id: string) {
  const current = await lockRow(s, entity, id);
  const access = await programAccess(s, current.ProgramId as string);
  require(access.flags, 'HasContentAccess');
  return { current, ...access };
}

type Params = Record<string, string>;

/** One write of the API: how the REST route answers it and what it does. */
export type MutationOp = {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Hono path under /api, e.g. /v1/clips/:clipId (every parameter is a GUID). */
  path: string;
  schema: z.ZodType | null;
  /** Checked before the body is read (a caller who may not create gets 403 whatever they send). */
  before?: (auth: Auth) => void;
  /** REST answer: the row (200), the new row (201), nothing (204), or nothing with the ETag (204). */
  answer: 'row' | 'created' | 'none' | 'etag';
  run: (s: OpStore, params: Params, expected: string | null, body: unknown) => Promise<WireRow>;
};

function op<S extends z.ZodType | null>(def: {
  method: MutationOp['method'];
  path: string;
  schema: S;
  before?: (auth: Auth) => void;
  answer: MutationOp['answer'];
  run: (s: OpStore, params: Params, expected: string | null, body: S extends z.ZodType ? z.infer<S> : undefined) => Promise<WireRow>;
}): MutationOp {
  return def as MutationOp;
}

/** Soft delete of a live playlist, clip or recording (content access on its program). */
function softDelete(entity: EntityName, path: string, param: string): MutationOp {
  return op({
    method: 'DELETE',
    path,
    schema: null,
    answer: 'none',
    run: async (s, p, expected) => {
      const { current } = await lockContent(s, entity, p[param]!);
      checkPrecondition(expected, current);
      return s.update(entity, current, { ...current, Deleted: true });
    },
  });
}

export const MUTATIONS: readonly MutationOp[] = [
  // ── Networks ───────────────────────────────────────────────────────────────────────────
  op({
    method: 'POST',
    path: '/v1/networks',
    schema: NetworkCreateSchema,
    before: (auth) => require(orgFlags(auth), 'HasManageOrganizationSettingsAccess'),
    answer: 'created',
    run: async (s, _p, _e, body) => {
      assertValid([nameCheck(body.Name)]);
      const id = body.Id?.toLowerCase() ?? randomUUID();
      await ensureNewId(s, 'network', id);
      return s.insert('network', id, { Name: body.Name!.trim(), Urls: { ImagePublicUrl: null } });
    },
  }),
  op({
    method: 'PATCH',
    path: '/v1/networks/:networkId',
    schema: NetworkPatchSchema,
    answer: 'row',
    run: async (s, p, expected, body) => {
      const current = await lockRow(s, 'network', p.networkId!);
      require(orgFlags(s.auth), 'HasManageOrganizationSettingsAccess');
      checkPrecondition(expected, current);
      if ('Name' in body) assertValid([nameCheck(body.Name)]);
      return s.update('network', current, { ...current, ...body, ...(body.Name ? { Name: body.Name.trim() } : {}) });
    },
  }),
  op({
    method: 'DELETE',
    path: '/v1/networks/:networkId',
    schema: null,
    answer: 'none',
    run: async (s, p, expected) => {
      const current = await lockRow(s, 'network', p.networkId!);
      require(orgFlags(s.auth), 'HasManageOrganizationSettingsAccess');
      checkPrecondition(expected, current);
      return s.update('network', current, { ...current, Deleted: true });
    },
  }),

  // ── Programs ───────────────────────────────────────────────────────────────────────────
  op({
    method: 'POST',
    path: '/v1/programs',
    schema: ProgramCreateSchema,
    answer: 'created',
    run: async (s, _p, _e, body) => {
      const networkId = body.NetworkId?.toLowerCase() ?? null;
      const target = networkId ? { kind: 'network' as const, networkId } : { kind: 'organization' as const };
      require(permissionsFor(s.auth.permissions, target), 'HasCreateProgramAccess');
      assertValid([nameCheck(body.Name)]);
      const id = body.Id?.toLowerCase() ?? randomUUID();
      if (networkId) {
        const network = await loadRow(s.q, 'network', s.auth.organizationId, networkId);
        if (!network || network.Deleted) throw invalid('NetworkId');
      }
      await ensureNewId(s, 'program', id);
      const slug = body.Slug ?? null;
      await checkSlug(s.q, 'program', slug, { alwaysRequired: false, savedSlug: null, organizationId: s.auth.organizationId, selfId: id });
      return s.insert('program', id, { Name: body.Name!.trim(), NetworkId: networkId, Slug: slug, Description: body.Description ?? null, Urls: { ImagePublicUrl: null } });
    },
  }),
  op({
    method: 'PATCH',
    path: '/v1/programs/:programId',
    schema: ProgramPatchSchema,
    answer: 'row',
    run: async (s, p, expected, body) => {
      const id = p.programId!;
      const { flags } = await programAccess(s, id);
      const current = await lockRow(s, 'program', id);
      require(flags, 'HasContentAccess', 'HasManageSettingsAccess');
      checkPrecondition(expected, current);
      if ('Name' in body) assertValid([nameCheck(body.Name)]);
      const next = { ...current, ...body };
      if (body.Name) next.Name = body.Name.trim();
      if ('NetworkId' in body) {
        const networkId = body.NetworkId?.toLowerCase() ?? null;
        if (networkId) {
          const network = await loadRow(s.q, 'network', s.auth.organizationId, networkId);
          if (!network || network.Deleted) throw invalid('NetworkId');
        }
        next.NetworkId = networkId;
      }
      if ('Slug' in body) {
        await checkSlug(s.q, 'program', body.Slug ?? null, {
          alwaysRequired: false,
          savedSlug: (current.Slug as string | null) ?? null,
          organizationId: s.auth.organizationId,
          selfId: id,
        });
      }
      return s.update('program', current, next);
    },
  }),
  op({
    method: 'DELETE',
    path: '/v1/programs/:programId',
    schema: null,
    answer: 'none',
    run: async (s, p, expected) => {
      const { flags } = await programAccess(s, p.programId!);
      const current = await lockRow(s, 'program', p.programId!);
      require(flags, 'HasContentAccess', 'HasManageSettingsAccess');
      checkPrecondition(expected, current);
      return s.update('program', current, { ...current, Deleted: true });
    },
  }),

  // ── Playlists ──────────────────────────────────────────────────────────────────────────
  op({
    method: 'POST',
    path: '/v1/programs/:programId/playlists',
    schema: PlaylistCreateSchema,
    answer: 'created',
    run: async (s, p, _e, body) => {
      const programId = p.programId!;
      const id = body.Id?.toLowerCase() ?? randomUUID();
      const { flags } = await programAccess(s, programId);
      require(flags, 'HasContentAccess');
      assertValid([titleCheck(body.Title)]);
      await ensureNewId(s, 'playlist', id);
      const slug = body.Slug ?? null;
      await checkSlug(s.q, 'playlist', slug, { alwaysRequired: false, savedSlug: null, organizationId: s.auth.organizationId, selfId: id });
      return s.insert('playlist', id, {
        ProgramId: programId,
        Title: body.Title!.trim(),
        Slug: slug,
        Description: body.Description ?? null,
        Visibility: body.Visibility ?? 'Private',
        ClipIds: [],
        Urls: { ImagePublicUrl: null },
      });
    },
  }),
  op({
    method: 'PATCH',
    path: '/v1/playlists/:playlistId',
    schema: PlaylistPatchSchema,
    answer: 'row',
    run: async (s, p, expected, body) => {
      const id = p.playlistId!;
      const { current } = await lockContent(s, 'playlist', id);
      checkPrecondition(expected, current);
      if ('Title' in body) assertValid([titleCheck(body.Title)]);
      if ('Slug' in body) {
        await checkSlug(s.q, 'playlist', body.Slug ?? null, {
          alwaysRequired: false,
          savedSlug: (current.Slug as string | null) ?? null,
          organizationId: s.auth.organizationId,
          selfId: id,
        });
      }
      const next = { ...current, ...body };
      if (body.Title) next.Title = body.Title.trim();
      return s.update('playlist', current, next);
    },
  }),
  op({
    method: 'PATCH',
    path: '/v1/playlists/:playlistId/clips',
    schema: PlaylistClipsPatchSchema,
    answer: 'etag',
    run: async (s, p, expected, body) => {
      const clipIds = body.ClipIds.map((x) => x.toLowerCase());
      if (new Set(clipIds).size !== clipIds.length) throw invalid('ClipIds');
      const { current } = await lockContent(s, 'playlist', p.playlistId!);
      checkPrecondition(expected, current);
      // A playlist holds live clips of its own program only.
      const found = await s.q.query<{ id: string }>(
        `SELECT id FROM clips WHERE id = ANY($1::uuid[]) AND program_id = $2 AND organization_id = $3 AND NOT deleted`,
        [clipIds, current.ProgramId, s.auth.organizationId],
      );
      if (found.length !== clipIds.length) throw invalid('ClipIds');
      return s.update('playlist', current, { ...current, ClipIds: clipIds });
    },
  }),
  softDelete('playlist', '/v1/playlists/:playlistId', 'playlistId'),

  // ── Clips ──────────────────────────────────────────────────────────────────────────────
  op({
    method: 'POST',
    path: '/v1/programs/:programId/clips',
    schema: ClipCreateSchema,
    answer: 'created',
    run: async (s, p, _e, body) => {
      const programId = p.programId!;
      const { Id, ...fields } = body;
      const id = Id?.toLowerCase() ?? randomUUID();
      const { program, flags } = await programAccess(s, programId);
      require(flags, 'HasContentAccess');
      await ensureNewId(s, 'clip', id);
      const next = await applyClipChange(s.q, { ...clipDefaults(), ProgramId: programId }, fields, {
        organizationId: s.auth.organizationId,
        clipId: id,
        programSlug: program.slug,
        now: s.write.now,
        isNew: true,
      });
      return s.insert('clip', id, next);
    },
  }),
  op({
    method: 'PATCH',
    path: '/v1/clips/:clipId',
    schema: ClipPatchSchema,
    answer: 'row',
    run: async (s, p, expected, body) => {
      const id = p.clipId!;
      const { current, program } = await lockContent(s, 'clip', id);
      checkPrecondition(expected, current);
      const next = await applyClipChange(s.q, current, body, {
        organizationId: s.auth.organizationId,
        clipId: id,
        programSlug: program.slug,
        now: s.write.now,
        isNew: false,
      });
      return s.update('clip', current, next);
    },
  }),
  softDelete('clip', '/v1/clips/:clipId', 'clipId'),

  // ── Recordings and annotations ─────────────────────────────────────────────────────────
  op({
    method: 'PATCH',
    path: '/v1/recordings/:recordingId',
    schema: RecordingPatchSchema,
    answer: 'row',
    run: async (s, p, expected, body) => {
      const { current } = await lockContent(s, 'recording', p.recordingId!);
      checkPrecondition(expected, current);
      const next = { ...current, ...body };
      if ('Title' in body) {
        next.Title = normaliseTitle(body.Title);
        assertValid([['Title', next.Title === null ? null : titleCheck(next.Title as string)[1]]]);
      }
      if ('Rating' in body && body.Rating !== null) assertValid([['Rating', validateInteger(body.Rating, { min: 0, max: 5 })]]);
      return s.update('recording', current, next);
    },
  }),
  softDelete('recording', '/v1/recordings/:recordingId', 'recordingId'),
  op({
    method: 'POST',
    path: '/v1/recordings/:recordingId/annotations',
    schema: AnnotationCreateSchema,
    answer: 'created',
    run: async (s, p, _e, body) => {
      const recordingId = p.recordingId!;
      const id = body.Id?.toLowerCase() ?? randomUUID();
      await lockContent(s, 'recording', recordingId);
      assertValid([['Text', validateRequired(body.Text)]]);
      await ensureNewId(s, 'annotation', id);
      return s.insert('annotation', id, {
        RecordingId: recordingId,
        OffsetSeconds: body.OffsetSeconds,
        DurationSeconds: body.DurationSeconds ?? null,
        Text: body.Text.trim(),
      });
    },
  }),
  op({
    method: 'DELETE',
    path: '/v1/recordings/:recordingId/annotations/:annotationId',
    schema: null,
    answer: 'none',
    run: async (s, p, expected) => {
      const recording = await loadRow(s.q, 'recording', s.auth.organizationId, p.recordingId!);
      if (!recording || recording.Deleted) throw notFound();
      const current = await lockRow(s, 'annotation', p.annotationId!);
      if (current.RecordingId !== p.recordingId) throw notFound();
      const { flags } = await programAccess(s, recording.ProgramId as string);
      require(flags, 'HasContentAccess');
      checkPrecondition(expected, current);
      return s.update('annotation', current, { ...current, Deleted: true });
    },
  }),
];

const compiled = MUTATIONS.map((m) => {
  const names: string[] = [];
  const source = m.path.replace(/:([A-Za-z]+)/g, (_all, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { op: m, names, pattern: new RegExp(`^${source}$`) };
});

/**
 * The operation a queued mutation names (method and API path), with its path parameters; null
 * when no shared operation serves it (the push then calls the API over its router). A parameter
 * that is not a GUID cannot name a row: 404, as the route answers.
 */
export function matchMutation(method: string, path: string): { op: MutationOp; params: Params } | null {
  for (const { op: m, names, pattern } of compiled) {
    if (m.method !== method) continue;
    const match = pattern.exec(path);
    if (!match) continue;
    const params: Params = {};
    for (const [i, name] of names.entries()) {
      const value = match[i + 1]!;
      if (validateGuid(value, { required: true }) !== null) throw notFound();
      params[name] = value.toLowerCase();
    }
    return { op: m, params };
  }
  return null;
}
