// Enterprises and sales codes (src/protocol/api/enterprises.ts; rules: src/domain/enterprises.ts).
//
//   not signed in 401 · neither admin nor reseller 403 · an enterprise the caller may not see, or
//   none: 404 (no body) · an organization the enterprise does not hold: 404 · a write by an
//   unactivated account 403 with a body (section 4) · a field that fails: 400 naming it
//
// Staff tools, in no particular organization: the caller's x-organization-id is not read. The
// enterprise's facts about an organization live in enterprise_organizations, never on the
// organization's row (its members edit that, offline too); so a PATCH here is a plain REST write
// with If-Match on the enterprise's own ModifiedAtUtc, not a named mutation.
import type { Context, MiddlewareHandler } from 'hono';
import * as routes from '../../src/protocol/api/enterprises.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import {
  cleanEnterpriseText,
  ENTERPRISE_ORGANIZATION_FIELDS,
  enterpriseAccessPermissions,
  isSalesCode,
  mayUseEnterprises,
  salesCodeKey,
  seesEnterprise,
  validateEnterpriseOrganizationEdit,
} from '../../src/domain/enterprises.ts';
import { containsPattern } from '../../src/domain/staff-lookup.ts';
import type { User } from '../../src/protocol/entities.ts';
import { loadCaller, rotateSession } from '../auth.ts';
import { badRequest, fieldError, forbidden, notFound, unauthorized } from '../errors.ts';
import { checkPrecondition, etagOf, ifMatch } from '../http.ts';
import type { Queryable } from '../store/store.ts';
import { now } from '../app.ts';
import { paged } from './lists.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, notActivated, type Access } from './guard.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** The enterprise a guarded enterprise route names, seen by the caller. */
    enterprise: { id: string; name: string };
  }
}

const userFacts = (user: User) => ({ isAdmin: user.IsAdmin, hasResellerAccess: user.HasResellerAccess });

async function callerUser(c: Context): Promise<User> {
  const caller = await loadCaller(c);
  if (!caller) throw unauthorized();
  return caller.user;
}

/** An admin or a user with reseller access (403 for anyone else); a write needs an activated account. */
const enterpriseUser: MiddlewareHandler = async (c, next) => {
  const user = await callerUser(c);
  if (!mayUseEnterprises(userFacts(user))) throw forbidden();
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && !user.Activated) throw notActivated();
  await next();
};

