// Webhooks of the organization and of a network, and their delivery logs (issue 33; specification
// section 7 "Webhooks"). The rules are in src/domain/webhooks.ts; served by
// sync-server/api/webhooks.ts. Webhooks are server-held (their secrets sign what the server
// sends), so these are plain REST writes, not named mutations, and the secret is answered only by
// the create and by a rotation.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import {
  validateWebhookDescription,
  validateWebhookEventTypes,
  validateWebhookUrl,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_EVENT_STATUSES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LOG_EVENT_TYPES,
  WEBHOOK_LOG_KEPT,
  WEBHOOK_SECRET_PREFIX,
} from '../../domain/webhooks.ts';
import type { DomainIssueParams } from './common.ts';
import { checkedString, enumListQuery, errors, idParams, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, writeErrors } from './common.ts';

const tags = ['Webhooks'];

export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });
export const WebhookLogEventType = z.enum(WEBHOOK_LOG_EVENT_TYPES).meta({ id: 'WebhookLogEventType', description: 'An event type, or WebhookTest (send test event)' });
export const WebhookEventStatus = z.enum(WEBHOOK_EVENT_STATUSES).meta({ id: 'WebhookEventStatus' });

export const Webhook = z
  .object({
    Id: z.uuid(),
    OrganizationId: z.uuid(),
    /** null: the organization's webhook (every change of it); else only the network's own changes
     * and those of its programs and their clips, playlists and recordings. */
    NetworkId: z.uuid().nullable(),
    Url: z.string(),
    Description: z.string().nullable(),
    EventTypes: z.array(WebhookEventType),
    Enabled: z.boolean(),
    /** Failing: its deliveries failed without a success for a day, so the server turned it off. */
    DisabledReason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
    DisabledAtUtc: z.string().nullable(),
    /** Since when its deliveries have failed without a success (null: the last one succeeded). */
    FailingSinceUtc: z.string().nullable(),
    LastDeliveryAtUtc: z.string().nullable(),
    LastResponseStatus: z.number().int().nullable(),
    CreatedAtUtc: z.string(),
    ModifiedAtUtc: z.string(),
  })
  .meta({ id: 'Webhook', description: 'An endpoint told of changes (its secret is never shown again after the create or a rotation)' });
export type Webhook = z.infer<typeof Webhook>;

export const WebhookSecret = z
  .object({ Secret: z.string().meta({ description: `${WEBHOOK_SECRET_PREFIX} and the base64 of the key's bytes (Standard Webhooks)` }) })
  .meta({ id: 'WebhookSecret', description: 'The signing secret: shown this once' });
export type WebhookSecret = z.infer<typeof WebhookSecret>;

export const WebhookWithSecret = Webhook.extend(WebhookSecret.shape).meta({ id: 'WebhookWithSecret', description: 'The new webhook, with its signing secret (shown this once)' });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

export const WebhookEvent = z
  .object({
    /** The event's id: the webhook-id header and the body's id, the same on every attempt and re-send (receivers deduplicate by it). */
    Id: z.uuid(),
    WebhookId: z.uuid(),
    EventType: WebhookLogEventType,
    /** The row the event is about (null for WebhookTest). */
    EntityId: z.uuid().nullable(),
    Status: WebhookEventStatus,
    Attempts: z.number().int(),
    CreatedAtUtc: z.string(),
    LastAttemptAtUtc: z.string().nullable(),
    /** When it will be tried next (Pending and Retrying), else null. */
    NextAttemptAtUtc: z.string().nullable(),
    /** The JSON text sent. */
    RequestBody: z.string(),
    ResponseStatus: z.number().int().nullable(),
    /** The start of the receiver's answer (4 KB at most). */
    ResponseBody: z.string().nullable(),
    /** Why the last attempt failed when no answer came: a refused target, a timeout, a connection refused. */
    Error: z.string().nullable(),
    DurationMs: z.number().nullable(),
  })
  .meta({ id: 'WebhookEvent', description: 'A delivery of one event to one webhook, as its log keeps it' });
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** A target URL (the server checks it again: its loopback setting, and IP literals in refused ranges). */
const Url = checkedString((v) => validateWebhookUrl(v, { allowLoopback: true })).meta({
  description: 'An absolute https URL without credentials, to a public host (http to loopback only where the server allows it for development)',
});
const Description = checkedString(validateWebhookDescription).nullable();
const EventTypes = z.array(WebhookEventType).superRefine((value, ctx) => {
  const error = validateWebhookEventTypes(value);
  if (error) ctx.addIssue({ code: 'custom', message: error.type, params: { formError: error } satisfies DomainIssueParams });
});

