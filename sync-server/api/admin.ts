// Admin calls (specification section 7, "Images and admin"; section 6, "Grant access"):
//
//   POST /admin/users/me/organizations { OrganizationId }
//     not signed in 401 · not admin or support 403 · bad body 400 naming the field ·
//     no such (live) organization 404 · otherwise 204: the caller is a member from now on
//
// The page 'Organization not found' offers this to admin or support users and reloads on success,
// so the organization opens with the membership made here. The caller's organization header is
// ignored: by definition they are not a member of the organization they ask for.
import type { MiddlewareHandler } from 'hono';
import { allPermissions, type PermissionEntry } from '../../src/domain/permissions.ts';
import * as routes from '../../src/protocol/api/admin.ts';
import type { User } from '../../src/protocol/entities.ts';
import { loadCaller, rotateSession } from '../auth.ts';
import { AppError, badRequest, fieldError, forbidden, notFound, unauthorized } from '../errors.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { readJsonBlob } from '../audio/blob-store.ts';
import { clipKeys } from '../audio/media-paths.ts';
import type { AudioService } from '../audio/service.ts';
import { enqueueClipAudio } from '../audio/versions.ts';
import { containsPattern, readStaffLookup, staffLookupHref, STAFF_LOOKUP_PER_KIND, type StaffLookupKind, type StaffLookupQuery } from '../../src/domain/staff-lookup.ts';
import type { Queryable } from '../store/store.ts';
import { now } from '../app.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, type Access } from './guard.ts';

/**
 * The permission entries an admin-granted membership carries: Organization scope, like the seed's
 * admin and support users. An admin gets every flag (the admin site may change anything anyway);
 * support gets what reading and auditing the organization's content takes.
 */
function grantedPermissions(user: Pick<User, 'IsAdmin'>, organizationId: string): PermissionEntry[] {
  const flags = user.IsAdmin ? allPermissions() : { HasContentAccess: true, HasAuditAccess: true };
  return [{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: flags }];
}

/** A guard of this module: a signed-in admin or support user, in no particular organization (403
 * for any other user). */
export function adminOrSupport(): Access {
  const signedIn = guard.user();
  const check: MiddlewareHandler = async (c, next) => {
    const caller = await loadCaller(c);
    if (!caller) throw unauthorized();
    if (!caller.user.IsAdminOrSupport) throw forbidden();
    await next();
  };
  return { middleware: [...signedIn.middleware, check], describe: 'An admin or support user' };
}

// ── Object search ─────────────────────────────────────────────────────────────────────────────
//
// Every organization's rows, read by the query's kind (src/domain/staff-lookup.ts): by id (each
// table asked for the ids), by e-mail (the user and one row per organization they are in), or by
// text (slugs equal to it, names and titles containing it, case-insensitively). Deleted rows are
// found too (support is asked about them) and say so. Each kind is capped at
// STAFF_LOOKUP_PER_KIND, the most recently changed first.

type Found = { kind: StaffLookupKind; id: string; title: string | null; detail: string | null; organization_id: string | null; organization_name: string | null; program_id: string | null; deleted: boolean; modified_at_utc: Date | string };

/** Each content table: its kind, its title column, what tells rows apart, its program. */
const TABLES: Array<{ kind: StaffLookupKind; table: string; title: string; detail: string; program: string; slug: boolean }> = [
  { kind: 'Organization', table: 'organizations', title: 't.name', detail: "t.provider", program: 'NULL::uuid', slug: false },
  { kind: 'Network', table: 'networks', title: 't.name', detail: 'NULL::text', program: 'NULL::uuid', slug: false },
  { kind: 'Program', table: 'programs', title: 't.name', detail: 't.slug', program: 't.id', slug: true },
  { kind: 'Playlist', table: 'playlists', title: 't.title', detail: '(SELECT p.name FROM programs p WHERE p.id = t.program_id)', program: 't.program_id', slug: true },
  { kind: 'Clip', table: 'clips', title: 't.title', detail: '(SELECT p.name FROM programs p WHERE p.id = t.program_id)', program: 't.program_id', slug: true },
  { kind: 'Recording', table: 'recordings', title: 't.title', detail: '(SELECT p.name FROM programs p WHERE p.id = t.program_id)', program: 't.program_id', slug: false },
];

