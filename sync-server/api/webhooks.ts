// Webhooks of the organization and of its networks, their delivery logs, re-sends, secrets and
// test events (src/protocol/api/webhooks.ts; rules: src/domain/webhooks.ts; the machinery:
// sync-server/webhooks). Server-held rows edited online only: plain REST writes.
//
// Who (src/domain/webhookAccess): the organization's webhooks are read with HasAuditAccess or
// HasManageOrganizationSettingsAccess at organization scope and changed with the latter; a
// network's also with HasManageSettingsAccess on the network. A webhook is found in the caller's
// organization only, and a network's only when the caller sees the network: anything else is a
// 404 with no body, as a webhook that does not exist; one the caller sees but may not change, 403.
import type { Context, MiddlewareHandler } from 'hono';
import * as routes from '../../src/protocol/api/webhooks.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import { networkFlags } from '../../src/domain/access.ts';
import { isGuid } from '../../src/domain/validators.ts';
import { validateWebhookUrl, webhookAccess } from '../../src/domain/webhooks.ts';
import { getAuth, requireSession, type Auth } from '../auth.ts';
import { badRequest, fieldError, forbidden, notFound } from '../errors.ts';
import { now } from '../app.ts';
import { orgFlags, seesNetwork } from '../mutations/store.ts';
import { loadRow } from '../rows.ts';
import { refusedAddress } from '../net/outbound.ts';
import type { Queryable } from '../store/store.ts';
import {
  insertWebhook,
  loadWebhook,
  queueTestEvent,
  resendEvent,
  rotateSecret,
  toWebhook,
  toWebhookEvent,
  updateWebhook,
  type WebhookEventRow,
  type WebhookRow,
  type WebhookSettings,
} from '../webhooks/webhooks.ts';
import { paged, type Page } from './lists.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, type Access } from './guard.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** The webhook a /v1/webhooks/{webhookId} route touches (webhookGuard). */
    webhook: WebhookRow;
  }
}

type Need = 'read' | 'write';

const allowed = (auth: Auth, networkId: string | null, need: Need) => webhookAccess(orgFlags(auth), networkId === null ? null : networkFlags(auth.permissions, networkId))[need];

const describeNeed = (need: Need, network: boolean) =>
  need === 'read'
    ? `HasAuditAccess or HasManageOrganizationSettingsAccess at organization scope${network ? ', or HasManageSettingsAccess on the network' : ''}`
    : `HasManageOrganizationSettingsAccess at organization scope${network ? ', or HasManageSettingsAccess on the network' : ''}`;

/** The organization's webhooks (403 without the flags). */
function organizationGuard(need: Need): Access {
  const check: MiddlewareHandler = async (c, next) => {
    if (!allowed(getAuth(c), null, need)) throw forbidden();
    await next();
  };
  return { middleware: [requireSession, check], describe: `A member with ${describeNeed(need, false)}` };
}

/** The network in the path, seen by the caller (else 404), and its webhooks (403 without the flags);
 * with `webhookParam`, a webhook of that network (else 404). */
function networkGuard(need: Need, webhookParam?: string): Access {
  const network = guard.network('networkId');
  const check: MiddlewareHandler = async (c, next) => {
    const auth = getAuth(c);
    const networkId = c.var.row.Id;
    if (webhookParam !== undefined) {
      const id = c.req.param(webhookParam);
      const hook = id && isGuid(id) ? await loadWebhook(c.get('deps').store, auth.organizationId, id.toLowerCase()) : null;
      if (!hook || hook.network_id !== networkId) throw notFound();
      c.set('webhook', hook);
    }
    if (!allowed(auth, networkId, need)) throw forbidden();
    await next();
  };
  return { middleware: [...network.middleware, check], describe: `A member who sees the network, with ${describeNeed(need, true)}` };
}

/** The webhook in the path, of the organization or of a network the caller sees (else 404). */
function webhookGuard(need: Need): Access {
  const check: MiddlewareHandler = async (c, next) => {
    const auth = getAuth(c);
    const { store } = c.get('deps');
    const id = c.req.param('webhookId');
    const hook = id && isGuid(id) ? await loadWebhook(store, auth.organizationId, id.toLowerCase()) : null;
    if (!hook) throw notFound();
    if (hook.network_id !== null) {
      const network = await loadRow(store, 'network', auth.organizationId, hook.network_id);
      if (!network || network.Deleted || !(await seesNetwork(store, auth, hook.network_id))) throw notFound();
    }
    if (!allowed(auth, hook.network_id, need)) throw forbidden();
    c.set('webhook', hook);
    await next();
  };
  return {
    middleware: [requireSession, check],
    describe: `A member with ${describeNeed(need, false)}; for a network’s webhook, one who sees the network, with ${describeNeed(need, true)}`,
  };
}