export const WebhookCreate = z
  .object({ Url, Description: Description.optional(), EventTypes, Enabled: z.boolean().optional() })
  .strict()
  .meta({ id: 'WebhookCreate' });
export type WebhookCreate = z.infer<typeof WebhookCreate>;
export const WebhookPatch = z
  .object({ Url: Url.optional(), Description: Description.optional(), EventTypes: EventTypes.optional(), Enabled: z.boolean().optional() })
  .strict()
  .meta({ id: 'WebhookPatch', description: 'Enabled true on a disabled webhook turns it on again (FailingSinceUtc cleared); it hears of changes from then on' });
export type WebhookPatch = z.infer<typeof WebhookPatch>;

const WebhookParams = idParams('webhookId');
const NetworkParams = idParams('networkId');
const NetworkWebhookParams = idParams('networkId', 'webhookId');

export const WebhookEventsQuery = z.object({
  ...PagingQuery,
  eventType: enumListQuery(WEBHOOK_LOG_EVENT_TYPES),
  status: enumListQuery(WEBHOOK_EVENT_STATUSES),
});

const organizationAccess =
  'Read: HasAuditAccess or HasManageOrganizationSettingsAccess at organization scope; write: HasManageOrganizationSettingsAccess at organization scope';
const networkAccess =
  'Read: HasAuditAccess or HasManageOrganizationSettingsAccess at organization scope, or HasManageSettingsAccess on the network; write: HasManageOrganizationSettingsAccess at organization scope or HasManageSettingsAccess on the network. A network the caller does not see is a 404';
const anyWebhookAccess = `A webhook of the organization: as ${organizationAccess.charAt(0).toLowerCase()}${organizationAccess.slice(1)}. A network's webhook: as for /v1/networks/{networkId}/webhooks. Any other (another organization's, a network one does not see) is a 404 with no body`;
const urlNote = 'A URL that is not https, carries credentials, or names a loopback, private, link-local or metadata address is a 400 at Url (Params.reason: scheme, credentials, loopback, private); a name that resolves to such an address is refused when delivering';
const logNote = `The last ${WEBHOOK_LOG_KEPT} deliveries, newest first. eventType and status: comma-joined values to keep.`;

// ── The organization's webhooks ────────────────────────────────────────────────────────────────
export const listWebhooks = {
  method: 'get',
  path: '/v1/webhooks',
  tags,
  summary: 'The organization’s webhooks (not the networks’), oldest first',
  description: organizationAccess,
  request: { query: z.object(PagingQuery) },
  responses: { 200: jsonContent(PagedOf(Webhook), 'A page of webhooks'), ...errors },
} as const satisfies RouteConfig;

export const createWebhook = {
  method: 'post',
  path: '/v1/webhooks',
  tags,
  summary: 'Adds a webhook told of every change of the organization (answered with its secret, this once)',
  description: `${organizationAccess}. ${urlNote}. It hears of changes committed after it was made.`,
  request: { body: jsonBody(WebhookCreate) },
  responses: { 201: jsonContent(WebhookWithSecret, 'The new webhook and its secret'), ...writeErrors },
} as const satisfies RouteConfig;

export const getWebhook = {
  method: 'get',
  path: '/v1/webhooks/{webhookId}',
  tags,
  summary: 'A webhook (of the organization or of a network)',
  description: anyWebhookAccess,
  request: { params: WebhookParams },
  responses: { 200: jsonContent(Webhook, 'The webhook'), ...errors },
} as const satisfies RouteConfig;

export const updateWebhook = {
  method: 'patch',
  path: '/v1/webhooks/{webhookId}',
  tags,
  summary: 'Changes a webhook: URL, description, event types, on or off',
  description: `${anyWebhookAccess}. ${urlNote}.`,
  request: { params: WebhookParams, body: jsonBody(WebhookPatch) },
  responses: { 200: jsonContent(Webhook, 'The webhook after the change'), ...writeErrors },
} as const satisfies RouteConfig;

