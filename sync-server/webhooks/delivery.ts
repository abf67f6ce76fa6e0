// Sending a webhook's events (the state of one delivery: src/domain/webhooks.ts). One instance at a
// time delivers a webhook's events, one at a time, in the order they were made: it holds the
// webhook's lease (delivery_lease, renewed before each attempt, lapsing if the instance dies).
//
//   'webhooks.deliver' job ──lease taken?──no──> a job for when it lapses; stop (the holder looks
//        │                                         again after letting go)
//        │ yes
//        ▼
//   next due: a manual one (test, re-send) first; else, if enabled, the oldest waiting one
//        ──none──> let go ──due meanwhile? again : a job at the next due time
//        ▼
//   POST (outbound.ts safePost: SSRF checks, no redirects, timeout) ──> recorded:
//        2xx: Succeeded (the webhook's failing time cleared)
//        else: Retrying after the schedule's next wait, or Failed when it ran out (a manual one:
//              Failed at once); failing since a day: the webhook is disabled ('Failing')
//
// An event is marked sent only after its answer came, so a crash between the two sends it again
// with the same id (the webhook-id header): receivers deduplicate by it (Standard Webhooks).
import { randomUUID } from 'node:crypto';
import { failingTooLong, nextAttemptDelay, WEBHOOK_LOG_KEPT, WEBHOOK_RESPONSE_BODY_KEPT_BYTES } from '../../src/domain/webhooks.ts';
import type { Logger } from '../observability/log.ts';
import { FetchError, safePost } from '../net/outbound.ts';
import type { Queryable, Store } from '../store/store.ts';
import { enqueueDelivery, signature, signingSecrets, type WebhookEventRow, type WebhookRow, type WebhookSettings } from './webhooks.ts';

export const WEBHOOK_USER_AGENT = 'CastawayStudio-Webhooks/1.0';

export type DeliveryContext = { store: Store; settings: WebhookSettings; clock: () => Date; log: Logger };

type Outcome = { status: number | null; body: string | null; error: string | null; durationMs: number | null };

/** Sends the webhook's due events, in order, for as long as some are due. */
export async function deliverWebhook(ctx: DeliveryContext, webhookId: string, signal?: AbortSignal): Promise<void> {
  const { store } = ctx;
  // Bounded: each round is one holding of the lease; another round only when an event became due
  // while this instance held it and a job for it found the lease taken.
  for (let round = 0; round < 100; round++) {
    const token = randomUUID();
    if (!(await takeLease(store, webhookId, token, ctx.settings.leaseMs))) {
      // Another holds it: it looks again when it lets go. Should it have died holding it, a job
      // for when its lease lapses takes over (without waiting for the sweep).
      const [held] = await store.query<{ ms: number | string | null }>(
        `SELECT extract(epoch FROM delivery_lease_until - now()) * 1000 AS ms FROM webhooks WHERE id = $1`,
        [webhookId],
      );
      if (held?.ms !== null && held?.ms !== undefined) await enqueueDelivery(store, webhookId, Math.max(0, Number(held.ms)) + 100);
      return;
    }
    try {
      await deliverHeld(ctx, webhookId, token, signal);
    } finally {
      await store.query(`UPDATE webhooks SET delivery_lease = NULL, delivery_lease_until = NULL WHERE id = $1 AND delivery_lease = $2`, [webhookId, token]);
    }
    if (signal?.aborted) return;
    const next = await nextDueAt(store, webhookId);
    if (next === null) return;
    const wait = next.getTime() - ctx.clock().getTime();
    if (wait > 0) {
      await enqueueDelivery(store, webhookId, wait);
      return;
    }
  }
}

async function takeLease(q: Queryable, webhookId: string, token: string, leaseMs: number): Promise<boolean> {
  const rows = await q.query(
    `UPDATE webhooks SET delivery_lease = $2, delivery_lease_until = now() + $3::float8 * interval '1 millisecond'
     WHERE id = $1 AND (delivery_lease IS NULL OR delivery_lease_until < now()) RETURNING id`,
    [webhookId, token, leaseMs],
  );
  return rows.length > 0;
}

async function renewLease(q: Queryable, webhookId: string, token: string, leaseMs: number): Promise<boolean> {
  const rows = await q.query(`UPDATE webhooks SET delivery_lease_until = now() + $3::float8 * interval '1 millisecond' WHERE id = $1 AND delivery_lease = $2 RETURNING id`, [
    webhookId,
    token,
    leaseMs,
  ]);
  return rows.length > 0;
}

const WAITING = `status IN ('Pending', 'Retrying')`;

/** The next event to send now: a manual one that is due, else (enabled) the oldest waiting one if due. */
async function nextDue(q: Queryable, hook: WebhookRow, at: Date): Promise<WebhookEventRow | null> {
  const [manual] = await q.query<WebhookEventRow>(`SELECT * FROM webhook_events WHERE webhook_id = $1 AND ${WAITING} AND manual AND next_attempt_at_utc <= $2 ORDER BY seq LIMIT 1`, [
    hook.id,
    at,
  ]);
  if (manual) return manual;
  if (!hook.enabled) return null;
  const [head] = await q.query<WebhookEventRow>(`SELECT * FROM webhook_events WHERE webhook_id = $1 AND ${WAITING} AND NOT manual ORDER BY seq LIMIT 1`, [hook.id]);
  return head && head.next_attempt_at_utc !== null && new Date(head.next_attempt_at_utc).getTime() <= at.getTime() ? head : null;
}

