// The access guard: middleware that every route of the API declares (sync-server/api/route.ts
// refuses a route without one). It resolves the caller and the organization, network, program
// or row the route touches and applies section 6 before the route's validators and handler run:
//
//   no session ──> 401            not a member of the organization ──> 404
//   the row / program / network: absent, deleted, of another organization, or one the caller may
//   not read (src/domain/access.ts) ──> 404, exactly as a row that does not exist
//   readable, but a flag the route needs is missing ──> 403
//   a write (any method but GET and HEAD) by an unactivated account (its e-mail address not
//   confirmed: section 4's session type) ──> 403 with a body saying so, unless the route only
//   reads (readsOnly: a report or estimate started, an enquiry to support)
//
// What it resolved is handed to the handler (c.var.row, c.var.program, c.var.network), so a route
// reads nothing twice. Writes that are named mutations check again inside their transaction
// (sync-server/mutations/store.ts, the same domain rules): a sync push reaches them without HTTP.
import type { Context, MiddlewareHandler } from 'hono';
import { mayRead, missingFlags, networkFlags } from '../../src/domain/access.ts';
import { anyPermissions, type PermissionFlagName, type PermissionFlags } from '../../src/domain/permissions.ts';
import { ENTITY_KINDS, KIND_OF, type SyncEntity } from '../../src/protocol/entity-kinds.ts';
import { getAuth, requireSession, requireUser } from '../auth.ts';
import { AppError, fieldError, forbidden, notFound } from '../errors.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { ServerErrorCode } from '../../src/protocol/errors.ts';
import { flagsForProgram, orgFlags, seesNetwork, type ProgramRef } from '../mutations/store.ts';
import { loadRow, type WireRow } from '../rows.ts';
import { validateGuid } from '../../src/domain/validators.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** The row a guarded route touches (guard.row, guard.network). */
    row: WireRow;
    /** The program the route's row belongs to, or the route's program (guard.row, guard.program). */
    program: ProgramRef;
  }
}

/** A guard: its middleware, and who may call, in words for the API reference (x-access).
 * `unactivatedMayWrite`: a POST that changes no content or setting, open to unactivated accounts. */
export type Access = {
  middleware: MiddlewareHandler[];
  describe: string;
  unactivatedMayWrite?: true;
  /** Answers the guard adds to the route's own in the OpenAPI document (a plan's 403 with a body: sync-server/billing/entitlements.ts). */
  responses?: Record<number, { description: string; content?: Record<string, unknown> }>;
};

/** The guard, for a route whose unsafe method only reads or asks (a report started, a message to
 * support): an unactivated account may call it as it may read. */
export const readsOnly = (access: Access): Access => ({ ...access, unactivatedMayWrite: true });

/**
 * After the route's own guard: an unactivated account (section 4) reads but does not write (issue
 * 31). Routes without a member's auth (sign-in, the session, public feeds) pass: nothing of an
 * organization is theirs to change.
 */
export const activatedToWrite: MiddlewareHandler = async (c, next) => {
  const auth = c.get('auth');
  if (auth && !auth.user.Activated) throw notActivated();
  await next();
};

/** The 403 of a write by an account whose e-mail address is not confirmed (section 4). */
export function notActivated(): AppError {
  return new AppError(403, { Errors: [fieldError('account', formError('invalid', 'domain_account_not_activated', undefined, ServerErrorCode.AccountNotActivated))] });
}

const flagsText = (need: readonly PermissionFlagName[]) => (need.length > 0 ? ` with ${need.join(' and ')}` : '');

/** A path parameter naming a row: anything but a GUID names none (404). */
function idParam(value: string | undefined): string {
  if (value === undefined || validateGuid(value, { required: true }) !== null) throw notFound();
  return value.toLowerCase();
}

