// Webhooks as stored (migrations/0500_webhooks.sql), their secrets and signatures, and the
// settings of their delivery. The routes are sync-server/api/webhooks.ts; events are made by
// scan.ts and sent by delivery.ts; the rules shared with the studio are src/domain/webhooks.ts.
//
// Where a webhook starts hearing: the Version above which its revisions count is taken while no
// write holds a Version (the advisory lock of next_row_version(), as the pull's settledVersion
// takes it) and while the organization's scan cursor is locked, so every change committed after
// the webhook is made is above it, and every scan either ran before (its cursor is at or below
// it) or sees the webhook.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Webhook, WebhookEvent } from '../../src/protocol/api/webhooks.ts';
import {
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WEBHOOK_SECRET_BYTES,
  WEBHOOK_SECRET_OVERLAP_MS,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TIMEOUT_MS,
  webhookSignedContent,
  type WebhookDisabledReason,
  type WebhookEventStatus,
  type WebhookEventType,
  type WebhookLogEventType,
} from '../../src/domain/webhooks.ts';
import { enqueueJob } from '../jobs/queue.ts';
import type { Queryable, Store } from '../store/store.ts';

export type WebhookSettings = {
  /** Development and tests: targets on loopback (127.0.0.0/8, ::1) may be reached, over http too. */
  allowLoopback: boolean;
  /** The waits before each retry (tests: milliseconds). */
  retryScheduleMs: readonly number[];
  /** One attempt, connect to the last byte kept. */
  timeoutMs: number;
  /** Failing without a success this long: disabled. */
  disableAfterMs: number;
  /** The backstop sweep: scans every organization's revisions and sends what is due. */
  sweepMs: number;
  /** How long a delivering instance holds a webhook without renewing (it renews before each attempt). */
  leaseMs: number;
};

/** The settings from the environment (CASTAWAY_WEBHOOK_ALLOW_LOOPBACK=1: development and tests
 * only), with the app's own overrides (tests). The one place the environment is read. */
export function webhookSettings(overrides: Partial<WebhookSettings> = {}, jobLeaseMs = 60_000): WebhookSettings {
  const timeoutMs = overrides.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return {
    allowLoopback: process.env.CASTAWAY_WEBHOOK_ALLOW_LOOPBACK === '1',
    retryScheduleMs: WEBHOOK_RETRY_SCHEDULE_MS,
    timeoutMs,
    disableAfterMs: WEBHOOK_DISABLE_AFTER_MS,
    sweepMs: 30_000,
    // Longer than an attempt can take, so a live deliverer is never taken over mid-request.
    leaseMs: Math.max(jobLeaseMs, timeoutMs + 5_000),
    ...overrides,
  };
}

export type WebhookRow = {
  id: string;
  organization_id: string;
  network_id: string | null;
  url: string;
  description: string | null;
  event_types: WebhookEventType[];
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | string | null;
  enabled: boolean;
  disabled_reason: WebhookDisabledReason | null;
  disabled_at_utc: Date | string | null;
  failing_since_utc: Date | string | null;
  last_delivery_at_utc: Date | string | null;
  last_response_status: number | null;
  from_version: number | string;
  created_at_utc: Date | string;
  created_by_id: string | null;
  modified_at_utc: Date | string;
};

export type WebhookEventRow = {
  id: string;
  webhook_id: string;
  seq: number | string;
  event_type: WebhookLogEventType;
  entity: string | null;
  entity_id: string | null;
  version: number | string | null;
  created_at_utc: Date | string;
  status: WebhookEventStatus;
  attempts: number;
  manual: boolean;
  last_attempt_at_utc: Date | string | null;
  next_attempt_at_utc: Date | string | null;
  request_body: string;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
};

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

export function toWebhook(r: WebhookRow): Webhook {
  return {
    Id: r.id,
    OrganizationId: r.organization_id,
    NetworkId: r.network_id,
    Url: r.url,
    Description: r.description,
    EventTypes: r.event_types,
    Enabled: r.enabled,
    DisabledReason: r.disabled_reason,
    DisabledAtUtc: isoOrNull(r.disabled_at_utc),
    FailingSinceUtc: isoOrNull(r.failing_since_utc),
    LastDeliveryAtUtc: isoOrNull(r.last_delivery_at_utc),
    LastResponseStatus: r.last_response_status,
    CreatedAtUtc: iso(r.created_at_utc),
    ModifiedAtUtc: iso(r.modified_at_utc),
  };
}

export function toWebhookEvent(r: WebhookEventRow): WebhookEvent {
  return {
    Id: r.id,
    WebhookId: r.webhook_id,
    EventType: r.event_type,
    EntityId: r.entity_id,
    Status: r.status,
    Attempts: r.attempts,
    CreatedAtUtc: iso(r.created_at_utc),
    LastAttemptAtUtc: isoOrNull(r.last_attempt_at_utc),
    NextAttemptAtUtc: r.status === 'Pending' || r.status === 'Retrying' ? isoOrNull(r.next_attempt_at_utc) : null,
    RequestBody: r.request_body,
    ResponseStatus: r.response_status,
    ResponseBody: r.response_body,
    Error: r.error,
    DurationMs: r.duration_ms === null ? null : Math.round(Number(r.duration_ms)),
  };
}