/** When the webhook's next event falls due (null: nothing waits that may be sent). */
export async function nextDueAt(q: Queryable, webhookId: string): Promise<Date | null> {
  const [row] = await q.query<{ at: Date | string | null }>(
    `SELECT least(
       (SELECT min(next_attempt_at_utc) FROM webhook_events WHERE webhook_id = $1 AND ${WAITING} AND manual),
       (SELECT e.next_attempt_at_utc FROM webhook_events e JOIN webhooks w ON w.id = e.webhook_id
         WHERE e.webhook_id = $1 AND e.status IN ('Pending', 'Retrying') AND NOT e.manual AND w.enabled ORDER BY e.seq LIMIT 1)) AS at`,
    [webhookId],
  );
  return row?.at ? new Date(row.at) : null;
}

async function deliverHeld(ctx: DeliveryContext, webhookId: string, token: string, signal: AbortSignal | undefined): Promise<void> {
  const { store, settings } = ctx;
  while (!signal?.aborted) {
    const [hook] = await store.query<WebhookRow>(`SELECT * FROM webhooks WHERE id = $1`, [webhookId]);
    if (!hook) return;
    const at = ctx.clock();
    const event = await nextDue(store, hook, at);
    if (!event) return;
    if (!(await renewLease(store, webhookId, token, settings.leaseMs))) return;
    const outcome = await attempt(ctx, hook, event, at);
    await record(ctx, hook, event, outcome, token);
  }
}

/** One POST of the event: its body as kept, signed with each secret in use. */
async function attempt(ctx: DeliveryContext, hook: WebhookRow, event: WebhookEventRow, at: Date): Promise<Outcome> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signingSecrets(hook, at)
      .map((secret) => signature(secret, event.id, timestamp, event.request_body))
      .join(' '),
  };
  try {
    const posted = await safePost(hook.url, event.request_body, headers, {
      allowLoopback: ctx.settings.allowLoopback,
      timeoutMs: ctx.settings.timeoutMs,
      maxResponseBytes: WEBHOOK_RESPONSE_BODY_KEPT_BYTES,
    });
    return { status: posted.status, body: posted.body, error: null, durationMs: posted.durationMs };
  } catch (err) {
    const error = err instanceof FetchError ? err.message : `failed: ${(err as Error).message}`;
    return { status: null, body: null, error, durationMs: null };
  }
}

/** The attempt's outcome, in the event's log entry and on the webhook (in one transaction). */
async function record(ctx: DeliveryContext, hook: WebhookRow, event: WebhookEventRow, outcome: Outcome, token: string): Promise<void> {
  const at = ctx.clock();
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const attempts = event.attempts + 1;
  const delay = ok || event.manual ? null : nextAttemptDelay(attempts, ctx.settings.retryScheduleMs);
  const status = ok ? 'Succeeded' : delay === null ? 'Failed' : 'Retrying';
  const next = delay === null ? null : new Date(at.getTime() + delay);
  let disabled = false;
  await ctx.store.tx(async (q) => {
    // Recorded only by the holder of the lease: one that lost it (it lapsed) leaves the event to the new holder.
    const [held] = await q.query(`SELECT id FROM webhooks WHERE id = $1 AND delivery_lease = $2 FOR UPDATE`, [hook.id, token]);
    if (!held) return;
    await q.query(
      `UPDATE webhook_events SET status = $2, attempts = $3, last_attempt_at_utc = $4, next_attempt_at_utc = $5, response_status = $6,
         response_body = $7, error = $8, duration_ms = $9
       WHERE id = $1`,
      [event.id, status, attempts, at, next, outcome.status, outcome.body, outcome.error, outcome.durationMs],
    );
    const [after] = await q.query<Pick<WebhookRow, 'enabled' | 'failing_since_utc'>>(
      `UPDATE webhooks SET last_delivery_at_utc = $2, last_response_status = $3,
         failing_since_utc = CASE WHEN $4::boolean THEN NULL ELSE COALESCE(failing_since_utc, $2) END
       WHERE id = $1 RETURNING enabled, failing_since_utc`,
      [hook.id, at, outcome.status, ok],
    );
    if (after && after.enabled && failingTooLong(after.failing_since_utc, at, ctx.settings.disableAfterMs)) {
      await q.query(`UPDATE webhooks SET enabled = false, disabled_reason = 'Failing', disabled_at_utc = $2, modified_at_utc = $2 WHERE id = $1`, [hook.id, at]);
      disabled = true;
    }
    await pruneLog(q, hook.id);
  });
  if (disabled) {
    // The owner is told by the webhook itself (Enabled false, DisabledReason 'Failing', on the
    // settings screen); the studio sends no mail yet.
    ctx.log.warn({ webhookId: hook.id, organizationId: hook.organization_id, failingSince: hook.failing_since_utc }, 'webhook disabled: its deliveries failed for a day');
  }
}

/** Keeps the newest WEBHOOK_LOG_KEPT entries of the log, and every one still to be sent. */
export async function pruneLog(q: Queryable, webhookId: string): Promise<void> {
  await q.query(
    `DELETE FROM webhook_events WHERE webhook_id = $1 AND status IN ('Succeeded', 'Failed')
       AND seq < (SELECT seq FROM webhook_events WHERE webhook_id = $1 ORDER BY seq DESC OFFSET ${WEBHOOK_LOG_KEPT - 1} LIMIT 1)`,
    [webhookId],
  );
}
