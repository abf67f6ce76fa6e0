// The organization's users and their permission entries (section 6).
import { recordAudit, recordPermissionChange } from '../audit/record.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import * as routes from '../../src/protocol/api/users.ts';
import { holdsAny, missingFlags, networkFlags } from '../../src/domain/access.ts';
import { withObjectEntry, type PermissionEntry, type PermissionFlagName, type PermissionFlags } from '../../src/domain/permissions.ts';
import type { Context } from 'hono';
import { mayBeGivenAccess, permissionChangeError, removalError, type AccessObject } from '../../src/domain/users.ts';
import { getAuth, rotateSession, userToWire, type Auth, type UserRow } from '../auth.ts';
import { assertValid, forbidden, notFound } from '../errors.ts';
import { flagsForProgram, orgFlags } from '../mutations/store.ts';
import { now } from '../app.ts';
import type { Queryable } from '../store/store.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';
import { paged, type Page } from './lists.ts';
import { assertEntriesValid, normalizeEntries } from './permission-entries.ts';

// Whether two-factor sign-in is on: those who manage users see it, to reset it for a member who lost their device.
const MEMBERS = `SELECT u.*, m.permissions, EXISTS (SELECT 1 FROM user_mfa f WHERE f.user_id = u.id AND f.enabled_at_utc IS NOT NULL) AS mfa_enabled
  FROM users u JOIN memberships m ON m.user_id = u.id AND m.organization_id = $1`;
type MemberRow = UserRow & { permissions: PermissionEntry[]; mfa_enabled: boolean };
const memberToWire = (r: MemberRow) => ({ ...userToWire(r), Permissions: r.permissions, MfaEnabled: r.mfa_enabled });

/** Members whose entries pass `has`, optionally filtered by name or e-mail (by name), the page asked for. */
async function membersWhere<T>(q: Queryable, auth: Auth, page: Page, filter: string, has: (entries: PermissionEntry[]) => boolean, toWire: (row: MemberRow) => T) {
  const rows = await q.query<MemberRow>(
    `${MEMBERS} WHERE NOT u.deleted AND ($2 = '' OR strpos(lower(u.name), $2) > 0 OR strpos(lower(u.email), $2) > 0) ORDER BY u.name, u.id`,
    [auth.organizationId, filter.trim().toLowerCase()],
  );
  const matching = rows.filter((r) => has(r.permissions)).map(toWire);
  return paged(matching.slice(page.offset, page.offset + page.pageSize + 1), page);
}

const usersWithAccess = (q: Queryable, auth: Auth, page: Page, filter: string, has: (entries: PermissionEntry[]) => boolean) => membersWhere(q, auth, page, filter, has, memberToWire);

/** The members the object's user manager could give access to it (src/domain/users.ts mayBeGivenAccess). */
const eligibleFor = (c: Context, query: { filter?: string | undefined; page?: number | undefined; pageSize?: number | undefined }, object: AccessObject) =>
  membersWhere(c.get('deps').store, getAuth(c), pageOf(query), query.filter ?? '', (entries) => mayBeGivenAccess(entries, object), (r) => ({
    Id: r.id,
    Name: r.name,
    FirstName: r.first_name,
    Email: r.email,
    ImageUrl: r.image_url,
  }));

/** The flags asked for, when the caller holds each of them where they are given (403 otherwise):
 * a network's or program's user manager hands out only what they have there. */
function grantable(held: PermissionFlags, asked: Partial<Record<PermissionFlagName, boolean | undefined>>): Partial<PermissionFlags> {
  const on = (Object.keys(asked) as PermissionFlagName[]).filter((f) => asked[f] === true);
  if (missingFlags(held, on).length > 0) throw forbidden();
  return Object.fromEntries(on.map((f) => [f, true]));
}

/**
 * Writes a member's entries as `next` makes them from the stored ones (the row locked), after
 * section 6's rules and this organization's objects; announces the change after commit. Callers
 * who changed their own permissions get a new session id (another user's permissions are read
 * afresh at each of their requests: nothing of theirs is cached).
 */
async function storeEntries(c: Context, userId: string, next: (current: PermissionEntry[]) => PermissionEntry[]): Promise<PermissionEntry[]> {
  const deps = c.get('deps');
  const auth = getAuth(c);
  const { entries, version } = await deps.store.tx(async (q) => {
    // Every membership of the organization, locked (as a removal does): two managers demoting each
    // other at once must not both pass the last-manager check.
    const members = await q.query<{ user_id: string; permissions: PermissionEntry[] }>(`SELECT user_id, permissions FROM memberships WHERE organization_id = $1 ORDER BY user_id FOR UPDATE`, [auth.organizationId]);
    const member = members.find((m) => m.user_id === userId);
    if (!member) throw notFound();
    const entries = next(member.permissions);
    await assertEntriesValid(q, auth.organizationId, entries, 'body');
    assertValid([['body', permissionChangeError({ Id: userId, Permissions: member.permissions }, entries, members.map((m) => ({ Id: m.user_id, Permissions: m.permissions })))]]);
    const [row] = await q.query<{ version: number | string }>(
      `UPDATE memberships SET permissions = $3, modified_at_utc = $4, version = next_row_version() WHERE organization_id = $1 AND user_id = $2 RETURNING version`,
      [auth.organizationId, userId, JSON.stringify(entries), now(deps)],
    );
    await recordPermissionChange(q, { organizationId: auth.organizationId, userId: auth.user.Id, objectId: userId, at: now(deps), entries });
    return { entries, version: Number(row!.version) };
  });
  deps.bus.publish({ organizationId: auth.organizationId, version });
  if (userId === auth.user.Id) await rotateSession(c);
  return entries;
}

