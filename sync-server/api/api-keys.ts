// API keys (issue 31; specification section 7 "API keys"; the routes: src/protocol/api/api-keys.ts;
// the Bearer check and the table: auth.ts).
//
//   POST   /internal/api-keys ──403 (called with an API key) ──400 (Name) ──> 201 { …, Key }
//   GET    /internal/api-keys[/{apiKeyId}] ──> the caller's own live keys in this organization
//   DELETE /internal/api-keys/{apiKeyId} ──> 204, the key refused from then on (401)
//   another user's key, another organization's, a revoked one ──> 404, as one that does not exist
//
// A key belongs to the user who made it and to the organization it was made in: it acts as that
// user there, with the user's permissions as they are at each call. So these routes answer the
// caller's own keys only, whoever the caller is. An organization admin (HasManageUserAccess) sees
// and revokes no one else's keys here: a key is a credential of its user, like a password, and an
// admin who must cut a member off removes the membership or the permissions, which takes effect on
// that member's keys at their next call (auth.ts reads the memberships live). Listing other
// people's keys would show an admin nothing they could act on that way, and would tell anyone who
// took over an admin session which integrations exist to go after.
//
// A key cannot make a key: one leaked key could otherwise mint successors that outlive its own
// revocation, turning a revoke into a chase. Making a key needs the person, in a signed-in
// session (cookie and XSRF token). Listing and revoking with a key are allowed: they show no
// secret and only take power away.
//
// Revoked keys stay in the table (revoked, revoked_at_utc) so an old key presented again is a
// plain 401, never a key someone else now holds; they are not shown again.
import * as routes from '../../src/protocol/api/api-keys.ts';
import type { ApiKey } from '../../src/protocol/api/api-keys.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { ServerErrorCode } from '../../src/protocol/errors.ts';
import { createApiKey, getAuth } from '../auth.ts';
import { recordAudit } from '../audit/record.ts';
import { now } from '../app.ts';
import { AppError, fieldError, notFound } from '../errors.ts';
import { guard, readsOnly } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

type ApiKeyRow = { id: string; organization_id: string; name: string; created_at_utc: Date; last_used_at_utc: Date | null };

const COLUMNS = 'id, organization_id, name, created_at_utc, last_used_at_utc';
const iso = (d: Date) => new Date(d).toISOString();

function toWire(row: ApiKeyRow): ApiKey {
  return {
    Id: row.id,
    OrganizationId: row.organization_id,
    Name: row.name,
    CreatedAtUtc: iso(row.created_at_utc),
    LastUsedAtUtc: row.last_used_at_utc === null ? null : iso(row.last_used_at_utc),
  };
}

export function apiKeyRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listApiKeys, guard.member()), async (c) => {
      const { user, organizationId } = getAuth(c);
      const rows = await c.get('deps').store.query<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE user_id = $1 AND organization_id = $2 AND NOT revoked ORDER BY created_at_utc DESC, id`,
        [user.Id, organizationId],
      );
      return c.json(rows.map(toWire), 200);
    })
    .openapi(guarded(routes.getApiKey, guard.member()), async (c) => {
      const { user, organizationId } = getAuth(c);
      const [row] = await c.get('deps').store.query<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND user_id = $2 AND organization_id = $3 AND NOT revoked`,
        [c.req.valid('param').apiKeyId, user.Id, organizationId],
      );
      if (!row) throw notFound();
      return c.json(toWire(row), 200);
    })
    .openapi(guarded(routes.createApiKey, guard.member()), async (c) => {
      const deps = c.get('deps');
      const { user, organizationId, via } = getAuth(c);
      if (via === 'apiKey') {
        throw new AppError(403, { Errors: [fieldError('Authorization', formError('invalid', 'domain_api_key_by_key', undefined, ServerErrorCode.ApiKeyByKey))] });
      }
      const name = c.req.valid('json').Name.trim();
      const at = now(deps);
      const { id, key } = await createApiKey(deps.store, { organizationId, userId: user.Id, name, now: at });
      return c.json({ ...toWire({ id, organization_id: organizationId, name, created_at_utc: at, last_used_at_utc: null }), Key: key } satisfies routes.ApiKeyWithSecret, 201);
    })
    // Revoking only takes power away: not refused to an account whose address is not confirmed yet.
    .openapi(guarded(routes.revokeApiKey, readsOnly(guard.member())), async (c) => {
      const { user, organizationId } = getAuth(c);
      const apiKeyId = c.req.valid('param').apiKeyId;
      const at = now(c.get('deps'));
      await c.get('deps').store.tx(async (q) => {
        const revoked = await q.query(`UPDATE api_keys SET revoked = true, revoked_at_utc = $4 WHERE id = $1 AND user_id = $2 AND organization_id = $3 AND NOT revoked RETURNING 1`, [
          apiKeyId,
          user.Id,
          organizationId,
          at,
        ]);
        if (revoked.length === 0) throw notFound();
        await recordAudit(q, { organizationId, eventType: 'Revoked', objectType: 'ApiKey', objectId: apiKeyId, userId: user.Id, at });
      });
      return c.body(null, 204);
    });
}