// ── Secrets and signatures (Standard Webhooks) ─────────────────────────────────────────────────
export const newSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(WEBHOOK_SECRET_BYTES).toString('base64')}`;

/** v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" keyed with the secret's bytes>. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(webhookSignedContent(id, timestampSeconds, body)).digest('base64')}`;
}

/** The secrets that sign at `at`: the current one, and the previous one for a day after a rotation. */
export function signingSecrets(hook: Pick<WebhookRow, 'secret' | 'previous_secret' | 'previous_secret_until'>, at: Date): string[] {
  const previous = hook.previous_secret !== null && hook.previous_secret_until !== null && new Date(hook.previous_secret_until).getTime() > at.getTime();
  return previous ? [hook.secret, hook.previous_secret!] : [hook.secret];
}

// ── Reads and writes ───────────────────────────────────────────────────────────────────────────
export async function loadWebhook(q: Queryable, organizationId: string, id: string): Promise<WebhookRow | null> {
  const [row] = await q.query<WebhookRow>(`SELECT * FROM webhooks WHERE id = $1 AND organization_id = $2`, [id, organizationId]);
  return row ?? null;
}

/**
 * The Version a webhook made or enabled now starts above (see the header). Runs in the caller's
 * transaction: waits for the writes in flight, and holds new ones back until it commits.
 */