async function loadProgram(c: Context, programId: string): Promise<ProgramRef | null> {
  const { store } = c.get('deps');
  const [program] = await store.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE id = $1 AND organization_id = $2`, [
    programId,
    getAuth(c).organizationId,
  ]);
  return program && !program.deleted ? program : null;
}

type ContentEntity = Extract<SyncEntity, 'playlists' | 'clips' | 'recordings'>;

/**
 * A content row (playlist, clip, recording) of the caller's organization that the caller may
 * read, with its program and the caller's flags there; null otherwise. What guard.row checks of a
 * row named in the path, for routes that name one elsewhere (an upload's metadata).
 */
export async function readableContentRow(c: Context, entity: ContentEntity, id: string): Promise<{ row: WireRow; program: ProgramRef; flags: PermissionFlags } | null> {
  const auth = getAuth(c);
  const row = await loadRow(c.get('deps').store, KIND_OF[entity], auth.organizationId, id);
  if (!row || row.Deleted) return null;
  const program = await loadProgram(c, row['ProgramId'] as string);
  if (!program) return null;
  const flags = flagsForProgram(auth, program);
  return mayRead(ENTITY_KINDS[entity].read, flags) ? { row, program, flags } : null;
}

export const guard = {
  /** Anyone, signed in or not (sign-in itself, the session's own state). */
  public(): Access {
    return { middleware: [], describe: 'Anyone' };
  },

  /** A signed-in user (session or API key), in no particular organization. */
  user(): Access {
    return { middleware: [requireUser], describe: 'A signed-in user' };
  },

  /** A member of the organization (x-organization-id, or the user's first). */
  member(): Access {
    return { middleware: [requireSession], describe: 'A member of the organization' };
  },

  /** A member holding organization-scope flags (403 without). */
  organization(...need: PermissionFlagName[]): Access {
    const check: MiddlewareHandler = async (c, next) => {
      if (missingFlags(orgFlags(getAuth(c)), need).length > 0) throw forbidden();
      await next();
    };
    return { middleware: [requireSession, check], describe: `A member at organization scope${flagsText(need)}` };
  },

  /** A member holding a flag anywhere in the organization (its scope decided by the body). */
  anywhere(flag: PermissionFlagName): Access {
    const check: MiddlewareHandler = async (c, next) => {
      if (!anyPermissions(getAuth(c).permissions)[flag]) throw forbidden();
      await next();
    };
    return { middleware: [requireSession, check], describe: `A member holding ${flag} at some scope` };
  },

  /** The program in the path, visible to the caller (any flag on it), with the flags needed. */
  program(param: string, ...need: PermissionFlagName[]): Access {
    const check: MiddlewareHandler = async (c, next) => {
      const program = await loadProgram(c, idParam(c.req.param(param)));
      if (!program) throw notFound();
      const flags = flagsForProgram(getAuth(c), program);
      if (!mayRead(ENTITY_KINDS.programs.read, flags)) throw notFound();
      if (missingFlags(flags, need).length > 0) throw forbidden();
      c.set('program', program);
      await next();
    };
    return { middleware: [requireSession, check], describe: `A member who sees the program${flagsText(need)}` };
  },

  /** The network in the path, visible to the caller (a flag on it, or on a program in it); the
   * flags needed are organization-scope ones (section 6: networks are the organization's). */
  network(param: string, options: { organization?: PermissionFlagName[]; network?: PermissionFlagName[] } = {}): Access {
    const check: MiddlewareHandler = async (c, next) => {
      const auth = getAuth(c);
      const networkId = idParam(c.req.param(param));
      const network = await loadRow(c.get('deps').store, 'network', auth.organizationId, networkId);
      if (!network || network.Deleted) throw notFound();
      if (!(await seesNetwork(c.get('deps').store, auth, networkId))) throw notFound();
      if (missingFlags(orgFlags(auth), options.organization ?? []).length > 0) throw forbidden();
      if (options.network && missingFlags(networkFlags(auth.permissions, networkId), options.network).length > 0) throw forbidden();
      c.set('row', network);
      await next();
    };
    const needs = [...(options.organization ?? []).map((f) => `${f} at organization scope`), ...(options.network ?? []).map((f) => `${f} on the network`)];
    return { middleware: [requireSession, check], describe: `A member who sees the network${needs.length > 0 ? ` with ${needs.join(' and ')}` : ''}` };
  },

  /** A content row in the path (playlist, clip, recording) the caller may read: content access on
   * its program; the flags needed beyond it. */
  row(entity: ContentEntity, param: string, ...need: PermissionFlagName[]): Access {
    const kind = KIND_OF[entity];
    const check: MiddlewareHandler = async (c, next) => {
      const found = await readableContentRow(c, entity, idParam(c.req.param(param)));
      if (!found) throw notFound();
      if (missingFlags(found.flags, need).length > 0) throw forbidden();
      c.set('row', found.row);
      c.set('program', found.program);
      await next();
    };
    return { middleware: [requireSession, check], describe: `A member with HasContentAccess on the ${kind}’s program${need.length > 0 ? flagsText(need) : ''}` };
  },
};