export function webhookRoutes(settings: WebhookSettings) {
  /** The server's own check of a target (its loopback setting, IP literals in refused ranges). */
  const checkUrl = (url: string | undefined) => {
    if (url === undefined) return;
    const error = validateWebhookUrl(url, { allowLoopback: settings.allowLoopback, refusedAddress: (host) => refusedAddress(host, settings) });
    if (error) throw badRequest([fieldError('Url', error)]);
  };
  const description = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() ? value.trim() : null);

  const list = async (store: Queryable, organizationId: string, networkId: string | null, page: Page) => {
    const rows = await store.query<WebhookRow>(
      `SELECT * FROM webhooks WHERE organization_id = $1 AND network_id IS NOT DISTINCT FROM $2::uuid
       ORDER BY created_at_utc, id LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`,
      [organizationId, networkId],
    );
    return paged(rows.map(toWebhook), page);
  };

  const events = async (store: Queryable, webhookId: string, query: { eventType?: string[] | undefined; status?: string[] | undefined } & Page) => {
    const eventTypes = query.eventType && query.eventType.length > 0 ? query.eventType : null;
    const statuses = query.status && query.status.length > 0 ? query.status : null;
    const rows = await store.query<WebhookEventRow>(
      `SELECT * FROM webhook_events WHERE webhook_id = $1 AND ($2::text[] IS NULL OR event_type = ANY($2::text[])) AND ($3::text[] IS NULL OR status = ANY($3::text[]))
       ORDER BY seq DESC LIMIT ${query.pageSize + 1} OFFSET ${query.offset}`,
      [webhookId, eventTypes, statuses],
    );
    return paged(rows.map(toWebhookEvent), query);
  };

  const create = async (c: Context, networkId: string | null, body: routes.WebhookCreate) => {
    checkUrl(body.Url);
    const auth = getAuth(c);
    const row = await insertWebhook(c.get('deps').store, {
      organizationId: auth.organizationId,
      networkId,
      url: body.Url,
      description: description(body.Description) ?? null,
      eventTypes: body.EventTypes,
      enabled: body.Enabled ?? true,
      createdById: auth.user.Id,
      at: now(c.get('deps')),
    }, settings.sweepMs);
    return { ...toWebhook(row), Secret: row.secret };
  };

  const patch = async (c: Context, body: routes.WebhookPatch) => {
    checkUrl(body.Url);
    const changes = {
      ...(body.Url !== undefined ? { url: body.Url } : {}),
      ...(body.Description !== undefined ? { description: description(body.Description) ?? null } : {}),
      ...(body.EventTypes !== undefined ? { eventTypes: body.EventTypes } : {}),
      ...(body.Enabled !== undefined ? { enabled: body.Enabled } : {}),
    };
    return toWebhook(await updateWebhook(c.get('deps').store, c.var.webhook, changes, now(c.get('deps'))));
  };

  const remove = async (c: Context) => {
    await c.get('deps').store.query(`DELETE FROM webhooks WHERE id = $1`, [c.var.webhook.id]);
  };

  return (
    resourceApp()
      // The organization's
      .openapi(guarded(routes.listWebhooks, organizationGuard('read')), async (c) =>
        c.json(await list(c.get('deps').store, getAuth(c).organizationId, null, pageOf(c.req.valid('query'))), 200),
      )
      .openapi(guarded(routes.createWebhook, organizationGuard('write')), async (c) => c.json(await create(c, null, c.req.valid('json')), 201))
      .openapi(guarded(routes.getWebhook, webhookGuard('read')), async (c) => c.json(toWebhook(c.var.webhook), 200))
      .openapi(guarded(routes.updateWebhook, webhookGuard('write')), async (c) => c.json(await patch(c, c.req.valid('json')), 200))
      .openapi(guarded(routes.deleteWebhook, webhookGuard('write')), async (c) => {
        await remove(c);
        return c.body(null, 204);
      })
      .openapi(guarded(routes.listWebhookEvents, webhookGuard('read')), async (c) => {
        const query = c.req.valid('query');
        return c.json(await events(c.get('deps').store, c.var.webhook.id, { ...query, ...pageOf(query) }), 200);
      })
      .openapi(guarded(routes.resendWebhookEvent, webhookGuard('write')), async (c) => {
        const { webhookEventId } = c.req.valid('param');
        if (!(await resendEvent(c.get('deps').store, c.var.webhook, webhookEventId, now(c.get('deps'))))) throw notFound();
        return c.body(null, 204);
      })
      // A network's
      .openapi(guarded(routes.listNetworkWebhooks, networkGuard('read')), async (c) =>
        c.json(await list(c.get('deps').store, getAuth(c).organizationId, c.var.row.Id, pageOf(c.req.valid('query'))), 200),
      )
      .openapi(guarded(routes.createNetworkWebhook, networkGuard('write')), async (c) => c.json(await create(c, c.var.row.Id, c.req.valid('json')), 201))
      .openapi(guarded(routes.getNetworkWebhook, networkGuard('read', 'webhookId')), async (c) => c.json(toWebhook(c.var.webhook), 200))
      .openapi(guarded(routes.updateNetworkWebhook, networkGuard('write', 'webhookId')), async (c) => c.json(await patch(c, c.req.valid('json')), 200))
      .openapi(guarded(routes.deleteNetworkWebhook, networkGuard('write', 'webhookId')), async (c) => {
        await remove(c);
        return c.body(null, 204);
      })
      .openapi(guarded(routes.listNetworkWebhookEvents, networkGuard('read', 'webhookId')), async (c) => {
        const query = c.req.valid('query');
        return c.json(await events(c.get('deps').store, c.var.webhook.id, { ...query, ...pageOf(query) }), 200);
      })
      // The secret and the test button
      .openapi(guarded(routes.rotateWebhookSecret, webhookGuard('write')), async (c) =>
        c.json({ Secret: await rotateSecret(c.get('deps').store, c.var.webhook, now(c.get('deps'))) }, 200),
      )
      .openapi(guarded(routes.sendWebhookTest, webhookGuard('write')), async (c) =>
        c.json(toWebhookEvent(await queueTestEvent(c.get('deps').store, c.var.webhook, now(c.get('deps')))), 202),
      )
  );
}