async function lookUp(q: Queryable, query: StaffLookupQuery): Promise<Found[]> {
  const found: Found[] = [];
  // An e-mail address names a person only.
  for (const t of query.kind === 'email' ? [] : TABLES) {
    const where = query.kind === 'ids' ? 't.id = ANY($1::uuid[])' : `(${t.title} ILIKE $1${t.slug ? ' OR t.slug = $2' : ''})`;
    const params = query.kind === 'ids' ? [query.ids] : query.kind === 'text' ? [containsPattern(query.text), ...(t.slug ? [query.text] : [])] : [];
    const orgOf = t.kind === 'Organization' ? 't.id' : 't.organization_id';
    found.push(
      ...(await q.query<Found>(
        `SELECT '${t.kind}' AS kind, t.id, ${t.title} AS title, ${t.detail} AS detail, ${orgOf} AS organization_id, o.name AS organization_name,
                ${t.program} AS program_id, t.deleted, t.modified_at_utc
           FROM ${t.table} t JOIN organizations o ON o.id = ${orgOf}
          WHERE ${where} ORDER BY t.modified_at_utc DESC, t.id LIMIT ${STAFF_LOOKUP_PER_KIND}`,
        params,
      )),
    );
  }
  // People: by id, e-mail or (text) name or e-mail containing it; one row per organization they are in.
  const userWhere = query.kind === 'ids' ? 'u.id = ANY($1::uuid[])' : query.kind === 'email' ? 'lower(u.email) = $1' : '(u.name ILIKE $1 OR u.email ILIKE $1)';
  const userParam = query.kind === 'ids' ? query.ids : query.kind === 'email' ? query.email : containsPattern(query.text);
  found.push(
    ...(await q.query<Found>(
      `SELECT 'User' AS kind, u.id, u.name AS title, u.email AS detail, m.organization_id, o.name AS organization_name, NULL::uuid AS program_id, u.deleted, u.modified_at_utc
         FROM (SELECT * FROM users u WHERE ${userWhere} ORDER BY u.modified_at_utc DESC, u.id LIMIT ${STAFF_LOOKUP_PER_KIND}) u
         LEFT JOIN memberships m ON m.user_id = u.id
         LEFT JOIN organizations o ON o.id = m.organization_id AND NOT o.deleted
        ORDER BY u.modified_at_utc DESC, u.id, o.name`,
      [userParam],
    )),
  );
  return found;
}

/** Where a row's id stands in the query's ids (a person found by id after them; sort is stable). */
const rank = (ids: readonly string[], row: routes.StaffLookupRow) => {
  const at = ids.indexOf(row.Id);
  return at === -1 ? ids.length : at;
};

export function adminRoutes(audio: Pick<AudioService, 'blobs'>) {
  return resourceApp()
    .openapi(guarded(routes.staffLookup, adminOrSupport()), async (c) => {
      const raw = c.req.valid('query').query;
      const read = readStaffLookup(raw);
      if ('error' in read) throw badRequest([fieldError('query', read.error)]);
      const { memberships } = (await loadCaller(c))!;
      const mine = new Set(memberships.map((m) => m.organization_id));
      const rows = await lookUp(c.get('deps').store, read.query);
      const results: routes.StaffLookupRow[] = rows.map((r) => {
        const row = { Kind: r.kind, Id: r.id, OrganizationId: r.organization_id, ProgramId: r.program_id };
        return {
          ...row,
          Title: r.title ?? '',
          Detail: r.detail,
          OrganizationName: r.organization_name,
          Deleted: r.deleted,
          CallerIsMember: r.organization_id !== null && mine.has(r.organization_id),
          Href: staffLookupHref(row),
          ModifiedAtUtc: new Date(r.modified_at_utc).toISOString(),
        };
      });
      // An address names the organization first and the object last: what was being looked at comes first.
      const query = read.query;
      if (query.kind === 'ids') results.sort((a, b) => rank(query.ids, a) - rank(query.ids, b));
      return c.json({ Query: raw, ReadAs: query.kind, Results: results }, 200);
    })
    .openapi(guarded(routes.regenerateClipAudio, adminOrSupport()), async (c) => {
      const clipId = c.req.valid('param').clipId;
      const deps = c.get('deps');
      const { user } = (await loadCaller(c))!;
      await deps.store.tx(async (q) => {
        // A clip of any organization: staff are not its members.
        const [clip] = await q.query<{ organization_id: string; deleted: boolean }>(`SELECT organization_id, deleted FROM clips WHERE id = $1`, [clipId]);
        if (!clip || clip.deleted) throw notFound();
        // Its audio: the original upload the version is made from (absent until one is stored).
        if (!(await readJsonBlob(audio.blobs, clipKeys.meta(clipId))) && !(await readJsonBlob(audio.blobs, clipKeys.pending(clipId)))) {
          throw new AppError(409, { Errors: [fieldError('clipId', formError('invalid', 'domain_staff_no_audio'))] });
        }
        await enqueueClipAudio(q, { organizationId: clip.organization_id, clipId, userId: user.Id, force: true });
      });
      return c.body(null, 204);
    })
    .openapi(guarded(routes.grantOrganizationAccess, adminOrSupport()), async (c) => {
    const deps = c.get('deps');
    const { user } = (await loadCaller(c))!;
    const organizationId = c.req.valid('json').OrganizationId;
    await deps.store.tx(async (q) => {
      const [org] = await q.query(`SELECT 1 FROM organizations WHERE id = $1 AND NOT deleted`, [organizationId]);
      if (!org) throw notFound();
      // Already a member: the membership and its permissions stay as they are.
      await q.query(
        `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version)
         VALUES ($1, $2, $3, $4, $4, next_row_version()) ON CONFLICT (organization_id, user_id) DO NOTHING`,
        [organizationId, user.Id, JSON.stringify(grantedPermissions(user, organizationId)), now(deps)],
      );
    });
    // The caller now reaches an organization it did not: a new session id.
    await rotateSession(c);
    return c.body(null, 204);
  });
}