async function startingVersion(q: Queryable, organizationId: string): Promise<number> {
  await q.query(`SELECT pg_advisory_xact_lock(727275)`);
  const [settled] = await q.query<{ v: number | string }>(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS v FROM row_version`);
  const version = Number(settled?.v ?? 0);
  await q.query(`INSERT INTO webhook_cursors (organization_id, version) VALUES ($1, $2) ON CONFLICT (organization_id) DO NOTHING`, [organizationId, version]);
  await q.query(`SELECT version FROM webhook_cursors WHERE organization_id = $1 FOR UPDATE`, [organizationId]);
  return version;
}

export type NewWebhook = {
  organizationId: string;
  networkId: string | null;
  url: string;
  description: string | null;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  createdById: string | null;
  at: Date;
};

export async function insertWebhook(store: Store, w: NewWebhook, sweepMs: number): Promise<WebhookRow> {
  return store.tx(async (q) => {
    const from = await startingVersion(q, w.organizationId);
    const [sweeping] = await q.query(`SELECT 1 FROM jobs WHERE kind = $1 AND state IN ('queued', 'running')`, [WEBHOOK_SWEEP_JOB]);
    if (!sweeping) await enqueueSweep(q, 'a', sweepMs);
    const [row] = await q.query<WebhookRow>(
      `INSERT INTO webhooks (id, organization_id, network_id, url, description, event_types, secret, enabled, disabled_reason, disabled_at_utc,
         from_version, created_at_utc, created_by_id, modified_at_utc)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, CASE WHEN $8 THEN NULL ELSE 'User' END, CASE WHEN $8 THEN NULL ELSE $9::timestamptz END, $10, $9, $11, $9)
       RETURNING *`,
      [randomUUID(), w.organizationId, w.networkId, w.url, w.description, JSON.stringify(w.eventTypes), newSecret(), w.enabled, w.at, from, w.createdById],
    );
    return row!;
  });
}

export type WebhookChanges = { url?: string; description?: string | null; eventTypes?: WebhookEventType[]; enabled?: boolean };

/** Changes a webhook. Turned on again, it starts afresh: it hears of changes from now on, and its
 * days of failing are forgotten; turned off by a person, it says so (DisabledReason 'User'). */
export async function updateWebhook(store: Store, hook: WebhookRow, changes: WebhookChanges, at: Date): Promise<WebhookRow> {
  return store.tx(async (q) => {
    const enabling = changes.enabled === true && !hook.enabled;
    const disabling = changes.enabled === false && hook.enabled;
    const from = enabling ? await startingVersion(q, hook.organization_id) : null;
    const [row] = await q.query<WebhookRow>(
      `UPDATE webhooks SET
         url = COALESCE($2::text, url),
         description = CASE WHEN $3::boolean THEN $4::text ELSE description END,
         event_types = COALESCE($5::jsonb, event_types),
         enabled = COALESCE($6::boolean, enabled),
         disabled_reason = CASE WHEN $7::boolean THEN NULL WHEN $8::boolean THEN 'User' ELSE disabled_reason END,
         disabled_at_utc = CASE WHEN $7::boolean THEN NULL WHEN $8::boolean THEN $9::timestamptz ELSE disabled_at_utc END,
         failing_since_utc = CASE WHEN $7::boolean THEN NULL ELSE failing_since_utc END,
         from_version = COALESCE($10::bigint, from_version),
         modified_at_utc = $9::timestamptz
       WHERE id = $1 RETURNING *`,
      [
        hook.id,
        changes.url ?? null,
        changes.description !== undefined,
        changes.description ?? null,
        changes.eventTypes ? JSON.stringify(changes.eventTypes) : null,
        changes.enabled ?? null,
        enabling,
        disabling,
        at,
        from,
      ],
    );
    return row!;
  });
}

/** A new secret; the one it replaces keeps signing (beside it) for WEBHOOK_SECRET_OVERLAP_MS. */
export async function rotateSecret(q: Queryable, hook: WebhookRow, at: Date): Promise<string> {
  const secret = newSecret();
  await q.query(`UPDATE webhooks SET secret = $2, previous_secret = secret, previous_secret_until = $3, modified_at_utc = $4 WHERE id = $1`, [
    hook.id,
    secret,
    new Date(at.getTime() + WEBHOOK_SECRET_OVERLAP_MS),
    at,
  ]);
  return secret;
}

// ── Jobs queued ────────────────────────────────────────────────────────────────────────────────
export const WEBHOOK_DELIVER_JOB = 'webhooks.deliver';
export const WEBHOOK_SWEEP_JOB = 'webhooks.sweep';

/**
 * Asks for the webhook's due events to be sent: now (one job per webhook, run again if it is
 * running: it may have looked before this event was there), or after `delayMs` (a retry's time;
 * its own job, so the one of now is not held back to then). Whichever runs takes the webhook's
 * lease (delivery.ts), so deliveries stay one at a time.
 */
export function enqueueDelivery(q: Queryable, webhookId: string, delayMs = 0): Promise<number | null> {
  if (delayMs <= 0) return enqueueJob(q, WEBHOOK_DELIVER_JOB, { webhookId }, { singletonKey: `${WEBHOOK_DELIVER_JOB}:${webhookId}`, rerunIfRunning: true });
  // To a tenth of a second: the jobs asked for the same moment are one.
  const runAt = new Date(Math.ceil((Date.now() + delayMs) / 100) * 100);
  return enqueueJob(q, WEBHOOK_DELIVER_JOB, { webhookId }, { singletonKey: `${WEBHOOK_DELIVER_JOB}:${webhookId}@${runAt.getTime()}`, runAt });
}

/**
 * The sweep (jobs.ts) is a chain of two links, each queuing the other when it starts, so it runs
 * every `sweepMs` for good once the first webhook is made (a recurring job of the runner would be
 * scheduled in every store, with webhooks or not). Two keys, because a job cannot queue its own
 * key while it runs; at most two links are ever queued.
 */
export function enqueueSweep(q: Queryable, link: 'a' | 'b', sweepMs: number): Promise<number | null> {
  return enqueueJob(q, WEBHOOK_SWEEP_JOB, { link }, { singletonKey: `${WEBHOOK_SWEEP_JOB}:${link}`, runAt: new Date(Date.now() + sweepMs) });
}

/** The body of an event, as sent and kept: {id, type, timestamp, data}. */
export function eventBody(id: string, type: WebhookLogEventType, timestamp: Date | string, data: Record<string, unknown>): string {
  return JSON.stringify({ id, type, timestamp: iso(timestamp), data });
}

/** 'Send test event': a WebhookTest event after those queued, sent even while disabled. */
export async function queueTestEvent(store: Store, hook: WebhookRow, at: Date): Promise<WebhookEventRow> {
  return store.tx(async (q) => {
    const id = randomUUID();
    const body = eventBody(id, WEBHOOK_TEST_EVENT, at, { entity: null, id: null, version: null, row: null, changed: [], webhookId: hook.id });
    const [row] = await q.query<WebhookEventRow>(
      `INSERT INTO webhook_events (id, webhook_id, event_type, created_at_utc, status, manual, next_attempt_at_utc, request_body)
       VALUES ($1, $2, $3, $4, 'Pending', true, $4, $5) RETURNING *`,
      [id, hook.id, WEBHOOK_TEST_EVENT, at, body],
    );
    await enqueueDelivery(q, hook.id);
    return row!;
  });
}

/**
 * Sends an event again, with its id and body: one still waiting (Pending, Retrying) is tried now
 * in its place; one that succeeded or failed gets one more attempt, ahead of any retry that holds
 * the queue. False when the webhook has no such event.
 */
export async function resendEvent(store: Store, hook: WebhookRow, eventId: string, at: Date): Promise<boolean> {
  return store.tx(async (q) => {
    const rows = await q.query(
      `UPDATE webhook_events SET
         manual = CASE WHEN status IN ('Succeeded', 'Failed') THEN true ELSE manual END,
         status = CASE WHEN status IN ('Succeeded', 'Failed') THEN 'Pending' ELSE status END,
         next_attempt_at_utc = $3
       WHERE id = $1 AND webhook_id = $2 RETURNING id`,
      [eventId, hook.id, at],
    );
    if (rows.length === 0) return false;
    await enqueueDelivery(q, hook.id);
    return true;
  });
}