export function userRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listUsers, guard.organization('HasManageUserAccess')), async (c) => {
      const page = pageOf(c.req.valid('query'));
      const rows = await c.get('deps').store.query<MemberRow>(
        `${MEMBERS} WHERE NOT u.deleted ORDER BY u.name, u.id LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`,
        [getAuth(c).organizationId],
      );
      return c.json(paged(rows.map(memberToWire), page), 200);
    })
    .openapi(guarded(routes.getUser, guard.member()), async (c) => {
      const auth = getAuth(c);
      const { userId } = c.req.valid('param');
      const [row] = await c.get('deps').store.query<MemberRow>(`${MEMBERS} WHERE u.id = $2 AND NOT u.deleted`, [auth.organizationId, userId]);
      if (!row) throw notFound();
      if (userId !== auth.user.Id && missingFlags(orgFlags(auth), ['HasManageUserAccess']).length > 0) throw forbidden();
      return c.json(memberToWire(row), 200);
    })
    .openapi(guarded(routes.listUserProfiles, guard.member()), async (c) => {
      const ids = c.req.valid('query').userIds ?? [];
      const rows = await c.get('deps').store.query<UserRow>(
        `SELECT u.* FROM users u JOIN memberships m ON m.user_id = u.id AND m.organization_id = $1 WHERE u.id = ANY($2::uuid[]) AND NOT u.deleted ORDER BY u.name, u.id`,
        [getAuth(c).organizationId, ids],
      );
      return c.json({ Items: rows.map((r) => ({ Id: r.id, Name: r.name, FirstName: r.first_name, ImageUrl: r.image_url })) }, 200);
    })
    .openapi(guarded(routes.listNetworkUsers, guard.network('networkId', { network: ['HasManageUserAccess'] })), async (c) => {
      const query = c.req.valid('query');
      const networkId = c.var.row.Id;
      return c.json(await usersWithAccess(c.get('deps').store, getAuth(c), pageOf(query), query.filter ?? '', (entries) => holdsAny(networkFlags(entries, networkId))), 200);
    })
    .openapi(guarded(routes.listProgramUsers, guard.program('programId', 'HasManageUserAccess')), async (c) => {
      const query = c.req.valid('query');
      const program = c.var.program;
      return c.json(
        await usersWithAccess(c.get('deps').store, getAuth(c), pageOf(query), query.filter ?? '', (entries) => holdsAny(flagsForProgram({ ...getAuth(c), permissions: entries }, program))),
        200,
      );
    })
    .openapi(guarded(routes.listNetworkEligibleProfiles, guard.network('networkId', { network: ['HasManageUserAccess'] })), async (c) =>
      c.json(await eligibleFor(c, c.req.valid('query'), { kind: 'network', networkId: c.var.row.Id }), 200),
    )
    .openapi(guarded(routes.listProgramEligibleProfiles, guard.program('programId', 'HasManageUserAccess')), async (c) =>
      c.json(await eligibleFor(c, c.req.valid('query'), { kind: 'program', programId: c.var.program.id, networkId: c.var.program.network_id }), 200),
    )
    .openapi(guarded(routes.setUserPermissions, guard.organization('HasManageUserAccess')), async (c) => {
      const entries = normalizeEntries(c.req.valid('json'));
      return c.json(await storeEntries(c, c.req.valid('param').userId, () => entries), 200);
    })
    .openapi(guarded(routes.setNetworkUserPermissions, guard.network('networkId', { network: ['HasManageUserAccess'] })), async (c) => {
      const { networkId, userId } = c.req.valid('param');
      const flags = grantable(networkFlags(getAuth(c).permissions, networkId), c.req.valid('json'));
      return c.json(await storeEntries(c, userId, (current) => withObjectEntry(current, 'Network', networkId.toLowerCase(), flags)), 200);
    })
    .openapi(guarded(routes.setProgramUserPermissions, guard.program('programId', 'HasManageUserAccess')), async (c) => {
      const { userId } = c.req.valid('param');
      const program = c.var.program;
      const flags = grantable(flagsForProgram(getAuth(c), program), c.req.valid('json'));
      return c.json(await storeEntries(c, userId, (current) => withObjectEntry(current, 'Program', program.id, flags)), 200);
    })
    .openapi(guarded(routes.removeUser, guard.organization('HasManageUserAccess')), async (c) => {
      const deps = c.get('deps');
      const auth = getAuth(c);
      const { userId } = c.req.valid('param');
      const version = await deps.store.tx(async (q) => {
        // Every membership of the organization, locked: two managers removing each other at once
        // must not both pass the last-manager check.
        const members = await q.query<{ user_id: string; permissions: PermissionEntry[] }>(
          `SELECT user_id, permissions FROM memberships WHERE organization_id = $1 ORDER BY user_id FOR UPDATE`,
          [auth.organizationId],
        );
        const all = members.map((m) => ({ Id: m.user_id, Permissions: m.permissions }));
        const target = all.find((m) => m.Id === userId);
        if (!target) throw notFound();
        assertValid([['userId', removalError(auth.user.Id, target, all)]]);
        await q.query(`DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2`, [auth.organizationId, userId]);
        await recordAudit(q, { organizationId: auth.organizationId, eventType: 'Removed', objectType: 'User', objectId: userId, userId: auth.user.Id, at: now(deps) });
        const [row] = await q.query<{ version: number | string }>(`SELECT next_row_version() AS version`);
        return Number(row!.version);
      });
      // The removed user's next request finds no membership (access is read afresh each time);
      // the others' lists learn of it at their next pull.
      deps.bus.publish({ organizationId: auth.organizationId, version });
      return c.body(null, 204);
    });
}