export const deleteWebhook = {
  method: 'delete',
  path: '/v1/webhooks/{webhookId}',
  tags,
  summary: 'Removes a webhook and its log: nothing more is sent to it',
  description: anyWebhookAccess,
  request: { params: WebhookParams },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const listWebhookEvents = {
  method: 'get',
  path: '/v1/webhooks/{webhookId}/events',
  tags,
  summary: 'A webhook’s delivery log',
  description: `${anyWebhookAccess} (read). ${logNote}`,
  request: { params: WebhookParams, query: WebhookEventsQuery },
  responses: { 200: jsonContent(PagedOf(WebhookEvent), 'A page of deliveries'), ...errors },
} as const satisfies RouteConfig;

export const resendWebhookEvent = {
  method: 'put',
  path: '/v1/webhooks/{webhookId}/events/{webhookEventId}',
  tags,
  summary: 'Sends an event again: the same id and body, one more attempt in its log entry',
  description: `${anyWebhookAccess} (write). A delivery still waiting for a retry is tried now; one that succeeded or failed is tried once more. Sent even while the webhook is disabled.`,
  request: { params: idParams('webhookId', 'webhookEventId') },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

// ── A network's webhooks ───────────────────────────────────────────────────────────────────────
export const listNetworkWebhooks = {
  method: 'get',
  path: '/v1/networks/{networkId}/webhooks',
  tags,
  summary: 'The network’s webhooks, oldest first',
  description: networkAccess,
  request: { params: NetworkParams, query: z.object(PagingQuery) },
  responses: { 200: jsonContent(PagedOf(Webhook), 'A page of webhooks'), ...errors },
} as const satisfies RouteConfig;

export const createNetworkWebhook = {
  method: 'post',
  path: '/v1/networks/{networkId}/webhooks',
  tags,
  summary: 'Adds a webhook told of the network’s changes: its own, its programs’, and their clips’, playlists’ and recordings’ (answered with its secret, this once)',
  description: `${networkAccess}. ${urlNote}. It hears of changes committed after it was made.`,
  request: { params: NetworkParams, body: jsonBody(WebhookCreate) },
  responses: { 201: jsonContent(WebhookWithSecret, 'The new webhook and its secret'), ...writeErrors },
} as const satisfies RouteConfig;

export const getNetworkWebhook = {
  method: 'get',
  path: '/v1/networks/{networkId}/webhooks/{webhookId}',
  tags,
  summary: 'A webhook of the network',
  description: `${networkAccess}; a webhook that is not the network’s is a 404.`,
  request: { params: NetworkWebhookParams },
  responses: { 200: jsonContent(Webhook, 'The webhook'), ...errors },
} as const satisfies RouteConfig;

export const updateNetworkWebhook = {
  method: 'patch',
  path: '/v1/networks/{networkId}/webhooks/{webhookId}',
  tags,
  summary: 'Changes a webhook of the network',
  description: `${networkAccess}; a webhook that is not the network’s is a 404. ${urlNote}.`,
  request: { params: NetworkWebhookParams, body: jsonBody(WebhookPatch) },
  responses: { 200: jsonContent(Webhook, 'The webhook after the change'), ...writeErrors },
} as const satisfies RouteConfig;

export const deleteNetworkWebhook = {
  method: 'delete',
  path: '/v1/networks/{networkId}/webhooks/{webhookId}',
  tags,
  summary: 'Removes a webhook of the network and its log',
  description: `${networkAccess}; a webhook that is not the network’s is a 404.`,
  request: { params: NetworkWebhookParams },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const listNetworkWebhookEvents = {
  method: 'get',
  path: '/v1/networks/{networkId}/webhooks/{webhookId}/events',
  tags,
  summary: 'A network webhook’s delivery log',
  description: `${networkAccess} (read); a webhook that is not the network’s is a 404. ${logNote}`,
  request: { params: NetworkWebhookParams, query: WebhookEventsQuery },
  responses: { 200: jsonContent(PagedOf(WebhookEvent), 'A page of deliveries'), ...errors },
} as const satisfies RouteConfig;

// ── Not in the specification's list: the secret and the test button ───────────────────────────
export const rotateWebhookSecret = {
  method: 'post',
  path: '/internal/webhooks/{webhookId}/secret',
  tags,
  summary: 'Gives the webhook a new secret (answered this once); the old one also signs for 24 hours',
  description: `${anyWebhookAccess} (write). Each delivery carries a signature per secret in use, space-separated, as Standard Webhooks provides for.`,
  request: { params: WebhookParams },
  responses: { 200: jsonContent(WebhookSecret, 'The new secret'), ...errors },
} as const satisfies RouteConfig;

export const sendWebhookTest = {
  method: 'post',
  path: '/internal/webhooks/{webhookId}/test',
  tags,
  summary: 'Queues a WebhookTest event to the webhook (send test event)',
  description: `${anyWebhookAccess} (write). Sent after the deliveries already queued, even while the webhook is disabled; its log entry tells how it went.`,
  request: { params: WebhookParams },
  responses: { 202: jsonContent(WebhookEvent, 'The queued delivery'), ...errors },
} as const satisfies RouteConfig;