function enterpriseCaller(): Access {
  return { middleware: [...guard.user().middleware, enterpriseUser], describe: 'An admin, or a user with reseller access' };
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The enterprise in the path, seen by the caller: admins every one, a reseller its own (404 otherwise). */
function oneEnterprise(): Access {
  const check: MiddlewareHandler = async (c, next) => {
    const id = c.req.param('enterpriseId') ?? '';
    if (!GUID.test(id)) throw notFound();
    const user = await callerUser(c);
    const [row] = await c.get('deps').store.query<{ id: string; name: string; is_user: boolean }>(
      `SELECT e.id, e.name, EXISTS (SELECT 1 FROM enterprise_users eu WHERE eu.enterprise_id = e.id AND eu.user_id = $2) AS is_user FROM enterprises e WHERE e.id = $1`,
      [id.toLowerCase(), user.Id],
    );
    if (!row || !seesEnterprise(userFacts(user), row.is_user)) throw notFound();
    c.set('enterprise', { id: row.id, name: row.name });
    await next();
  };
  const base = enterpriseCaller();
  return { middleware: [...base.middleware, check], describe: `${base.describe} who sees the enterprise (a reseller: one it is a user of)` };
}

// ── Reads ─────────────────────────────────────────────────────────────────────────────────

type OrganizationRow = {
  enterprise_id: string;
  organization_id: string;
  name: string;
  display_name: string | null;
  plan_label: string | null;
  notes: string | null;
  deleted: boolean;
  is_member: boolean;
  added_at_utc: Date | string;
  modified_at_utc: Date | string;
};

const iso = (at: Date | string) => new Date(at).toISOString();

const organizationToWire = (r: OrganizationRow): routes.EnterpriseOrganization => ({
  EnterpriseId: r.enterprise_id,
  OrganizationId: r.organization_id,
  Name: r.name,
  DisplayName: r.display_name,
  PlanLabel: r.plan_label,
  Notes: r.notes,
  Deleted: r.deleted,
  CallerIsMember: r.is_member,
  AddedAtUtc: iso(r.added_at_utc),
  ModifiedAtUtc: iso(r.modified_at_utc),
});

const ORGANIZATIONS = `SELECT eo.enterprise_id, eo.organization_id, o.name, eo.display_name, eo.plan_label, eo.notes, o.deleted,
    EXISTS (SELECT 1 FROM memberships m WHERE m.organization_id = o.id AND m.user_id = $2) AS is_member, eo.added_at_utc, eo.modified_at_utc
  FROM enterprise_organizations eo JOIN organizations o ON o.id = eo.organization_id WHERE eo.enterprise_id = $1`;

async function loadOrganization(q: Queryable, enterpriseId: string, organizationId: string, userId: string): Promise<routes.EnterpriseOrganization | null> {
  const [row] = await q.query<OrganizationRow>(`${ORGANIZATIONS} AND eo.organization_id = $3`, [enterpriseId, userId, organizationId]);
  return row ? organizationToWire(row) : null;
}

/** The filter as a LIKE pattern ('' or absent: every row). */
const filterOf = (filter: string | undefined) => (filter?.trim() ? containsPattern(filter.trim()) : null);

async function enterpriseSummaries(q: Queryable, user: User, query: { filter?: string | undefined; page?: number | undefined; pageSize?: number | undefined }) {
  const page = pageOf(query);
  const rows = await q.query<{ id: string; name: string; organizations: number; users: number; created_at_utc: Date | string; modified_at_utc: Date | string }>(
    `SELECT e.id, e.name, e.created_at_utc, e.modified_at_utc,
            (SELECT count(*)::int FROM enterprise_organizations eo WHERE eo.enterprise_id = e.id) AS organizations,
            (SELECT count(*)::int FROM enterprise_users eu WHERE eu.enterprise_id = e.id) AS users
       FROM enterprises e
      WHERE ($1 OR EXISTS (SELECT 1 FROM enterprise_users eu WHERE eu.enterprise_id = e.id AND eu.user_id = $2))
        AND ($3::text IS NULL OR e.name ILIKE $3)
      ORDER BY lower(e.name), e.id LIMIT $4 OFFSET $5`,
    [user.IsAdmin, user.Id, filterOf(query.filter), page.pageSize + 1, page.offset],
  );
  return { page, rows };
}

export function enterpriseRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listEnterprises, enterpriseCaller()), async (c) => {
      const user = await callerUser(c);
      const { page, rows } = await enterpriseSummaries(c.get('deps').store, user, c.req.valid('query'));
      const items = rows.map((r) => ({ Id: r.id, Name: r.name, OrganizationCount: r.organizations, UserCount: r.users, ModifiedAtUtc: iso(r.modified_at_utc) }));
      return c.json(paged(items, page), 200);
    })
    .openapi(guarded(routes.getEnterprise, oneEnterprise()), async (c) => {
      const q = c.get('deps').store;
      const { id } = c.get('enterprise');
      const [e] = await q.query<{ id: string; name: string; organizations: number; users: number; created_at_utc: Date | string; modified_at_utc: Date | string }>(
        `SELECT e.id, e.name, e.created_at_utc, e.modified_at_utc,
                (SELECT count(*)::int FROM enterprise_organizations eo WHERE eo.enterprise_id = e.id) AS organizations,
                (SELECT count(*)::int FROM enterprise_users eu WHERE eu.enterprise_id = e.id) AS users
           FROM enterprises e WHERE e.id = $1`,
        [id],
      );
      if (!e) throw notFound();
      const codes = await q.query<{ name: string; owner_user_id: string | null; owner_name: string | null; created_at_utc: Date | string }>(
        `SELECT s.name, s.owner_user_id, u.name AS owner_name, s.created_at_utc FROM sales_codes s LEFT JOIN users u ON u.id = s.owner_user_id AND NOT u.deleted
          WHERE s.enterprise_id = $1 ORDER BY s.key`,
        [id],
      );
      const answer: routes.Enterprise = {
        Id: e.id,
        Name: e.name,
        OrganizationCount: e.organizations,
        UserCount: e.users,
        CreatedAtUtc: iso(e.created_at_utc),
        ModifiedAtUtc: iso(e.modified_at_utc),
        SalesCodes: codes.map((s) => ({ Name: s.name, OwnerUserId: s.owner_name === null ? null : s.owner_user_id, OwnerName: s.owner_name, CreatedAtUtc: iso(s.created_at_utc) })),
      };
      return c.json(answer, 200);
    })
    .openapi(guarded(routes.listEnterpriseOrganizations, oneEnterprise()), async (c) => {
      const query = c.req.valid('query');
      const page = pageOf(query);
      const user = await callerUser(c);
      const rows = await c.get('deps').store.query<OrganizationRow>(
        `${ORGANIZATIONS} AND ($3::text IS NULL OR o.name ILIKE $3 OR eo.display_name ILIKE $3)
          ORDER BY lower(coalesce(eo.display_name, o.name)), eo.organization_id LIMIT $4 OFFSET $5`,
        [c.get('enterprise').id, user.Id, filterOf(query.filter), page.pageSize + 1, page.offset],
      );
      return c.json(paged(rows.map(organizationToWire), page), 200);
    })
    .openapi(guarded(routes.getEnterpriseOrganization, oneEnterprise()), async (c) => {
      const user = await callerUser(c);
      const found = await loadOrganization(c.get('deps').store, c.get('enterprise').id, c.req.valid('param').organizationId, user.Id);
      if (!found) throw notFound();
      c.header('ETag', etagOf(found));
      return c.json(found, 200);
    })
    .openapi(guarded(routes.updateEnterpriseOrganization, oneEnterprise()), async (c) => {
      const body = c.req.valid('json');
      const problems = validateEnterpriseOrganizationEdit(body);
      if (problems.length > 0) throw badRequest(problems.map((p) => fieldError(p.field, p.error)));
      const deps = c.get('deps');
      const user = await callerUser(c);
      const enterpriseId = c.get('enterprise').id;
      const organizationId = c.req.valid('param').organizationId;
      const expected = ifMatch(c);
      const saved = await deps.store.tx(async (q) => {
        // The row locked, so two edits made on the same base cannot both pass the precondition.
        const [locked] = await q.query(`SELECT 1 FROM enterprise_organizations WHERE enterprise_id = $1 AND organization_id = $2 FOR UPDATE`, [enterpriseId, organizationId]);
        const current = locked ? await loadOrganization(q, enterpriseId, organizationId, user.Id) : null;
        if (!current) throw notFound();
        checkPrecondition(expected, current);
        const sent = ENTERPRISE_ORGANIZATION_FIELDS.filter((f) => body[f] !== undefined);
        if (sent.length === 0) return current;
        const column = { DisplayName: 'display_name', PlanLabel: 'plan_label', Notes: 'notes' } as const;
        const sets = sent.map((f, i) => `${column[f]} = $${i + 4}`);
        // A later time than the one the edit was made on, even within the clock's millisecond.
        const at = new Date(Math.max(now(deps).getTime(), Date.parse(current.ModifiedAtUtc) + 1));
        await q.query(`UPDATE enterprise_organizations SET ${sets.join(', ')}, modified_at_utc = $3 WHERE enterprise_id = $1 AND organization_id = $2`, [
          enterpriseId,
          organizationId,
          at,
          ...sent.map((f) => cleanEnterpriseText(body[f])),
        ]);
        return (await loadOrganization(q, enterpriseId, organizationId, user.Id))!;
      });
      c.header('ETag', etagOf(saved));
      return c.json(saved, 200);
    })
    .openapi(guarded(routes.grantEnterpriseOrganizationAccess, oneEnterprise()), async (c) => {
      const deps = c.get('deps');
      const user = await callerUser(c);
      const enterpriseId = c.get('enterprise').id;
      const organizationId = c.req.valid('param').organizationId;
      const granted = await deps.store.tx(async (q) => {
        const [org] = await q.query(
          `SELECT 1 FROM enterprise_organizations eo JOIN organizations o ON o.id = eo.organization_id WHERE eo.enterprise_id = $1 AND eo.organization_id = $2 AND NOT o.deleted`,
          [enterpriseId, organizationId],
        );
        if (!org) throw notFound();
        // Already a member: the membership and its permissions stay as they are.
        const made = await q.query(
          `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version)
           VALUES ($1, $2, $3, $4, $4, next_row_version()) ON CONFLICT (organization_id, user_id) DO NOTHING RETURNING 1`,
          [organizationId, user.Id, JSON.stringify(enterpriseAccessPermissions(organizationId)), now(deps)],
        );
        return made.length > 0;
      });
      // The caller now reaches an organization it did not: a new session id.
      if (granted) await rotateSession(c);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.listEnterpriseUsers, oneEnterprise()), async (c) => {
      const query = c.req.valid('query');
      const page = pageOf(query);
      const rows = await c.get('deps').store.query<{ id: string; name: string; email: string; added_at_utc: Date | string }>(
        `SELECT u.id, u.name, u.email, eu.added_at_utc FROM enterprise_users eu JOIN users u ON u.id = eu.user_id
          WHERE eu.enterprise_id = $1 AND NOT u.deleted AND ($2::text IS NULL OR u.name ILIKE $2 OR u.email ILIKE $2)
          ORDER BY lower(u.name), u.id LIMIT $3 OFFSET $4`,
        [c.get('enterprise').id, filterOf(query.filter), page.pageSize + 1, page.offset],
      );
      return c.json(paged(rows.map((r) => ({ Id: r.id, Name: r.name, Email: r.email, AddedAtUtc: iso(r.added_at_utc) })), page), 200);
    })
    .openapi(guarded(routes.getSalesCodeOwner, enterpriseCaller()), async (c) => {
      const name = c.req.valid('param').salesCodeName;
      // Not a code at all names none: a 404, as a path parameter that names no row.
      if (!isSalesCode(name)) throw notFound();
      const user = await callerUser(c);
      const [row] = await c.get('deps').store.query<{ id: string; name: string; email: string; enterprise_id: string; enterprise_name: string; code: string; is_user: boolean }>(
        `SELECT u.id, u.name, u.email, e.id AS enterprise_id, e.name AS enterprise_name, s.name AS code,
                EXISTS (SELECT 1 FROM enterprise_users eu WHERE eu.enterprise_id = e.id AND eu.user_id = $2) AS is_user
           FROM sales_codes s JOIN enterprises e ON e.id = s.enterprise_id JOIN users u ON u.id = s.owner_user_id AND NOT u.deleted
          WHERE s.key = $1`,
        [salesCodeKey(name), user.Id],
      );
      if (!row || !seesEnterprise(userFacts(user), row.is_user)) throw notFound();
      return c.json({ Id: row.id, Name: row.name, Email: row.email, EnterpriseId: row.enterprise_id, EnterpriseName: row.enterprise_name, SalesCode: row.code }, 200);
    });
}
