// Webhooks (issue 33; specification section 7 "Webhooks"): the rules the server and the studio
// share. A webhook is an https endpoint of the organization (or of one network) that is told of
// changes to clips, programs, playlists, networks and recordings, in the manner of Standard
// Webhooks (https://www.standardwebhooks.com): a JSON body with an id and a timestamp, signed with
// HMAC-SHA256 over "{id}.{timestamp}.{body}" with the webhook's own secret.
//
// One delivery (a log entry, WebhookEvent) of one webhook:
//
//   Pending ──2xx──> Succeeded
//     │
//     └─anything else──> Retrying ──after WEBHOOK_RETRY_SCHEDULE_MS[n]──> (attempt again) ──2xx──> Succeeded
//                          └─ the schedule ran out (about a day) ──> Failed
//   Succeeded / Failed ──re-send──> Pending (one attempt: Succeeded or Failed)
//
// A webhook's deliveries go one at a time in the order of its events, so a receiver sees the
// changes of one row in the order they were made: a Retrying event holds the later ones back until
// it succeeds or fails for good. A webhook whose deliveries have failed without a success for
// WEBHOOK_DISABLE_AFTER_MS is disabled (DisabledReason 'Failing'); enabling it again starts afresh.
import { formError, type DomainMessageKey, type FormError } from './form-errors.ts';
import { URL_MAX_LENGTH } from './constants.ts';

/** The rows a webhook hears of, by their kind's name (src/protocol/entity-kinds.ts). Annotations
 * are not among them: they are notes on a recording, not something published. */
export const WEBHOOK_ENTITIES = ['clip', 'program', 'playlist', 'network', 'recording'] as const;
export type WebhookEntity = (typeof WEBHOOK_ENTITIES)[number];

const ENTITY_NAME: Record<WebhookEntity, string> = { clip: 'Clip', program: 'Program', playlist: 'Playlist', network: 'Network', recording: 'Recording' };
export type WebhookChange = 'Created' | 'Updated' | 'Deleted';

/** Every event type a webhook may ask for: Created, Updated and Deleted of each kind, then the two
 * changes of a clip that publishing cares about. */
