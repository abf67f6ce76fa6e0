// The webhooks' durable jobs and their trigger (the pattern of feeds/feed-items.ts):
//
//   a write ──commit──> bus {organizationId} ──(one per organization per turn, only one that has
//        webhooks)──> 'webhooks.scan' ──events made (scan.ts)──> 'webhooks.deliver' per webhook
//   'webhooks.sweep' every settings.sweepMs once a webhook was made (webhooks.ts enqueueSweep):
//        scans every organization with webhooks and asks for every webhook with a due event: the
//        backstop for a lost enqueue (a crash between a commit and the bus, a retry's job lost),
//        so nothing is left behind for long.
import * as z from 'zod';
import type { AppDeps } from '../app.ts';
import { now } from '../app.ts';
import { onOrganizationsChanged } from '../bus.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { logOf } from '../observability/log.ts';
import type { Queryable } from '../store/store.ts';
import { settledVersion } from '../sync/pull.ts';
import { deliverWebhook } from './delivery.ts';
import { scanOrganization } from './scan.ts';
import { enqueueDelivery, enqueueSweep, WEBHOOK_DELIVER_JOB, WEBHOOK_SWEEP_JOB, type WebhookSettings } from './webhooks.ts';

export const WEBHOOK_SCAN_JOB = 'webhooks.scan';

/** Asks for the organization's revisions to be made into events (if it has webhooks). */
export async function enqueueScan(q: Queryable, organizationId: string): Promise<void> {
  const [has] = await q.query(`SELECT 1 FROM webhook_cursors WHERE organization_id = $1`, [organizationId]);
  if (has) await enqueueJob(q, WEBHOOK_SCAN_JOB, { organizationId }, { singletonKey: `${WEBHOOK_SCAN_JOB}:${organizationId}`, rerunIfRunning: true });
}

async function scanAll(deps: AppDeps, organizationId: string): Promise<void> {
  for (;;) {
    const settled = await settledVersion(deps.store);
    if (await scanOrganization(deps.store, organizationId, settled, now(deps))) return;
  }
}

export function webhookJobs(deps: AppDeps, settings: WebhookSettings): JobHandlers {
  onOrganizationsChanged(deps.bus, async (changed) => {
    const organizations = changed.has(null)
      ? (await deps.store.query<{ organization_id: string }>(`SELECT organization_id FROM webhook_cursors`)).map((r) => r.organization_id)
      : [...changed].filter((o): o is string => o !== null);
    // A failed enqueue (the store closing) is left to the sweep.
    await Promise.all(organizations.map((organizationId) => enqueueScan(deps.store, organizationId).catch(() => {})));
  });
  const delivery = { store: deps.store, settings, clock: () => now(deps), log: logOf(deps) };
  return {
    [WEBHOOK_SCAN_JOB]: defineJob({
      payload: z.object({ organizationId: z.string().uuid() }),
      run: async ({ organizationId }) => scanAll(deps, organizationId),
    }),
    [WEBHOOK_DELIVER_JOB]: defineJob({
      payload: z.object({ webhookId: z.string().uuid() }),
      // Its own pool: a slow receiver holds up other webhooks, never the other jobs.
      pool: 'webhooks',
      run: async ({ webhookId }, job) => deliverWebhook(delivery, webhookId, job.signal),
    }),
    [WEBHOOK_SWEEP_JOB]: defineJob({
      payload: z.object({ link: z.enum(['a', 'b']) }),
      run: async ({ link }) => {
        // The next link first: the chain goes on whatever this run meets.
        await enqueueSweep(deps.store, link === 'a' ? 'b' : 'a', settings.sweepMs);
        const organizations = await deps.store.query<{ organization_id: string }>(`SELECT organization_id FROM webhook_cursors`);
        for (const { organization_id } of organizations) await scanAll(deps, organization_id);
        const due = await deps.store.query<{ webhook_id: string }>(
          `SELECT DISTINCT e.webhook_id FROM webhook_events e JOIN webhooks w ON w.id = e.webhook_id
           WHERE e.status IN ('Pending', 'Retrying') AND e.next_attempt_at_utc <= $1 AND (w.enabled OR e.manual)`,
          [now(deps)],
        );
        for (const { webhook_id } of due) await enqueueDelivery(deps.store, webhook_id);
      },
    }),
  };
}
