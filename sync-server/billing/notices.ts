// Allowance notices (issue 33: "notification settings"): who is told at which percentage of a metered
// add-on's allowance. A durable job measures this month's usage of each organization that has a
// subscription or notice settings and, for each threshold reached that was not told this month,
// records the notice and queues its mails in one transaction (sync-server/mail/outbox.ts: sent after
// commit, or kept when no SMTP_URL is set), so each threshold is told once a month:
//
//   hourly, or at once for one organization after its settings change
//     └─> measure ──> thresholds reached, not in billing_notices ──tx──> billing_notices + mails
import * as z from 'zod';
import { allowance, measureOf, METERED_ADD_ON_TYPES, noticeRecipients, percentUsed, periodOf, thresholdsToTell } from '../../src/domain/billing.ts';
import { now, type AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { sendMail } from '../mail/outbox.ts';
import type { Queryable } from '../store/store.ts';
import { allowanceNoticeMail } from './documents.ts';
import { loadAddOnSettings, loadSubscription } from './subscriptions.ts';
import { measureUsage } from './usage.ts';

export const BILLING_NOTICES_JOB = 'billing.allowance-notices';

/** Queues a check of one organization now (after its settings changed), in the caller's transaction. */
export async function enqueueNoticeCheck(q: Queryable, organizationId: string): Promise<void> {
  await enqueueJob(q, BILLING_NOTICES_JOB, { organizationId }, { singletonKey: `${BILLING_NOTICES_JOB}:${organizationId}`, rerunIfRunning: true });
}

/** Tells whoever is due for one organization; returns the notices recorded. */
export async function sendDueNotices(deps: AppDeps, organizationId: string, at = now(deps)): Promise<number> {
  const period = periodOf(at);
  return deps.store.tx(async (q) => {
    const subscription = await loadSubscription(q, organizationId);
    if (!subscription) return 0;
    const settings = await loadAddOnSettings(q, organizationId);
    const usage = await measureUsage(q, organizationId, period);
    const told = await q.query<{ add_on_type: string; threshold: number }>(`SELECT add_on_type, threshold FROM billing_notices WHERE organization_id = $1 AND period_id = $2`, [organizationId, period.id]);
    let recorded = 0;
    for (const type of METERED_ADD_ON_TYPES) {
      const measure = measureOf(type);
      const allowed = allowance(subscription, measure);
      const percent = percentUsed(usage[measure], allowed);
      const { notifications, restriction } = settings[type];
      const due = thresholdsToTell(notifications, percent, new Set(told.filter((t) => t.add_on_type === type).map((t) => Number(t.threshold))));
      if (due.length === 0) continue;
      const to = noticeRecipients(notifications, subscription.billingContactEmail);
      // Only the highest threshold reached is mailed; the lower ones are recorded as told with it.
      const top = due[due.length - 1]!;
      for (const threshold of due) {
        await q.query(
          `INSERT INTO billing_notices (organization_id, add_on_type, period_id, threshold, percent, recipients, sent_at_utc) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7) ON CONFLICT DO NOTHING`,
          [organizationId, type, period.id, threshold, Number.isFinite(percent) ? percent : 1e9, JSON.stringify(threshold === top ? to : []), at],
        );
        recorded++;
      }
      const languages = await q.query<{ email: string; interface_language: string }>(`SELECT lower(email) AS email, interface_language FROM users WHERE lower(email) = ANY($1::text[]) AND NOT deleted`, [to.map((a) => a.toLowerCase())]);
      for (const address of to) {
        const language = languages.find((l) => l.email === address.toLowerCase())?.interface_language ?? null;
        const mail = allowanceNoticeMail({ to: address, interfaceLanguage: language, organizationName: subscription.organizationName, measure, used: usage[measure], allowance: allowed, percent: Number.isFinite(percent) ? percent : 100, period, maxOverage: restriction.maxOverage });
        await sendMail(q, mail, at);
      }
    }
    return recorded;
  });
}

/** Organizations whose notices may be due: those with a subscription or notice settings kept. */
async function organizationsToCheck(deps: AppDeps): Promise<string[]> {
  const rows = await deps.store.query<{ id: string }>(
    `SELECT o.id FROM organizations o WHERE NOT o.deleted AND (EXISTS (SELECT 1 FROM billing_subscriptions s WHERE s.organization_id = o.id)
       OR EXISTS (SELECT 1 FROM billing_add_on_settings a WHERE a.organization_id = o.id AND a.notification_settings IS NOT NULL)) ORDER BY o.id`,
  );
  return rows.map((r) => r.id);
}

export function billingJobs(deps: AppDeps): JobHandlers {
  return {
    [BILLING_NOTICES_JOB]: defineJob({
      payload: z.object({ organizationId: z.string().optional() }),
      everyMs: 60 * 60 * 1000,
      run: async ({ organizationId }) => {
        for (const id of organizationId ? [organizationId] : await organizationsToCheck(deps)) await sendDueNotices(deps, id);
      },
    }),
  };
}