export const WEBHOOK_EVENT_TYPES = [
  'ClipCreated',
  'ClipUpdated',
  'ClipDeleted',
  'ProgramCreated',
  'ProgramUpdated',
  'ProgramDeleted',
  'PlaylistCreated',
  'PlaylistUpdated',
  'PlaylistDeleted',
  'NetworkCreated',
  'NetworkUpdated',
  'NetworkDeleted',
  'RecordingCreated',
  'RecordingUpdated',
  'RecordingDeleted',
  'ClipVisibilityChanged',
  'PublishStateChanged',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event of 'send test event': never asked for, sent on demand. */
export const WEBHOOK_TEST_EVENT = 'WebhookTest' as const;
/** What a delivery log entry may be of. */
export const WEBHOOK_LOG_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type WebhookLogEventType = (typeof WEBHOOK_LOG_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_STATUSES = ['Pending', 'Retrying', 'Succeeded', 'Failed'] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

/** Why a webhook is off: its deliveries failed for a day ('Failing'), or someone turned it off. */
export const WEBHOOK_DISABLED_REASONS = ['Failing', 'User'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/** The event type of a change of a kind ('clip', 'Updated' → 'ClipUpdated'). */
export const webhookEventType = (entity: WebhookEntity, change: WebhookChange) => `${ENTITY_NAME[entity]}${change}` as WebhookEventType;

/**
 * The events one write of a row makes, from its revision: `undo` holds the values the write
 * changed, as they were before it (null: the write created the row); `deleted`, whether the row is
 * deleted after it. A create is Created (whatever it wrote); a write that changed nothing makes
 * none; a delete is Deleted going false → true; a restore is an update. A clip's write that
 * changed its Visibility or PublishState is also ClipVisibilityChanged / PublishStateChanged.
 */
export function webhookEventsOf(entity: WebhookEntity, undo: Readonly<Record<string, unknown>> | null, deleted: boolean): WebhookEventType[] {
  if (undo === null) return [webhookEventType(entity, 'Created')];
  // A write that changed no field (the same value saved again) is no change to tell of.
  if (Object.keys(undo).length === 0) return [];
  if ('Deleted' in undo && undo['Deleted'] !== true && deleted) return [webhookEventType(entity, 'Deleted')];
  const out: WebhookEventType[] = [webhookEventType(entity, 'Updated')];
  if (entity === 'clip' && 'Visibility' in undo) out.push('ClipVisibilityChanged');
  if (entity === 'clip' && 'PublishState' in undo) out.push('PublishStateChanged');
  return out;
}

// ── Delivery ──────────────────────────────────────────────────────────────────────────────────
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The waits before each retry after a failed attempt (Standard Webhooks' and Svix's schedule):
 * eight attempts over about 27 hours, then Failed. */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/** The wait before the next attempt after `attempts` failed ones, or null when none is left. */
export function nextAttemptDelay(attempts: number, schedule: readonly number[] = WEBHOOK_RETRY_SCHEDULE_MS): number | null {
  return attempts >= 1 && attempts <= schedule.length ? schedule[attempts - 1]! : null;
}

/** A webhook failing without a success for this long is disabled, and its owner told. */
export const WEBHOOK_DISABLE_AFTER_MS = 24 * HOUR;

export function failingTooLong(failingSince: Date | string | null, now: Date, limitMs = WEBHOOK_DISABLE_AFTER_MS): boolean {
  return failingSince !== null && now.getTime() - new Date(failingSince).getTime() >= limitMs;
}

/** Delivery log entries kept per webhook (newest; one still to deliver is never dropped). */
export const WEBHOOK_LOG_KEPT = 100;
/** The part of a receiver's answer kept in the log. */
export const WEBHOOK_RESPONSE_BODY_KEPT_BYTES = 4096;
/** A receiver that has not answered whole by then: a failed attempt. */
export const WEBHOOK_TIMEOUT_MS = 10 * SECOND;

/** A secret as Standard Webhooks writes it: whsec_ and the base64 of its bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 32;
/** After a rotation the old secret also signs for this long (each delivery carries both
 * signatures), so a receiver can move to the new one without losing a delivery. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * HOUR;

/** What a signature covers (Standard Webhooks): the id, the unix-seconds timestamp, the body. */
export const webhookSignedContent = (id: string, timestampSeconds: number, body: string) => `${id}.${timestampSeconds}.${body}`;

// ── What a webhook is made of ────────────────────────────────────────────────────────────────
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;

/** Why a target URL is refused (Params.reason of the 400 at Url). */
export const WebhookUrlRefusal = {
  /** Not https (http only to loopback, where the server allows it for development). */
  scheme: 'scheme',
  /** user:password@ in the URL. */
  credentials: 'credentials',
  /** A loopback host where it is not allowed. */
  loopback: 'loopback',
  /** A private, link-local, metadata or otherwise non-public address. */
  private: 'private',
} as const;
export type WebhookUrlRefusal = (typeof WebhookUrlRefusal)[keyof typeof WebhookUrlRefusal];

const stripBrackets = (host: string) => host.replace(/^\[|\]$/g, '');

/** A loopback host written as such: localhost, 127.0.0.0/8, ::1. (Names that resolve there are
 * refused by the server when it connects.) */
export function isLoopbackHost(host: string): boolean {
  const h = stripBrackets(host.toLowerCase());
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::1' || h === '0:0:0:0:0:0:0:1';
}

export type WebhookUrlOptions = {
  /** Development and tests: http and https to loopback are let through. */
  allowLoopback?: boolean;
  /** The server's check of an IP literal host ('private', 'loopback' or null), from its one list
   * of refused ranges (sync-server/net/outbound.ts); the studio's screens leave it to the server. */
  refusedAddress?: (host: string) => string | null;
};

/** What the person is told for each refusal: the scheme by the shared URL message, the others by
 * their own, so the field says why an address that looks valid is not taken. */
const REFUSAL_MESSAGE = {
  scheme: 'domain_url_scheme',
  credentials: 'domain_webhook_url_credentials',
  loopback: 'domain_webhook_url_loopback',
  private: 'domain_webhook_url_private',
} as const satisfies Record<WebhookUrlRefusal, DomainMessageKey>;

const refused = (reason: WebhookUrlRefusal): FormError =>
  formError('urlInvalid', REFUSAL_MESSAGE[reason], reason === 'scheme' ? { schemes: 'https://', reason } : { reason }, reason);

/** A webhook's target: an absolute https URL without credentials, to a public host. */
export function validateWebhookUrl(value: string | null | undefined, options: WebhookUrlOptions = {}): FormError | null {
  if (value === null || value === undefined || value.trim() === '') return formError('required', 'domain_url_required');
  if (value.length > URL_MAX_LENGTH) return formError('tooLong', 'domain_url_too_long', { max: URL_MAX_LENGTH });
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return formError('urlInvalid', 'domain_url_invalid');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return formError('urlInvalid', 'domain_url_invalid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refused(WebhookUrlRefusal.scheme);
  if (url.hostname === '') return formError('urlInvalid', 'domain_url_invalid');
  if (url.username !== '' || url.password !== '') return refused(WebhookUrlRefusal.credentials);
  const loopback = isLoopbackHost(url.hostname);
  if (loopback && options.allowLoopback !== true) return refused(WebhookUrlRefusal.loopback);
  if (url.protocol === 'http:' && !loopback) return refused(WebhookUrlRefusal.scheme);
  const why = options.refusedAddress?.(stripBrackets(url.hostname)) ?? null;
  if (why === 'loopback') return refused(WebhookUrlRefusal.loopback);
  if (why !== null && why !== 'notAnAddress') return refused(WebhookUrlRefusal.private);
  return null;
}

export function validateWebhookDescription(value: string | null | undefined): FormError | null {
  if (value === null || value === undefined) return null;
  return value.length > WEBHOOK_DESCRIPTION_MAX_LENGTH ? formError('tooLong', undefined, { max: WEBHOOK_DESCRIPTION_MAX_LENGTH }) : null;
}

/** At least one event type, each known, none twice. */
export function validateWebhookEventTypes(value: readonly string[] | null | undefined): FormError | null {
  if (value === null || value === undefined || value.length === 0) return formError('required');
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  if (value.some((t) => !known.has(t))) return formError('invalid');
  if (new Set(value).size !== value.length) return formError('invalid', undefined, undefined, 'duplicate');
  return null;
}

// ── Who may see and change webhooks (section 6 names no rule for them; this is the studio's) ──
type WebhookFlags = { HasAuditAccess: boolean; HasManageOrganizationSettingsAccess: boolean; HasManageSettingsAccess: boolean };

/**
 * What a caller may do with the webhooks of the organization (networkFlags null) or of one network:
 * read with HasAuditAccess or HasManageOrganizationSettingsAccess at organization scope, change
 * with HasManageOrganizationSettingsAccess there; a network's also with HasManageSettingsAccess on
 * that network. `organizationFlags` are the Organization-scope flags only.
 */
export function webhookAccess(organizationFlags: WebhookFlags, networkFlags: WebhookFlags | null): { read: boolean; write: boolean } {
  const write = organizationFlags.HasManageOrganizationSettingsAccess || networkFlags?.HasManageSettingsAccess === true;
  return { read: write || organizationFlags.HasAuditAccess, write };
}
